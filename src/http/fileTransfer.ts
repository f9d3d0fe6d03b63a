// Files in and out of the API, with the same rules wherever bytes are stored (documents, ticket
// attachments): uploads as raw bytes bounded by the document limit, answers as downloads that a
// browser never renders in the API's origin.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import type { Config } from '../config.ts';
import { type DocumentContent, EMPTY_CONTENT_TYPE } from '../domain/documents.ts';
import { AppError } from '../domain/errors.ts';
import type { Api, RequestTypeProvider } from './api.ts';
import { registerRoute } from './route.ts';
import { IdParams } from './schemas/common.ts';
import { Bytes, FileResponse } from './schemas/documentSchemas.ts';
import { validatorCompiler } from './validation.ts';

/** Answers a file as a download of its type (never sniffed), under its name; `etag` when it has a version. */
function sendFile(reply: FastifyReply, file: DownloadedFile) {
  const filename = encodeURIComponent(file.name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  if (file.etag !== undefined) reply.header('etag', `"${file.etag}"`);
  return reply
    .header('content-type', file.contentType)
    .header('content-disposition', `attachment; filename*=UTF-8''${filename}`)
    .header('x-content-type-options', 'nosniff')
    .send(file.bytes);
}

/** A file as a download answers it. */
interface DownloadedFile {
  name: string;
  contentType: string;
  bytes: Buffer;
  etag?: string;
}

interface DownloadRoute {
  tags: string[];
  operationId?: string;
  path: string;
  summary: string;
  /** The file at the request's path; 404 when there is none. */
  load: (params: Record<string, string>) => Promise<DownloadedFile>;
}

/** A GET of a stored file's bytes as a download (`sendFile`). */
export function fileDownloadRoute(api: Api, route: DownloadRoute): void {
  const { load, ...doc } = route;
  registerRoute(api, {
    method: 'GET',
    ...doc,
    response: { ...FileResponse },
    errors: [404],
    handler: async (request, reply) => sendFile(reply, await load(request.params as Record<string, string>)),
  });
}

/** A stored media type is at most this long (it is echoed in headers and events). */
const MAX_CONTENT_TYPE_LENGTH = 255;

/** Refuses a media type longer than a stored one may be, naming where it came from. */
export function checkContentTypeLength(contentType: string, field: string): void {
  if (contentType.length > MAX_CONTENT_TYPE_LENGTH) {
    throw new AppError('VALIDATION_FAILED', { rule: 'maxLength', field, limit: MAX_CONTENT_TYPE_LENGTH });
  }
}

/**
 * Registers upload routes in their own plugin: there the JSON-only parser of the API is replaced
 * by one that keeps the bytes (bounded by each route's bodyLimit). A route's body schema documents
 * the upload (and tells the API's no-body guard that the route takes one); the bytes are never
 * JSON-validated.
 */
export function registerUploads(api: Api, routes: (files: Api) => void): void {
  api.register(async (instance) => {
    const files = instance.withTypeProvider<RequestTypeProvider>();
    files.removeAllContentTypeParsers();
    files.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    files.setValidatorCompiler((route) =>
      route.httpPart === 'body' ? () => true : validatorCompiler(route),
    );
    routes(files as unknown as Api);
  });
}

/** The uploaded body as bytes (none is an empty file). */
export const uploadedBytes = (body: unknown): Buffer => (Buffer.isBuffer(body) ? body : Buffer.alloc(0));

interface UploadRoute {
  tags: string[];
  operationId?: string;
  /** With an `:id` parameter. */
  path: string;
  summary: string;
  description: string;
  querystring?: TSchema;
  response: TSchema;
  /** Gets the bytes and their type (none given: application/octet-stream); answers 200. */
  handler: (request: FastifyRequest, content: DocumentContent) => Promise<unknown>;
}

/** A PUT of a file's raw bytes of any type, bounded by the document limit (413 beyond it). */
export function fileUploadRoute(api: Api, config: Config, route: UploadRoute): void {
  registerUploads(api, (files) => {
    registerRoute(files, {
      method: 'PUT',
      ...route,
      params: IdParams,
      bodyLimit: config.documentMaxBytes,
      body: { content: { '*/*': Bytes } } as unknown as TSchema,
      response: { 200: route.response },
      errors: [404, 413, 415],
      handler: async (request) => {
        const contentType = request.headers['content-type']?.trim() || EMPTY_CONTENT_TYPE;
        checkContentTypeLength(contentType, 'Content-Type');
        return route.handler(request, { contentType, bytes: uploadedBytes(request.body) });
      },
    });
  });
}
