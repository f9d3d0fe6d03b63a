import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import * as repository from '../../db/repositories/documents.ts';
import { type DocumentMetadata, EMPTY_CONTENT_TYPE } from '../../domain/documents.ts';
import { AppError } from '../../domain/errors.ts';
import * as service from '../../services/documents.ts';
import type { Api, RequestTypeProvider } from '../api.ts';
import { canWrite } from '../auth.ts';
import type { ServerDeps } from '../deps.ts';
import { offsetCollection } from '../hal.ts';
import { DOCUMENTS_PATH } from '../paths.ts';
import { presentDocument, presentDocumentVersion } from '../presenters/documents.ts';
import {
  checkBodyId,
  errorResponses,
  IdParams,
  Nullable,
  OffsetCollection,
  OffsetQuery,
  offsetPage,
  Resource,
} from '../schemas/common.ts';
import { validatorCompiler } from '../validation.ts';

const NAME_RULE = 'a file name: no "/", not "." or ".."';
const FOLDER_RULE = 'a production folder path: "/" or "/segment/segment", no empty segments';
const Name = Type.String({
  minLength: 1,
  maxLength: 255,
  pattern: '^(?!\\.\\.?$)[^/]+$',
  description: NAME_RULE,
});
const Folder = Type.String({ maxLength: 1000, pattern: '^/([^/]+(/[^/]+)*)?$', description: FOLDER_RULE });

const DocumentSchema = Resource(
  Type.Object({
    id: Type.String({ format: 'uuid' }),
    name: Type.String(),
    folder: Type.String(),
    description: Nullable(Type.String()),
    contentType: Type.String(),
    size: Type.Integer({ description: 'Bytes' }),
    version: Type.Integer({ description: 'Current version; every change adds one' }),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  }),
  'Document of a production folder',
);

const VersionSchema = Resource(
  Type.Object({
    documentId: Type.String({ format: 'uuid' }),
    version: Type.Integer(),
    name: Type.String(),
    folder: Type.String(),
    description: Nullable(Type.String()),
    contentType: Type.String(),
    size: Type.Integer(),
    createdAt: Type.String({ format: 'date-time', description: 'When this version was made' }),
  }),
  'A document as it was at one version',
);

const writable = {
  name: Name,
  folder: Folder,
  description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
};
const CreateBody = Type.Object(writable, { additionalProperties: false });
const ReplaceBody = Type.Object(
  { id: Type.Optional(Type.String({ description: 'Must equal the path id when sent' })), ...writable },
  { additionalProperties: false },
);
const VersionParams = Type.Object({
  id: Type.String({ maxLength: 100 }),
  version: Type.String({ maxLength: 100 }),
});

// The bytes of a file, documented for OpenAPI; they are never JSON-validated (see the plugin below).
const Bytes = { schema: Type.String({ format: 'binary' }) };
const FileResponse = {
  200: { description: 'The bytes, with the Content-Type they were uploaded as', content: { '*/*': Bytes } },
};
const tags = ['documents'];

const metadataOf = (body: {
  name: string;
  folder: string;
  description?: string | null;
}): DocumentMetadata => ({
  name: body.name,
  folder: body.folder,
  description: body.description ?? null,
});

