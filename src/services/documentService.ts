import { createHash } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import type { Database, Queryable } from '../db/database.ts';
import * as documents from '../db/repositories/documentRepository.ts';
import {
  type Document,
  type DocumentContent,
  type DocumentMetadata,
  type DocumentVersion,
  EMPTY_CONTENT_TYPE,
  metadataAndFile,
} from '../domain/documents.ts';
import { notFound } from '../domain/errors.ts';
import { type ChangeType, lifecycleEvents } from '../domain/events.ts';
import { changedProperties } from '../domain/workplaces.ts';
import { rethrowDuplicate } from './constraintErrors.ts';
import { recordEvents } from './eventService.ts';
import { found, locking, writeOnFound } from './writes.ts';

const lockDocument = locking('document', documents.findDocument);

const METADATA = ['name', 'folder', 'description'] as const;
const FILE_PROPERTIES = ['contentType', 'size'] as const;

/** DOCUMENT_* events carry the metadata with the version, never the content. */
function eventsFor(change: ChangeType, document: Document, changed?: string[]) {
  const data: Record<string, unknown> = {
    documentId: document.id,
    ...metadataAndFile(document),
    version: document.version,
  };
  if (changed) data.changedProperties = changed;
  return lifecycleEvents('DOCUMENT', change, document.id, data);
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** (folder, name) is unique: a document is addressed by its path like a file. */
const rethrowDuplicatePath = (document: DocumentMetadata) =>
  rethrowDuplicate('name', `${document.folder === '/' ? '' : document.folder}/${document.name}`);

export async function getDocument(db: Queryable, id: string): Promise<Document> {
  return found(documents.findDocument(db, id), 'document', id);
}

/** A new document is version 1: an empty file until content is uploaded. */
export async function createDocument(db: Database, metadata: DocumentMetadata): Promise<Document> {
  const now = new Date();
  const empty = Buffer.alloc(0);
  const document: Document = {
    ...metadata,
    id: uuidv7(),
    contentType: EMPTY_CONTENT_TYPE,
    size: 0,
    sha256: sha256(empty),
    version: 1,
    createdAt: now,
    updatedAt: now,
  };
  await db.transaction(async (tx) => {
    await documents.insertDocument(tx, document).catch(rethrowDuplicatePath(document));
    await documents.insertVersion(tx, document, empty);
    await recordEvents(tx, eventsFor('CREATED', document), now);
  });
  return document;
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
    const after: Document = { ...before, ...metadata, version: before.version + 1, updatedAt: new Date() };
    await documents.updateDocument(tx, after).catch(rethrowDuplicatePath(after));
    await documents.insertVersionWithContentOf(tx, after, before.version);
    await recordEvents(tx, eventsFor('UPDATED', after, changed), after.updatedAt);
    return after;
  });
}

/** New content is a new version with the same metadata; the same bytes and type change nothing. */
export async function uploadContent(db: Database, id: string, content: DocumentContent): Promise<Document> {
  const hash = sha256(content.bytes);
  return writeOnFound(db, lockDocument(id), async (tx, before) => {
    const file = { contentType: content.contentType, size: content.bytes.length };
    const changed = changedProperties(before, { ...before, ...file }, FILE_PROPERTIES);
    if (hash !== before.sha256) changed.push('content');
    if (changed.length === 0) return before;
    const after: Document = {
      ...before,
      ...file,
      sha256: hash,
      version: before.version + 1,
      updatedAt: new Date(),
    };
    await documents.updateDocument(tx, after);
    await documents.insertVersion(tx, after, content.bytes);
    await recordEvents(tx, eventsFor('UPDATED', after, changed), after.updatedAt);
    return after;
  });
}

/** Deletes the document with all its versions. */
export async function deleteDocument(db: Database, id: string): Promise<void> {
  await writeOnFound(db, lockDocument(id), async (tx, document) => {
    await documents.deleteDocument(tx, document.id);
    await recordEvents(tx, eventsFor('DELETED', document), new Date());
  });
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
