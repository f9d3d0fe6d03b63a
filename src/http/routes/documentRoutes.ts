import * as repository from '../../db/repositories/documentRepository.ts';
import { EMPTY_CONTENT_TYPE } from '../../domain/documents.ts';
import * as service from '../../services/documentService.ts';
import type { Api } from '../api.ts';
import { canWrite } from '../auth.ts';
import type { ServerDeps } from '../deps.ts';
import { fileDownloadRoute, fileUploadRoute } from '../fileTransfer.ts';
import { DOCUMENTS_PATH, documentVersionsPath } from '../paths.ts';
import { presentDocument, presentDocumentVersion } from '../presenters/documentPresenter.ts';
import { resourceRoutes } from '../resourceRoutes.ts';
import {
  CreateDocumentBody,
  DocumentFilters,
  DocumentSchema,
  metadataOf,
  ReplaceDocumentBody,
  VersionSchema,
} from '../schemas/documentSchemas.ts';

const tags = ['documents'];

/** A version's file as a download, its version as ETag (src/http/fileTransfer.ts). */
export const versionFile = (file: { name: string; version: number; contentType: string; bytes: Buffer }) => ({
  ...file,
  etag: String(file.version),
});

export function registerDocuments(api: Api, { db, config }: ServerDeps): void {
  const documents = resourceRoutes(api, {
    path: DOCUMENTS_PATH,
    schema: DocumentSchema,
    present: presentDocument,
  });
  documents.list({
    summary: 'List documents, ordered by folder and name',
    filters: DocumentFilters,
    load: (filter, page) => repository.listDocuments(db, filter, page),
  });
  documents.items(db, {
    input: metadataOf,
    get: { summary: 'One document (its current version)', run: service.getDocument },
    create: {
      summary: 'Create a document: version 1, an empty file until uploaded (emits DOCUMENT_CREATED)',
      body: CreateDocumentBody,
      run: service.createDocument,
    },
    replace: {
      summary: 'Replace the metadata: a change makes a new version (emits DOCUMENT_UPDATED)',
      body: ReplaceDocumentBody,
      run: service.replaceDocument,
    },
    remove: {
      summary: 'Delete a document with all its versions (emits DOCUMENT_DELETED)',
      run: service.deleteDocument,
    },
  });

  const versions = resourceRoutes(api, {
    path: documentVersionsPath(':id'),
    itemParam: 'version',
    schema: VersionSchema,
    present: presentDocumentVersion,
  });
  versions.list({
    summary: 'Versions of a document, newest first',
    owner: async (at) => (await service.getDocument(db, at.id)).id,
    load: (_filter, page, at) => repository.listVersions(db, at.owner, page),
  });
  versions.get({
    summary: 'A document as it was at one version',
    load: (at) => service.getVersion(db, at.id, at.itemId),
  });

  fileDownloadRoute(api, {
    tags,
    path: `${DOCUMENTS_PATH}/:id/file`,
    summary: 'The content of the current version',
    load: async ({ id }) => versionFile(await service.readFile(db, id ?? '')),
  });

  fileDownloadRoute(api, {
    tags,
    path: `${documentVersionsPath(':id')}/:version/file`,
    summary: 'The content of one version',
    load: async ({ id, version }) => versionFile(await service.readFile(db, id ?? '', version)),
  });

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
      const { id } = request.params as { id: string };
      const document = await service.uploadContent(db, id, content);
      return presentDocument(document, request.hrefs, canWrite(request));
    },
  });
}
