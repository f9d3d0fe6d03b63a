import { createHash } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import type { Database, Queryable } from '../db/database.ts';
import * as documents from '../db/repositories/documentRepository.ts';
import { type DocumentFolder, folderText, namesOf } from '../domain/documentFolders.ts';
import {
  DOCUMENT_STATES,
  type Document,
  type DocumentContent,
  type DocumentMetadata,
  type DocumentOrigin,
  type DocumentVersion,
  EMPTY_CONTENT_TYPE,
  metadataAndFile,
  NEW_DOCUMENT_STATE,
} from '../domain/documents.ts';
import { notFound } from '../domain/errors.ts';
import { changedProperties } from '../domain/workplaces.ts';
import { folderOfPath, getFolder } from './documentFolderService.ts';
import { lifecycle, primaryEvents } from './lifecycle.ts';
import { checkMasterDataReference } from './masterDataService.ts';
import { found, locking, writeOnFound } from './writes.ts';

const lockDocument = locking('document', documents.findDocument);

const METADATA = ['name', 'folder', 'description'] as const;
const UPLOADED_PROPERTIES = ['name', 'contentType', 'size'] as const;

const DOCUMENTS = lifecycle<Document>('document', {
  rows: documents.documentWrites,
  /** DOCUMENT_* events carry the metadata with the version, never the content. */
  events: primaryEvents('DOCUMENT', (document) => ({
    documentId: document.id,
    ...metadataAndFile(document),
    version: document.version,
  })),
  /** (folder, name) is unique: a document is addressed by its path like a file. */
  unique: (document) => ['name', `${document.folder === '/' ? '' : document.folder}/${document.name}`],
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export async function getDocument(db: Queryable, id: string): Promise<Document> {
  return found(documents.findDocument(db, id), 'document', id);
}

/** What POST /fileRepository/folders/{id}/documents sets beside the folder. */
export interface RepositoryDocumentInput {
  /** '' until a file name is uploaded. */
  name: string;
  description: string | null;
  origin: DocumentOrigin;
  type: string | null;
  creator: string | null;
  documentStateId: string;
}

/** What a document made at /documents has of the file repository's properties. */
const DEFAULTS = {
  origin: 'CREATED_INTERNALLY',
  type: null,
  creator: null,
  documentStateId: NEW_DOCUMENT_STATE,
} as const;

/** Version 1 of a document in `folder`: an empty file until content is uploaded. */
async function insertNew(tx: Queryable, folder: DocumentFolder, input: RepositoryDocumentInput, now: Date) {
  await checkMasterDataReference(
    tx,
    'documentStateId',
    input.documentStateId,
    DOCUMENT_STATES,
    'documentState',
  );
  const empty = Buffer.alloc(0);
  const document: Document = {
    name: input.name,
    folder: folderText(folder.path),
    description: input.description,
    folderId: folder.id,
    creator: input.creator,
    editor: input.creator,
    origin: input.origin,
    type: input.type,
    documentStateId: input.documentStateId,
    id: uuidv7(),
    contentType: EMPTY_CONTENT_TYPE,
    size: 0,
    sha256: sha256(empty),
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  await DOCUMENTS.insert(tx, document);
  await documents.insertVersion(tx, document, empty);
  return document;
}

/** A new document is version 1: an empty file until content is uploaded; its folder is made if missing. */
export async function createDocument(db: Database, metadata: DocumentMetadata): Promise<Document> {
  const now = new Date();
  return db.transaction(async (tx) => {
    const folder = await folderOfPath(tx, namesOf(metadata.folder), now);
    return insertNew(
      tx,
      folder,
      { ...DEFAULTS, name: metadata.name, description: metadata.description },
      now,
    );
  });
}

/** A new document in a folder of the file repository (404 without the folder). */
export async function createFolderDocument(
  db: Database,
  folderId: string,
  input: RepositoryDocumentInput,
): Promise<Document> {
  const now = new Date();
  return db.transaction(async (tx) => insertNew(tx, await getFolder(tx, folderId), input, now));
}

/** New metadata is a new version with the same content; the same metadata changes nothing. */
export async function replaceDocument(
  db: Database,
  id: string,
  metadata: DocumentMetadata,
): Promise<Document> {
  return writeOnFound(db, lockDocument(id), async (tx, before) => {
    const changed = changedProperties(before, { ...before, ...metadata }, METADATA);
    if (changed.length === 0) return before;
    const updatedAt = new Date();
    const folderId = changed.includes('folder')
      ? (await folderOfPath(tx, namesOf(metadata.folder), updatedAt)).id
      : before.folderId;
    const after: Document = { ...before, ...metadata, folderId, version: before.version + 1 };
    const stored = await DOCUMENTS.update(tx, before, { after, changed }, updatedAt);
    await documents.insertVersionWithContentOf(tx, stored, before.version);
    return stored;
  });
}

/** New content is a new version with the same metadata; the same bytes and type change nothing. */
export async function uploadContent(db: Database, id: string, content: DocumentContent): Promise<Document> {
  return uploadFile(db, id, content, {});
}

/** Who uploads (the file repository's `editor`) and the file's name, when the upload gives them. */
export interface UploadNames {
  name?: string | undefined;
  editor?: string | undefined;
}

/**
 * New content, and a new file name when one is given, is a new version; the same bytes, type and
 * name change nothing (the editor alone is no change).
 */
export async function uploadFile(
  db: Database,
  id: string,
  content: DocumentContent,
  names: UploadNames,
): Promise<Document> {
  const hash = sha256(content.bytes);
  return writeOnFound(db, lockDocument(id), async (tx, before) => {
    const file = {
      name: names.name ?? before.name,
      contentType: content.contentType,
      size: content.bytes.length,
    };
    const changed = changedProperties(before, { ...before, ...file }, UPLOADED_PROPERTIES);
    if (hash !== before.sha256) changed.push('content');
    if (changed.length === 0) return before;
    const after: Document = {
      ...before,
      ...file,
      editor: names.editor ?? before.editor,
      sha256: hash,
      version: before.version + 1,
    };
    const stored = await DOCUMENTS.update(tx, before, { after, changed }, new Date());
    await documents.insertVersion(tx, stored, content.bytes);
    return stored;
  });
}

/** Deletes the document with all its versions. */
export async function deleteDocument(db: Database, id: string): Promise<void> {
  await DOCUMENTS.delete(db, lockDocument(id));
}

/** Version numbers in paths are opaque like ids: anything but a stored version is 404. */
export async function getVersion(db: Queryable, id: string, versionText: string): Promise<DocumentVersion> {
  const document = await getDocument(db, id);
  const version = /^[1-9]\d{0,8}$/.test(versionText)
    ? await documents.findVersion(db, document.id, Number(versionText))
    : undefined;
  if (!version) throw notFound('documentVersion', versionText);
  return version;
}

/** The bytes of one version (the current one when none is given), with the file name of that version. */
export async function readFile(db: Queryable, id: string, versionText?: string) {
  const { name, version } =
    versionText === undefined ? await getDocument(db, id) : await getVersion(db, id, versionText);
  const content = await documents.readContent(db, id, version);
  if (!content) throw notFound('document', id);
  return { name, version, ...content };
}
