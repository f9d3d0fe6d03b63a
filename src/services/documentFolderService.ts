import { v7 as uuidv7 } from 'uuid';
import type { Database, Queryable } from '../db/database.ts';
import * as folders from '../db/repositories/documentFolderRepository.ts';
import {
  type DocumentFolder,
  type FolderInput,
  folderText,
  ROOT_FOLDER_ID,
} from '../domain/documentFolders.ts';
import { AppError } from '../domain/errors.ts';
import { resourcesUpdated } from '../domain/events.ts';
import { isUuid } from '../domain/ids.ts';
import { rethrowInUse } from './constraintErrors.ts';
import { recordEvents } from './eventService.ts';
import { checkReference } from './referenceService.ts';
import { found, locking, writeOnFound } from './writes.ts';

// Folders have no detail events in the catalogue: their changes are RESOURCES_UPDATED of objectType
// DOCUMENT_FOLDER.
const folderEvent = (change: 'CREATED' | 'DELETED', folder: DocumentFolder) =>
  resourcesUpdated('DOCUMENT_FOLDER', change, folder.id);

const lockFolder = locking('documentFolder', folders.findFolder);

export function getFolder(db: Queryable, id: string): Promise<DocumentFolder> {
  return found(folders.findFolder(db, id), 'documentFolder', id);
}

/** A folder a body names (`parentFolderId`), locked against deletion until the change commits. */
async function referencedFolder(tx: Queryable, field: string, id: string): Promise<DocumentFolder> {
  const folder = isUuid(id) ? await folders.findFolder(tx, id, true) : undefined;
  if (!folder) throw new AppError('INVALID_REFERENCE', { field, id, expected: 'documentFolder' });
  return folder;
}

const newFolder = (parent: DocumentFolder, name: string, now: Date): DocumentFolder => ({
  id: uuidv7(),
  parentId: parent.id,
  name,
  path: [...parent.path, name],
  creator: null,
  editor: null,
  workplace: null,
  materialNumber: null,
  createdAt: now,
  updatedAt: now,
});

/** A new folder below its parent; a sibling of the same name is 400 ALREADY_EXISTS. */
export async function createFolder(db: Database, input: FolderInput): Promise<DocumentFolder> {
  const now = new Date();
  return db.transaction(async (tx) => {
    const parent = await referencedFolder(tx, 'parentFolderId', input.parentId);
    await checkReference(tx, 'workplaceId', input.workplaceId, 'workplaces');
    const folder: DocumentFolder = {
      ...newFolder(parent, input.name, now),
      creator: input.creator,
      editor: input.creator,
      workplace: input.workplaceId === null ? null : { id: input.workplaceId, number: '', description: null },
      materialNumber: input.materialNumber,
    };
    if (!(await folders.insertFolderIfNew(tx, folder))) {
      throw new AppError('ALREADY_EXISTS', { field: 'name', value: folderText(folder.path) });
    }
    await recordEvents(tx, [folderEvent('CREATED', folder)], now);
    // Read back for the workplace's number and description.
    return getFolder(tx, folder.id);
  });
}

/**
 * The folder of a path of names (a document's `folder` at /documents), made with every folder
 * above it that is missing, each with its event, in the caller's transaction.
 */
export async function folderOfPath(
  tx: Queryable,
  names: readonly string[],
  now: Date,
): Promise<DocumentFolder> {
  let folder = await found(folders.findFolder(tx, ROOT_FOLDER_ID), 'documentFolder', ROOT_FOLDER_ID);
  for (const name of names) {
    const path = [...folder.path, name];
    const existing = await folders.findFolderByPath(tx, path);
    if (existing) {
      folder = existing;
      continue;
    }
    const made = newFolder(folder, name, now);
    if (await folders.insertFolderIfNew(tx, made))
      await recordEvents(tx, [folderEvent('CREATED', made)], now);
    // Made here or, concurrently, by another request: either way it exists now.
    folder = await found(folders.findFolderByPath(tx, path), 'documentFolder', folderText(path));
  }
  return folder;
}

/** Deletes an empty folder; one holding documents or folders, and the root, are 400 RESOURCE_IN_USE. */
export async function deleteFolder(db: Database, id: string): Promise<void> {
  await writeOnFound(db, lockFolder(id), async (tx, folder) => {
    if (folder.id === ROOT_FOLDER_ID) {
      throw new AppError('RESOURCE_IN_USE', { resource: 'documentFolder', id, by: 'the file repository' });
    }
    if (await folders.folderHasContent(tx, folder.id)) {
      throw new AppError('RESOURCE_IN_USE', { resource: 'documentFolder', id, by: 'documents or folders' });
    }
    await folders.deleteFolder(tx, folder.id).catch(rethrowInUse('documentFolder', id));
    await recordEvents(tx, [folderEvent('DELETED', folder)], new Date());
  });
}
