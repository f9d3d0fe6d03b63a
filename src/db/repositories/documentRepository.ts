import type { Document, DocumentContent, DocumentOrigin, DocumentVersion } from '../../domain/documents.ts';
import { Conditions } from '../conditions.ts';
import type { Queryable } from '../database.ts';
import {
  BY_UPDATED_AT,
  keyedFind,
  lockableFind,
  offsetList,
  ownedBy,
  rowWrites,
  type Table,
  timestampList,
} from '../table.ts';

interface Row {
  id: string;
  folder_id: string;
  creator: string | null;
  editor: string | null;
  origin: DocumentOrigin;
  type: string | null;
  document_state_id: string;
  name: string;
  folder: string;
  description: string | null;
  content_type: string;
  size: number;
  sha256: string;
  version: number;
  created_at: Date;
  updated_at: Date;
}

/** The columns a version keeps of its document, as they were; it has the document's id besides. */
type StateRow = Omit<
  Row,
  'id' | 'updated_at' | 'folder_id' | 'creator' | 'editor' | 'origin' | 'type' | 'document_state_id'
>;
type VersionRow = StateRow & { document_id: string };

/** The properties a document and its versions have alike, from the columns they share. */
const sharedProperties = (row: StateRow) => ({
  name: row.name,
  folder: row.folder,
  description: row.description,
  contentType: row.content_type,
  size: row.size,
  sha256: row.sha256,
  version: row.version,
  createdAt: row.created_at,
});

const toDocument = (row: Row): Document => ({
  id: row.id,
  ...sharedProperties(row),
  folderId: row.folder_id,
  creator: row.creator,
  editor: row.editor,
  origin: row.origin,
  type: row.type,
  documentStateId: row.document_state_id,
  updatedAt: row.updated_at,
});

// Everything but the content, which only the file routes read.
const VERSION_COLUMNS =
  'document_id, version, name, folder, description, content_type, size, sha256, created_at';

const toVersion = (row: VersionRow): DocumentVersion => ({
  documentId: row.document_id,
  ...sharedProperties(row),
});

export interface DocumentFilter {
  folder?: string;
  name?: string;
}

const DOCUMENTS: Table<Row, Document> = { from: 'documents', toItem: toDocument };

export const listDocuments = offsetList(DOCUMENTS, 'folder, name, id', (filter: DocumentFilter) =>
  new Conditions().equals('folder', filter.folder).equals('name', filter.name),
);

export const findDocument = lockableFind(DOCUMENTS);

/** The file repository's list: every document, or a folder's, newest change first. */
export const listRepositoryDocuments = timestampList(
  DOCUMENTS,
  BY_UPDATED_AT,
  (folderId: string | undefined) => new Conditions().equals('folder_id', folderId),
);

export const documentWrites = rowWrites<Document>()(
  'documents',
  'id name folder folderId creator editor origin type documentStateId description contentType size sha256 version createdAt updatedAt',
);

/** The document's current state as its version `document.version`, with these bytes. */
export async function insertVersion(db: Queryable, document: Document, content: Buffer): Promise<void> {
  await db.query(
    `INSERT INTO document_versions (${VERSION_COLUMNS}, content)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [...versionValues(document), content],
  );
}

/** The document's current state as its version `document.version`, with the bytes of `fromVersion`. */
export async function insertVersionWithContentOf(
  db: Queryable,
  document: Document,
  fromVersion: number,
): Promise<void> {
  await db.query(
    `INSERT INTO document_versions (${VERSION_COLUMNS}, content)
     SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, content FROM document_versions
     WHERE document_id = $1 AND version = $10`,
    [...versionValues(document), fromVersion],
  );
}

const versionValues = (document: Document) => [
  document.id,
  document.version,
  document.name,
  document.folder,
  document.description,
  document.contentType,
  document.size,
  document.sha256,
  document.updatedAt,
];

const VERSIONS: Table<VersionRow, DocumentVersion> = {
  from: 'document_versions',
  select: VERSION_COLUMNS,
  toItem: toVersion,
};

/** Versions of a document, newest first. */
export const listVersions = offsetList(VERSIONS, 'version DESC', ownedBy('document_id'));

export const findVersion = keyedFind(VERSIONS, 'document_id', 'version');

export async function readContent(
  db: Queryable,
  documentId: string,
  version: number,
): Promise<DocumentContent | undefined> {
  const rows = await db.query<{ content_type: string; content: Uint8Array }>(
    'SELECT content_type, content FROM document_versions WHERE document_id = $1 AND version = $2',
    [documentId, version],
  );
  const row = rows[0];
  if (row === undefined) return undefined;
  // PostgreSQL (pg) gives a Buffer, PGlite a Uint8Array: the same bytes either way.
  const bytes = Buffer.isBuffer(row.content)
    ? row.content
    : Buffer.from(row.content.buffer, row.content.byteOffset, row.content.byteLength);
  return { contentType: row.content_type, bytes };
}
