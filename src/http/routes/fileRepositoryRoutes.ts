// The file repository (docs/resources/fileRepository.md): a tree of folders holding the same
// documents, versions and files as /documents, in the SDK's shapes.
import type { FastifyRequest } from 'fastify';
import type { Database } from '../../db/database.ts';
import * as folderRepository from '../../db/repositories/documentFolderRepository.ts';
import * as documentRepository from '../../db/repositories/documentRepository.ts';
import { findMasterDataEntry } from '../../db/repositories/masterDataRepository.ts';
import { checkName, ROOT_FOLDER_ID } from '../../domain/documentFolders.ts';
import {
  DOCUMENT_STATES,
  type Document,
  type DocumentContent,
  EMPTY_CONTENT_TYPE,
  NEW_DOCUMENT_STATE,
} from '../../domain/documents.ts';
import { AppError } from '../../domain/errors.ts';
import * as folderService from '../../services/documentFolderService.ts';
import * as service from '../../services/documentService.ts';
import type { Api } from '../api.ts';
import { canWrite } from '../auth.ts';
import type { ServerDeps } from '../deps.ts';
import { fileDownloadRoute, fileUploadRoute } from '../fileTransfer.ts';
import { positionBy } from '../hal.ts';
import { DOCUMENT_FOLDERS_PATH, FILE_REPOSITORY_PATH, REPOSITORY_DOCUMENTS_PATH } from '../paths.ts';
import {
  presentFolder,
  presentRepository,
  presentRepositoryDocument,
} from '../presenters/fileRepositoryPresenter.ts';
import { resourceRoutes } from '../resourceRoutes.ts';
import { registerRoute } from '../route.ts';
import {
  CreateFolderBody,
  CreateRepositoryDocumentBody,
  DOCUMENT_EMBEDS,
  FOLDER_EMBEDS,
  FolderFilters,
  FolderSchema,
  RepositoryDocumentSchema,
  RepositorySchema,
  UploadQuery,
} from '../schemas/fileRepositorySchemas.ts';
import { versionFile } from './documentRoutes.ts';

const tags = ['file repository'];

/** The SDK pages the repository's lists by time of the last change, newest first. */
const changePosition = positionBy('updatedAt');

/** Documents as the repository shows them, with their state and folder loaded once per page when embedded. */
const presentDocuments =
  (db: Database) => async (documents: Document[], request: FastifyRequest, embed: ReadonlySet<string>) => {
    const stateIds = embed.has('ncState') ? [...new Set(documents.map((d) => d.documentStateId))] : [];
    const states = new Map(
      await Promise.all(
        stateIds.map(async (id) => [id, await findMasterDataEntry(db, DOCUMENT_STATES, id)] as const),
      ),
    );
    const folderIds = embed.has('documentFolders') ? [...new Set(documents.map((d) => d.folderId))] : [];
    const folders = new Map(
      (await folderRepository.findFolders(db, folderIds)).map((folder) => [folder.id, folder] as const),
    );
    const write = canWrite(request);
    return documents.map((document) =>
      presentRepositoryDocument(document, request, write, {
        state: states.get(document.documentStateId),
        folder: folders.get(document.folderId),
      }),
    );
  };

/**
 * The file of an upload: the SDK sends multipart/form-data with the file in the part `file`;
 * any other type is the raw bytes, as at /documents. The file name comes from `fileName`, else
 * from the multipart part; either is checked like every name.
 */
async function uploadedFile(content: DocumentContent, fileName: string | undefined) {
  if (!/^multipart\/form-data\s*;/i.test(content.contentType)) return { content, name: fileName };
  let part: ReturnType<FormData['get']>;
  try {
    const form = await new Response(content.bytes, {
      headers: { 'content-type': content.contentType },
    }).formData();
    part = form.get('file');
  } catch {
    throw new AppError('VALIDATION_FAILED', {
      rule: 'value',
      field: 'file',
      detail: 'not a multipart/form-data body',
    });
  }
  if (part === null || typeof part === 'string') {
    throw new AppError('VALIDATION_FAILED', { rule: 'required', field: 'file' });
  }
  const bytes = Buffer.from(await part.arrayBuffer());
  const partName = part.name && part.name !== 'blob' ? checkName('fileName', part.name) : undefined;
  return { content: { contentType: part.type || EMPTY_CONTENT_TYPE, bytes }, name: fileName ?? partName };
}

