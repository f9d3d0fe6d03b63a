import type { DocumentFolder } from '../../domain/documentFolders.ts';
import { type Document, extensionOf } from '../../domain/documents.ts';
import { type MasterDataEntry, translate } from '../../domain/masterDataEntries.ts';
import type { Locale } from '../../i18n/locales.ts';
import { type Link, link, type Resource, resource } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';
import {
  DOCUMENT_FOLDERS_PATH,
  DOCUMENT_STATES_PATH,
  DOCUMENTS_PATH,
  FILE_REPOSITORY_PATH,
  REPOSITORY_DOCUMENTS_PATH,
} from '../paths.ts';

export function presentFolder(folder: DocumentFolder, hrefs: Hrefs, canWrite: boolean): Resource {
  const self = `${DOCUMENT_FOLDERS_PATH}/${folder.id}`;
  return resource(
    {
      id: folder.id,
      name: folder.name,
      creationDate: folder.createdAt.toISOString(),
      editor: folder.editor,
      lastChangeDate: folder.updatedAt.toISOString(),
      workplace: folder.workplace && { ...folder.workplace, erpContextId: null },
      material:
        folder.materialNumber === null
          ? null
          : { id: null, number: folder.materialNumber, description: null, type: null },
      creator: folder.creator,
      parentFolderId: folder.parentId,
      path: folder.path,
    },
    {
      self: link(hrefs.api(self)),
      parentFolder:
        folder.parentId === null ? undefined : link(hrefs.api(`${DOCUMENT_FOLDERS_PATH}/${folder.parentId}`)),
      folders: link(hrefs.api(DOCUMENT_FOLDERS_PATH, { parentFolderId: folder.id })),
      documents: link(hrefs.api(`${self}/documents`)),
      createDocument: canWrite ? link(hrefs.api(`${self}/documents`), { method: 'POST' }) : undefined,
    },
  );
}

function presentDocumentState(state: MasterDataEntry, hrefs: Hrefs, locale: Locale): Resource {
  return resource(
    {
      id: state.id,
      description: translate(state.description, locale),
      shortDescription: translate(state.shortDescription, locale),
      code: state.code,
      color: state.color,
    },
    { self: link(hrefs.api(`${DOCUMENT_STATES_PATH}/${state.id}`)) },
  );
}

/** What a document's representation embeds when asked: its state and its folder. */
export interface DocumentEmbeds {
  state?: MasterDataEntry | undefined;
  folder?: DocumentFolder | undefined;
}

export function presentRepositoryDocument(
  document: Document,
  request: { hrefs: Hrefs; locale: Locale },
  canWrite: boolean,
  embeds: DocumentEmbeds,
): Resource {
  const { hrefs } = request;
  const self = `${REPOSITORY_DOCUMENTS_PATH}/${document.id}`;
  const folder = link(hrefs.api(`${DOCUMENT_FOLDERS_PATH}/${document.folderId}`));
  const embedded: Record<string, unknown> = {};
  if (embeds.state) embedded.ncState = presentDocumentState(embeds.state, hrefs, request.locale);
  if (embeds.folder) embedded.documentFolders = [presentFolder(embeds.folder, hrefs, canWrite)];
  const presented = resource(
    {
      id: document.id,
      name: document.name,
      extension: extensionOf(document.name),
      size: document.size,
      creator: document.creator,
      editor: document.editor,
      lastTransferToMachine: null,
      lastTransferedFromWorkplaceId: null,
      lastTransferedToWorkplaceId: null,
      numberOfMachineTransfers: 0,
      version: document.version,
      origin: document.origin,
      type: document.type,
      creationDate: document.createdAt.toISOString(),
      documentStateId: document.documentStateId,
      lastChangedDate: document.updatedAt.toISOString(),
    },
    {
      self: link(hrefs.api(self)),
      ncState: link(hrefs.api(`${DOCUMENT_STATES_PATH}/${document.documentStateId}`)),
      file: link(hrefs.api(`${self}/file`)),
      uploadFile: canWrite ? link(hrefs.api(`${self}/file`), { method: 'PUT' }) : undefined,
      // The same document at /documents, with its versions.
      document: link(hrefs.api(`${DOCUMENTS_PATH}/${document.id}`)),
    },
    embedded,
  );
  // A list of links, as the SDK reads documentFolders (a document is in exactly one).
  (presented._links as Record<string, Link | Link[]>).documentFolders = [folder];
  return presented;
}

export function presentRepository(
  counts: { folders: number; documents: number },
  rootFolderId: string,
  hrefs: Hrefs,
  canWrite: boolean,
): Resource {
  return resource(
    { rootFolderId, numberOfFolders: counts.folders, numberOfDocuments: counts.documents },
    {
      self: link(hrefs.api(FILE_REPOSITORY_PATH)),
      folders: link(hrefs.api(DOCUMENT_FOLDERS_PATH)),
      documents: link(hrefs.api(REPOSITORY_DOCUMENTS_PATH)),
      rootFolder: link(hrefs.api(`${DOCUMENT_FOLDERS_PATH}/${rootFolderId}`)),
      createFolder: canWrite ? link(hrefs.api(DOCUMENT_FOLDERS_PATH), { method: 'POST' }) : undefined,
    },
  );
}
