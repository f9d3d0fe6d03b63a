import type { Document, DocumentContent, DocumentVersion } from '../../domain/documents.ts';
import { isUuid } from '../../domain/ids.ts';
import type { Queryable } from '../database.ts';
import { countRows, type OffsetPage, type OffsetRequest, whereClause } from '../paging.ts';

interface Row {
  id: string;
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

const toDocument = (row: Row): Document => ({
  id: row.id,
  name: row.name,
  folder: row.folder,
  description: row.description,
  contentType: row.content_type,
  size: row.size,
  sha256: row.sha256,
  version: row.version,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

interface VersionRow {
  document_id: string;
  version: number;
  name: string;
  folder: string;
  description: string | null;
  content_type: string;
  size: number;
  sha256: string;
  created_at: Date;
}

// Everything but the content, which only the file routes read.
const VERSION_COLUMNS =
  'document_id, version, name, folder, description, content_type, size, sha256, created_at';

const toVersion = (row: VersionRow): DocumentVersion => ({
  documentId: row.document_id,
  version: row.version,
  name: row.name,
  folder: row.folder,
  description: row.description,
  contentType: row.content_type,
  size: row.size,
  sha256: row.sha256,
  createdAt: row.created_at,
});

export interface DocumentFilter {
  folder?: string;
  name?: string;
}

export async function listDocuments(
  db: Queryable,
  filter: DocumentFilter,
  page: OffsetRequest,
): Promise<OffsetPage<Document>> {
  const where: string[] = [];
  const params: unknown[] = [];
  for (const [column, value] of [
    ['folder', filter.folder],
    ['name', filter.name],
  ] as const) {
    if (value === undefined) continue;
    params.push(value);
    where.push(`${column} = $${params.length}`);
  }
  const rows = await db.query<Row>(
    `SELECT * FROM documents ${whereClause(where)} ORDER BY folder, name, id
     LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, page.limit, page.offset],
  );
  return { items: rows.map(toDocument), total: await countRows(db, 'documents', where, params) };
}

export async function findDocument(
  db: Queryable,
  id: string,
  forUpdate = false,
): Promise<Document | undefined> {
  if (!isUuid(id)) return undefined;
  const rows = await db.query<Row>(`SELECT * FROM documents WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`, [
    id,
  ]);
  return rows[0] === undefined ? undefined : toDocument(rows[0]);
}

export async function insertDocument(db: Queryable, document: Document): Promise<void> {
  await db.query(
    `INSERT INTO documents (id, name, folder, description, content_type, size, sha256, version,
       created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      document.id,
      document.name,
      document.folder,
      document.description,
      document.contentType,
      document.size,
      document.sha256,
      document.version,
      document.createdAt,
      document.updatedAt,
    ],
  );
}

export async function updateDocument(db: Queryable, document: Document): Promise<void> {
  await db.query(
    `UPDATE documents SET name = $2, folder = $3, description = $4, content_type = $5, size = $6,
       sha256 = $7, version = $8, updated_at = $9
     WHERE id = $1`,
    [
      document.id,
      document.name,
      document.folder,
      document.description,
      document.contentType,
      document.size,
      document.sha256,
      document.version,
      document.updatedAt,
    ],
  );
}

export async function deleteDocument(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM documents WHERE id = $1', [id]);
}

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

/** Versions of a document, newest first. */
export async function listVersions(
  db: Queryable,
  documentId: string,
  page: OffsetRequest,
): Promise<OffsetPage<DocumentVersion>> {
  const rows = await db.query<VersionRow>(
    `SELECT ${VERSION_COLUMNS} FROM document_versions WHERE document_id = $1
     ORDER BY version DESC LIMIT $2 OFFSET $3`,
    [documentId, page.limit, page.offset],
  );
  return {
    items: rows.map(toVersion),
    total: await countRows(db, 'document_versions', ['document_id = $1'], [documentId]),
  };
}

export async function findVersion(
  db: Queryable,
  documentId: string,
  version: number,
): Promise<DocumentVersion | undefined> {
  const rows = await db.query<VersionRow>(
    `SELECT ${VERSION_COLUMNS} FROM document_versions WHERE document_id = $1 AND version = $2`,
    [documentId, version],
  );
  return rows[0] === undefined ? undefined : toVersion(rows[0]);
}

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