export function registerFileRepository(api: Api, { db, config }: ServerDeps): void {
  registerRoute(api, {
    method: 'GET',
    path: FILE_REPOSITORY_PATH,
    tags,
    operationId: 'getFileRepository',
    summary: 'The file repository: its root folder, how many folders and documents it holds',
    response: { 200: RepositorySchema },
    handler: async (request) =>
      presentRepository(
        await folderRepository.countContent(db),
        ROOT_FOLDER_ID,
        request.hrefs,
        canWrite(request),
      ),
  });

  const folders = resourceRoutes(api, {
    tags,
    path: DOCUMENT_FOLDERS_PATH,
    schema: FolderSchema,
    embeds: FOLDER_EMBEDS,
    present: presentFolder,
  });
  folders.list({
    summary: 'List folders, newest change first; parentFolderId lists one folder of the tree',
    position: changePosition,
    filters: FolderFilters,
    load: (filter, page) => folderRepository.listFolders(db, filter, page),
  });
  folders.items(db, {
    input: (body) => ({
      name: body.name,
      parentId: body.parentFolderId ?? ROOT_FOLDER_ID,
      creator: body.creator ?? null,
      workplaceId: body.workplaceId ?? null,
      materialNumber: body.materialNumber ?? null,
    }),
    get: { run: folderService.getFolder },
    create: {
      summary: 'Create a folder below parentFolderId (default: the root) (emits RESOURCES_UPDATED)',
      body: CreateFolderBody,
      run: folderService.createFolder,
    },
    remove: {
      summary:
        'Delete an empty folder (emits RESOURCES_UPDATED); one holding anything is 400 RESOURCE_IN_USE',
      run: folderService.deleteFolder,
    },
  });

  const presentPage = presentDocuments(db);
  const folderDocuments = resourceRoutes(api, {
    tags,
    path: `${DOCUMENT_FOLDERS_PATH}/:id/documents`,
    schema: RepositoryDocumentSchema,
    embeds: DOCUMENT_EMBEDS,
    presentPage,
  });
  folderDocuments.list({
    summary: "A folder's documents, newest change first",
    position: changePosition,
    owner: async (at) => (await folderService.getFolder(db, at.id)).id,
    load: (_filter, page, at) => documentRepository.listRepositoryDocuments(db, at.owner, page),
  });
  folderDocuments.create({
    summary: 'Create a document in the folder: version 1, an empty file (emits DOCUMENT_CREATED)',
    body: CreateRepositoryDocumentBody,
    run: (body, at) =>
      service.createFolderDocument(db, at.id, {
        name: body.name ?? '',
        description: body.description ?? null,
        origin: body.origin,
        type: body.type,
        creator: body.creator ?? null,
        documentStateId: body.documentStateId ?? NEW_DOCUMENT_STATE,
      }),
  });

  const documents = resourceRoutes(api, {
    tags,
    path: REPOSITORY_DOCUMENTS_PATH,
    schema: RepositoryDocumentSchema,
    embeds: DOCUMENT_EMBEDS,
    presentPage,
  });
  documents.list({
    summary: 'Every document of the repository, newest change first',
    operationId: 'listFileRepositoryDocuments',
    position: changePosition,
    load: (_filter, page) => documentRepository.listRepositoryDocuments(db, undefined, page),
  });
  documents.get({
    summary: 'One document (the same as /documents/{id})',
    operationId: 'getFileRepositoryDocument',
    load: (at) => service.getDocument(db, at.id),
  });
  documents.remove({
    summary: 'Delete a document with all its versions (emits DOCUMENT_DELETED)',
    operationId: 'deleteFileRepositoryDocument',
    run: (at) => service.deleteDocument(db, at.id),
  });

  fileDownloadRoute(api, {
    tags,
    operationId: 'getFileRepositoryDocumentFile',
    path: `${REPOSITORY_DOCUMENTS_PATH}/:id/file`,
    summary: 'The content of the current version',
    load: async ({ id }) => versionFile(await service.readFile(db, id ?? '')),
  });

  fileUploadRoute(api, config, {
    tags,
    operationId: 'updateFileRepositoryDocumentFile',
    path: `${REPOSITORY_DOCUMENTS_PATH}/:id/file`,
    summary: 'Upload a new version of the file (emits DOCUMENT_UPDATED)',
    description:
      'multipart/form-data with the file in the part `file` (as the SDK sends it), or the raw bytes ' +
      `in any other Content-Type. fileName renames the document, editor names who uploads. ` +
      `At most ${config.documentMaxBytes} bytes, else 413 PAYLOAD_TOO_LARGE.`,
    querystring: UploadQuery,
    response: RepositoryDocumentSchema,
    handler: async (request, received) => {
      const { id } = request.params as { id: string };
      const query = request.query as { fileName?: string; editor?: string };
      const { content, name } = await uploadedFile(received, query.fileName);
      const document = await service.uploadFile(db, id, content, { name, editor: query.editor });
      return (await presentPage([document], request, new Set()))[0];
    },
  });
}
