import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import type { Config } from '../../config.ts';
import * as repository from '../../db/repositories/documentRepository.ts';
import {
  type Document,
  type DocumentContent,
  type DocumentVersion,
  EMPTY_CONTENT_TYPE,
} from '../../domain/documents.ts';
import { AppError } from '../../domain/errors.ts';
import * as service from '../../services/documentService.ts';
import type { Api, RequestTypeProvider } from '../api.ts';
import { canWrite } from '../auth.ts';
import type { ServerDeps } from '../deps.ts';
import { DOCUMENTS_PATH } from '../paths.ts';
import { presentDocument, presentDocumentVersion } from '../presenters/documentPresenter.ts';
import { each, resourceRoutes } from '../resourceRoutes.ts';
import { errorResponses, IdParams } from '../schemas/common.ts';
import {
  Bytes,
  CreateDocumentBody,
  DocumentFilters,
  DocumentSchema,
  FileResponse,
  metadataOf,
  ReplaceDocumentBody,
  VersionParams,
  VersionSchema,
} from '../schemas/documentSchemas.ts';
import { validatorCompiler } from '../validation.ts';

const tags = ['documents'];

/** Answers a file: its type, its version as ETag, and as a download (never rendered in our origin). */
export function sendFile(
  reply: FastifyReply,
  file: { name: string; version: number; contentType: string; bytes: Buffer },
) {
  const filename = encodeURIComponent(file.name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return reply
    .header('content-type', file.contentType)
    .header('etag', `"${file.version}"`)
    .header('content-disposition', `attachment; filename*=UTF-8''${filename}`)
    .header('x-content-type-options', 'nosniff')
    .send(file.bytes);
}

export function registerDocuments(api: Api, { db, config }: ServerDeps): void {
  const documents = resourceRoutes(api, {
    tags,
    path: DOCUMENTS_PATH,
    name: 'documents',
    schema: DocumentSchema,
    present: each((document: Document, request) =>
      presentDocument(document, request.hrefs, canWrite(request)),
    ),
  });
  documents.list({
    summary: 'List documents, ordered by folder and name',
    paging: 'offset',
    filters: DocumentFilters,
    load: (filter, page) => repository.listDocuments(db, filter, page),
    createRel: 'createDocument',
  });
  documents.get({
    summary: 'One document (its current version)',
    load: (at) => service.getDocument(db, at.id),
  });
  documents.create({
    summary: 'Create a document: version 1, an empty file until uploaded (emits DOCUMENT_CREATED)',
    body: CreateDocumentBody,
    run: (body) => service.createDocument(db, metadataOf(body)),
  });
  documents.replace({
    summary: 'Replace the metadata: a change makes a new version (emits DOCUMENT_UPDATED)',
    body: ReplaceDocumentBody,
    run: (body, at) => service.replaceDocument(db, at.id, metadataOf(body)),
  });
  documents.remove({
    summary: 'Delete a document with all its versions (emits DOCUMENT_DELETED)',
    run: (at) => service.deleteDocument(db, at.id),
  });

  const versions = resourceRoutes(api, {
    tags,
    path: `${DOCUMENTS_PATH}/:id/versions`,
    itemParam: 'version',
    name: 'versions',
    schema: VersionSchema,
    present: each((version: DocumentVersion, request) => presentDocumentVersion(version, request.hrefs)),
  });
  versions.list({
    summary: 'Versions of a document, newest first',
    paging: 'offset',
    owner: async (at) => (await service.getDocument(db, at.id)).id,
    load: (_filter, page, at) => repository.listVersions(db, at.owner, page),
  });
  versions.get({
    summary: 'A document as it was at one version',
    load: (at) => service.getVersion(db, at.id, at.itemId),
  });

  api.get(
    `${DOCUMENTS_PATH}/:id/file`,
    {
      schema: {
        tags,
        summary: 'The content of the current version',
        params: IdParams,
        response: { ...FileResponse, ...errorResponses(404) },
      },
    },
    async (request, reply) => sendFile(reply, await service.readFile(db, request.params.id)),
  );

  api.get(
    `${DOCUMENTS_PATH}/:id/versions/:version/file`,
    {
      schema: {
        tags,
        summary: 'The content of one version',
        params: VersionParams,
        response: { ...FileResponse, ...errorResponses(404) },
      },
    },
    async (request, reply) =>
      sendFile(reply, await service.readFile(db, request.params.id, request.params.version)),
  );

  fileUploadRoute(api, config, {
    tags,
    path: `${DOCUMENTS_PATH}/:id/file`,
    summary: 'Upload the content: new bytes or type make a new version (emits DOCUMENT_UPDATED)',
    description:
      `The raw bytes in any Content-Type, which becomes the document's contentType ` +
      `(none: ${EMPTY_CONTENT_TYPE}). An empty body is an empty file. ` +
      `At most ${config.documentMaxBytes} bytes, else 413 PAYLOAD_TOO_LARGE.`,
    response: DocumentSchema,
    handler: async (request, content) => {
      const document = await service.uploadContent(db, paramsOf(request).id, content);
      return presentDocument(document, request.hrefs, canWrite(request));
    },
  });
}

const paramsOf = (request: FastifyRequest) => request.params as { id: string };

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

/**
 * A PUT that takes a file's raw bytes of any type, bounded by the document limit (413 beyond it).
 * It lives in its own plugin: there the JSON-only parser of the API is replaced by one that keeps
 * the bytes. The body schema documents the upload (and tells the API's no-body guard that this
 * route takes one); the bytes are never JSON-validated.
 */
export function fileUploadRoute(api: Api, config: Config, route: UploadRoute): void {
  api.register(async (instance) => {
    const files = instance.withTypeProvider<RequestTypeProvider>();
    files.removeAllContentTypeParsers();
    files.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    files.setValidatorCompiler((part) => (part.httpPart === 'body' ? () => true : validatorCompiler(part)));
    files.put(
      route.path,
      {
        bodyLimit: config.documentMaxBytes,
        schema: {
          tags: route.tags,
          ...(route.operationId ? { operationId: route.operationId } : {}),
          summary: route.summary,
          description: route.description,
          params: IdParams,
          ...(route.querystring ? { querystring: route.querystring } : {}),
          body: { content: { '*/*': Bytes } },
          response: { 200: route.response, ...errorResponses(404, 413, 415) },
        },
      },
      async (request) => {
        const contentType = request.headers['content-type']?.trim() || EMPTY_CONTENT_TYPE;
        if (contentType.length > 255) {
          throw new AppError('VALIDATION_FAILED', { rule: 'maxLength', field: 'Content-Type', limit: 255 });
        }
        const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        return route.handler(request, { contentType, bytes });
      },
    );
  });
}
