import { type DocumentFolder, folderText, namesOf } from '../../domain/documentFolders.ts';
import { Conditions } from '../conditions.ts';
import type { Queryable } from '../database.ts';
import {
  batchFind,
  deleteById,
  findById,
  firstItem,
  sameNamed,
  type Table,
  timestampList,
} from '../table.ts';

interface Row {
  id: string;
  parent_id: string | null;
  name: string;
  path: string;
  creator: string | null;
  editor: string | null;
  workplace_id: string | null;
  workplace_number: string | null;
  workplace_description: string | null;
  material_number: string | null;
  created_at: Date;
  updated_at: Date;
}

const toFolder = (row: Row): DocumentFolder => ({
  id: row.id,
  parentId: row.parent_id,
  name: row.name,
  path: namesOf(row.path),
  creator: row.creator,
  editor: row.editor,
  workplace:
    row.workplace_id === null
      ? null
      : { id: row.workplace_id, number: row.workplace_number ?? '', description: row.workplace_description },
  materialNumber: row.material_number,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

// A folder with the number and description of its workplace, which it shows.
const FOLDERS: Table<Row, DocumentFolder> = {
  from: 'document_folders f LEFT JOIN workplaces w ON w.id = f.workplace_id',
  select: 'f.*, w.number AS workplace_number, w.description AS workplace_description',
  id: 'f.id',
  toItem: toFolder,
};

export interface FolderFilter {
  name?: string | undefined;
  materialNumber?: string | undefined;
  workplaceNumber?: string | undefined;
  parentFolderId?: string | undefined;
}

/** Folders, newest change first (the SDK's timestamp paging). */
export const listFolders = timestampList(
  FOLDERS,
  { timestampColumn: 'f.updated_at', timestampOf: (row) => row.updated_at },
  (filter: FolderFilter) =>
    new Conditions()
      .equals('f.name', filter.name)
      .equals('f.material_number', filter.materialNumber)
      .equals('w.number', filter.workplaceNumber)
      .equals('f.parent_id::text', filter.parentFolderId),
);

// Locks only the folder's row: the workplace of a LEFT JOIN cannot be locked.
const LOCK = ' FOR UPDATE OF f';

/** The folder with this id, locked when a write asks for it. */
export const findFolder = (db: Queryable, id: string, lock = false): Promise<DocumentFolder | undefined> =>
  findById(db, FOLDERS, id, { lock: lock ? LOCK : '' });

/** The folders with these ids, in no particular order. */
export const findFolders = batchFind(FOLDERS);

/** The folder of this path (names from the root down), locked when a write asks for it. */
export function findFolderByPath(
  db: Queryable,
  names: readonly string[],
  lock = false,
): Promise<DocumentFolder | undefined> {
  return firstItem(
    db,
    `SELECT ${FOLDERS.select} FROM ${FOLDERS.from} WHERE f.path = $1${lock ? LOCK : ''}`,
    [folderText(names)],
    toFolder,
  );
}

const columns = sameNamed<DocumentFolder>()(
  'id parentId name creator editor materialNumber createdAt updatedAt',
);

const values = (folder: DocumentFolder) => ({
  ...columns(folder),
  path: folderText(folder.path),
  workplace_id: folder.workplace?.id ?? null,
});

export const deleteFolder = (db: Queryable, id: string) => deleteById(db, 'document_folders', id);

/** Inserts the folder unless its path exists already; true when it was inserted. */
export async function insertFolderIfNew(db: Queryable, folder: DocumentFolder): Promise<boolean> {
  const row = values(folder);
  const rows = await db.query<{ id: string }>(
    `INSERT INTO document_folders (${Object.keys(row).join(', ')})
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     ON CONFLICT (path) DO NOTHING RETURNING id`,
    Object.values(row),
  );
  return rows.length > 0;
}

/** Whether the folder holds a document or a folder. */
export async function folderHasContent(db: Queryable, id: string): Promise<boolean> {
  const rows = await db.query<{ used: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM documents WHERE folder_id = $1)
         OR EXISTS (SELECT 1 FROM document_folders WHERE parent_id = $1) AS used`,
    [id],
  );
  return rows[0]?.used === true;
}

/** How many folders and documents the repository holds. */
export async function countContent(db: Queryable): Promise<{ folders: number; documents: number }> {
  const rows = await db.query<{ folders: string; documents: string }>(
    `SELECT (SELECT count(*) FROM document_folders) AS folders, (SELECT count(*) FROM documents) AS documents`,
  );
  return { folders: Number(rows[0]?.folders ?? 0), documents: Number(rows[0]?.documents ?? 0) };
}