/** Answers a file: its type, its version as ETag, and as a download (never rendered in our origin). */
function sendFile(
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
  api.get(
    DOCUMENTS_PATH,
    {
      schema: {
        tags,
        summary: 'List documents, ordered by folder and name',
        querystring: Type.Object(
          {
            ...OffsetQuery,
            folder: Type.Optional(
              Type.String({ maxLength: 1000, description: 'Documents of exactly this folder' }),
            ),
            name: Type.Optional(Type.String({ maxLength: 255 })),
          },
          { additionalProperties: false },
        ),
        response: { 200: OffsetCollection('documents', DocumentSchema), ...errorResponses() },
      },
    },
    async (request) => {
      const { folder, name } = request.query;
      const { limit, offset } = offsetPage(request.query);
      const page = await repository.listDocuments(db, { folder, name }, { limit, offset });
      const write = canWrite(request);
      return offsetCollection(
        {
          hrefs: request.hrefs,
          path: DOCUMENTS_PATH,
          name: 'documents',
          query: { folder, name },
          create: write ? { rel: 'createDocument', href: request.hrefs.api(DOCUMENTS_PATH) } : undefined,
        },
        page.items.map((document) => presentDocument(document, request.hrefs, write)),
        page,
        { limit, offset },
      );
    },
  );

  api.get(
    `${DOCUMENTS_PATH}/:id`,
    {
      schema: {
        tags,
        summary: 'One document (its current version)',
        params: IdParams,
        response: { 200: DocumentSchema, ...errorResponses(404) },
      },
    },
    async (request) =>
      presentDocument(await service.getDocument(db, request.params.id), request.hrefs, canWrite(request)),
  );

  api.post(
    DOCUMENTS_PATH,
    {
      schema: {
        tags,
        summary: 'Create a document: version 1, an empty file until uploaded (emits DOCUMENT_CREATED)',
        body: CreateBody,
        response: { 201: DocumentSchema, ...errorResponses(415) },
      },
    },
    async (request, reply) => {
      const document = await service.createDocument(db, metadataOf(request.body));
      const representation = presentDocument(document, request.hrefs, canWrite(request));
      return reply.code(201).header('location', representation._links.self?.href).send(representation);
    },
  );

  api.put(
    `${DOCUMENTS_PATH}/:id`,
    {
      schema: {
        tags,
        summary: 'Replace the metadata: a change makes a new version (emits DOCUMENT_UPDATED)',
        params: IdParams,
        body: ReplaceBody,
        response: { 200: DocumentSchema, ...errorResponses(404, 415) },
      },
    },
    async (request) => {
      checkBodyId(request.body.id, request.params.id);
      const document = await service.replaceDocument(db, request.params.id, metadataOf(request.body));
      return presentDocument(document, request.hrefs, canWrite(request));
    },
  );

  api.delete(
    `${DOCUMENTS_PATH}/:id`,
    {
      schema: {
        tags,
        summary: 'Delete a document with all its versions (emits DOCUMENT_DELETED)',
        params: IdParams,
        response: { 204: Type.Null(), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await service.deleteDocument(db, request.params.id);
      return reply.code(204).send();
    },
  );

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
    `${DOCUMENTS_PATH}/:id/versions`,
    {
      schema: {
        tags,
        summary: 'Versions of a document, newest first',
        params: IdParams,
        querystring: Type.Object(OffsetQuery, { additionalProperties: false }),
        response: { 200: OffsetCollection('versions', VersionSchema), ...errorResponses(404) },
      },
    },
    async (request) => {
      const { limit, offset } = offsetPage(request.query);
      const document = await service.getDocument(db, request.params.id);
      const page = await repository.listVersions(db, document.id, { limit, offset });
      return offsetCollection(
        {
          hrefs: request.hrefs,
          path: `${DOCUMENTS_PATH}/${document.id}/versions`,
          name: 'versions',
          query: {},
        },
        page.items.map((version) => presentDocumentVersion(version, request.hrefs)),
        page,
        { limit, offset },
      );
    },
  );

  api.get(
    `${DOCUMENTS_PATH}/:id/versions/:version`,
    {
      schema: {
        tags,
        summary: 'A document as it was at one version',
        params: VersionParams,
        response: { 200: VersionSchema, ...errorResponses(404) },
      },
    },
    async (request) =>
      presentDocumentVersion(
        await service.getVersion(db, request.params.id, request.params.version),
        request.hrefs,
      ),
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

  // The upload takes raw bytes of any type, so it lives in its own plugin: there the JSON-only
  // parser of the API is replaced by one that keeps the bytes, bounded by the document limit. The
  // body schema documents the upload (and tells the API's no-body guard that this route takes
  // one); the bytes are never JSON-validated.
  api.register(async (instance) => {
    const files = instance.withTypeProvider<RequestTypeProvider>();
    files.removeAllContentTypeParsers();
    files.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    files.setValidatorCompiler((route) =>
      route.httpPart === 'body' ? () => true : validatorCompiler(route),
    );
    files.put(
      `${DOCUMENTS_PATH}/:id/file`,
      {
        bodyLimit: config.documentMaxBytes,
        schema: {
          tags,
          summary: 'Upload the content: new bytes or type make a new version (emits DOCUMENT_UPDATED)',
          description:
            `The raw bytes in any Content-Type, which becomes the document's contentType ` +
            `(none: ${EMPTY_CONTENT_TYPE}). An empty body is an empty file. ` +
            `At most ${config.documentMaxBytes} bytes, else 413 PAYLOAD_TOO_LARGE.`,
          params: IdParams,
          body: { content: { '*/*': Bytes } },
          response: { 200: DocumentSchema, ...errorResponses(404, 413, 415) },
        },
      },
      async (request) => {
        const contentType = request.headers['content-type']?.trim() || EMPTY_CONTENT_TYPE;
        if (contentType.length > 255) {
          throw new AppError('VALIDATION_FAILED', { rule: 'maxLength', field: 'Content-Type', limit: 255 });
        }
        const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const document = await service.uploadContent(db, request.params.id, { contentType, bytes });
        return presentDocument(document, request.hrefs, canWrite(request));
      },
    );
  });
}
