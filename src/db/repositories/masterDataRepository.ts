import { isUuid } from '../../domain/ids.ts';
import type { Literal, MasterDataEntry, MaterialEntry, Translation } from '../../domain/masterDataEntries.ts';
import type { Queryable } from '../database.ts';
import type { OffsetPage, OffsetRequest } from '../paging.ts';
import { firstItem, keyedFind, NO_FILTER, offsetPageOf, type Table } from '../table.ts';

/** The description of the material numbered by this SQL expression: its literal's text. */
export const MATERIAL_DESCRIPTION = (number: string) =>
  `(SELECT l.translations->0->>'translation' FROM literals l WHERE l.id = material_literal_id(${number}))`;

interface EntryRow {
  kind: string;
  id: string;
  code: string | null;
  color: string | null;
  attributes: Record<string, unknown>;
  description_literal_id: string | null;
  description_translations: Translation[] | null;
  short_description_literal_id: string | null;
  short_description_translations: Translation[] | null;
}

const literalOf = (id: string | null, translations: Translation[] | null): Literal | null =>
  id === null ? null : { id, translations: translations ?? [] };

const toEntry = (row: EntryRow): MasterDataEntry => ({
  kind: row.kind,
  id: row.id,
  code: row.code,
  color: row.color,
  description: literalOf(row.description_literal_id, row.description_translations),
  shortDescription: literalOf(row.short_description_literal_id, row.short_description_translations),
  attributes: row.attributes,
});

// The entries with their two literals joined, so a page is one statement.
const ENTRIES: Table<EntryRow, MasterDataEntry> = {
  from: `master_data_entries e
    LEFT JOIN literals d ON d.id = e.description_literal_id
    LEFT JOIN literals s ON s.id = e.short_description_literal_id`,
  select: `e.kind, e.id, e.code, e.color, e.attributes,
    e.description_literal_id, d.translations AS description_translations,
    e.short_description_literal_id, s.translations AS short_description_translations`,
  id: 'e.id',
  toItem: toEntry,
};

/** A page of the entries of one kind, in their position order. */
export function listMasterDataEntries(
  db: Queryable,
  kind: string,
  page: OffsetRequest,
): Promise<OffsetPage<MasterDataEntry>> {
  return offsetPageOf(db, ENTRIES, { where: ['e.kind = $1'], params: [kind] }, 'e.position, e.id', page);
}

/** The entries of a kind with these ids (what a page of another kind embeds), in no order. */
export async function findMasterDataEntries(
  db: Queryable,
  kind: string,
  ids: readonly string[],
): Promise<MasterDataEntry[]> {
  if (ids.length === 0) return [];
  const rows = await db.query<EntryRow>(
    `SELECT ${ENTRIES.select} FROM ${ENTRIES.from} WHERE e.kind = $1 AND e.id = ANY($2::text[])`,
    [kind, ids],
  );
  return rows.map(toEntry);
}

/** The entry of a kind with this id. */
export const findMasterDataEntry = keyedFind(ENTRIES, 'e.kind', 'e.id');

interface LiteralRow {
  id: string;
  translations: Translation[];
}

const LITERALS: Table<LiteralRow, Literal> = { from: 'literals', toItem: (row) => row };

export function listLiterals(db: Queryable, page: OffsetRequest): Promise<OffsetPage<Literal>> {
  return offsetPageOf(db, LITERALS, NO_FILTER, 'id', page);
}

export function findLiteral(db: Queryable, id: string): Promise<Literal | undefined> {
  return firstItem(db, 'SELECT id, translations FROM literals WHERE id = $1', [id], LITERALS.toItem);
}

/** The literals with these ids (what a page embeds), in no order. */
export async function findLiterals(db: Queryable, ids: readonly string[]): Promise<Literal[]> {
  if (ids.length === 0) return [];
  return db.query<LiteralRow>('SELECT id, translations FROM literals WHERE id = ANY($1::text[])', [ids]);
}

interface MaterialRow {
  id: string;
  number: string;
  description: string | null;
}

// One row per material number that an order or operation names; its description is the text of
// its literal (migration 100 picks it from the orders and operations and keeps it).
const namedMaterials = (where: string) => `(
  SELECT md5(n.number)::uuid::text AS id, n.number, ${MATERIAL_DESCRIPTION('n.number')} AS description FROM (
    SELECT material_number AS number FROM production_orders WHERE material_number IS NOT NULL ${where}
    UNION
    SELECT material_number FROM operations WHERE material_number IS NOT NULL ${where}
  ) n
) materials`;

const toMaterial = (row: MaterialRow): MaterialEntry => ({ ...row, type: null });

const MATERIALS: Table<MaterialRow, MaterialEntry> = { from: namedMaterials(''), toItem: toMaterial };

/** A page of the materials, by number. */
export function listMaterials(db: Queryable, page: OffsetRequest): Promise<OffsetPage<MaterialEntry>> {
  return offsetPageOf(db, MATERIALS, NO_FILTER, 'number', page);
}

/** The material with this id; ids are UUIDs, anything else names none. */
export async function findMaterial(db: Queryable, id: string): Promise<MaterialEntry | undefined> {
  if (!isUuid(id)) return undefined;
  // The id expression is indexed on both tables (migration 031).
  return firstItem(
    db,
    `SELECT * FROM ${namedMaterials('AND md5(material_number)::uuid = $1::uuid')}`,
    [id],
    toMaterial,
  );
}
