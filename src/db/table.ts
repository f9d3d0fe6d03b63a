// The statements every resource table repeats, written once: a page with its total (offset or
// timestamp mode), one row by id (of an owner, for the rows below one), the rows of some ids, and
// insert, update and delete by id. A repository describes its table (a Table) and keeps only the
// statements special to it.
import { isUuid } from '../domain/ids.ts';
import { Conditions, type PeriodFilter } from './conditions.ts';
import type { Queryable } from './database.ts';
import {
  countRows,
  type KeysetPage,
  type KeysetRequest,
  type KeysetSource,
  keysetPage,
  type OffsetPage,
  type OffsetRequest,
  whereClause,
} from './paging.ts';

/** How a repository reads its table: what it selects from where, and how a row becomes an item. */
export interface Table<Row, Item> {
  /** The `FROM` target, with the alias or join the select needs (`workplaces w`). */
  from: string;
  /** The select list; `*` by default. */
  select?: string;
  /** The id column as the select sees it (`s.id`); `id` by default. */
  id?: string;
  toItem: (row: Row) => Item;
}

/** Conditions and their `$n` parameters (a `Conditions`, or fixed ones). */
export interface Filter {
  where: readonly string[];
  params: readonly unknown[];
}

export const NO_FILTER: Filter = { where: [], params: [] };

/** The lock suffix of a read inside a write's transaction. */
export const forUpdate = (lock: boolean) => (lock ? ' FOR UPDATE' : '');

const selectFrom = <Row, Item>(table: Table<Row, Item>) => `SELECT ${table.select ?? '*'} FROM ${table.from}`;

/** The item of the first row `sql` returns; undefined when it returns none. */
export async function firstItem<Row, Item>(
  db: Queryable,
  sql: string,
  params: readonly unknown[],
  toItem: (row: Row) => Item,
): Promise<Item | undefined> {
  const rows = await db.query<Row>(sql, params);
  return rows[0] === undefined ? undefined : toItem(rows[0]);
}

/** Every row that passes `filter`, in `orderBy` order when one is given. */
export async function allOf<Row, Item>(
  db: Queryable,
  table: Table<Row, Item>,
  filter: Filter,
  orderBy?: string,
): Promise<Item[]> {
  const order = orderBy === undefined ? '' : ` ORDER BY ${orderBy}`;
  const rows = await db.query<Row>(`${selectFrom(table)} ${whereClause([...filter.where])}${order}`, [
    ...filter.params,
  ]);
  return rows.map(table.toItem);
}

/** An offset page of the rows that pass `filter`, in `orderBy` order, with how many pass it. */
export async function offsetPageOf<Row, Item>(
  db: Queryable,
  table: Table<Row, Item>,
  filter: Filter,
  orderBy: string,
  page: OffsetRequest,
): Promise<OffsetPage<Item>> {
  const where = [...filter.where];
  const params = [...filter.params];
  const rows = await db.query<Row>(
    `${selectFrom(table)} ${whereClause(where)} ORDER BY ${orderBy}
     LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, page.limit, page.offset],
  );
  return { items: rows.map(table.toItem), total: await countRows(db, table.from, where, params) };
}

/** A list in offset pages: the rows of `table` that pass the conditions of a filter, in `orderBy` order. */
export const offsetList =
  <Row, Item, F>(table: Table<Row, Item>, orderBy: string, conditionsOf: (filter: F) => Filter) =>
  (db: Queryable, filter: F, page: OffsetRequest): Promise<OffsetPage<Item>> =>
    offsetPageOf(db, table, conditionsOf(filter), orderBy, page);

/** The rows of one owner (`column = $1`), as the conditions of a list of the owner's rows. */
export const ownedBy =
  (column: string) =>
  (ownerId: string): Filter => ({ where: [`${column} = $1`], params: [ownerId] });

/** Every row of one owner (`column = $1`), in `orderBy` order. */
export const ownedAll = <Row, Item>(table: Table<Row, Item>, ownerColumn: string, orderBy: string) => {
  const sql = `${selectFrom(table)} WHERE ${ownerColumn} = $1 ORDER BY ${orderBy}`;
  return async (db: Queryable, ownerId: string): Promise<Item[]> =>
    (await db.query<Row>(sql, [ownerId])).map(table.toItem);
};

/** The rows of one owner (`column = $1`) that overlap a period (`start_date`, `end_date`). */
export const ownedInPeriod =
  (column: string) =>
  (ownerId: string, filter: PeriodFilter): Filter =>
    new Conditions([`${column} = $1`], [ownerId]).overlapping(filter);

/** A list in offset pages of one owner's rows that overlap a period, in `orderBy` order. */
export const ownedPeriodList =
  <Row, Item>(table: Table<Row, Item>, ownerColumn: string, orderBy: string) =>
  (db: Queryable, ownerId: string, filter: PeriodFilter, page: OffsetRequest): Promise<OffsetPage<Item>> =>
    offsetPageOf(db, table, ownedInPeriod(ownerColumn)(ownerId, filter), orderBy, page);

/**
 * A list in timestamp pages, latest start first, of the rows that overlap a period: of every
 * owner, or of one (`ownerColumn`) when the filter names it (`ownerId`).
 */
export const anyOwnerPeriodList = <Row extends { id: string; start_date: Date }, Item>(
  table: Table<Row, Item>,
  ownerColumn: string,
) =>
  timestampList(table, byStartDate<Row>(), (filter: PeriodFilter & { ownerId?: string | undefined }) =>
    new Conditions().equals(ownerColumn, filter.ownerId).overlapping(filter),
  );

/** The timestamp a timestamp-mode page walks (newest first by it and the id), and a row's value of it. */
export type TimestampOrder<Row> = Pick<KeysetSource<Row>, 'timestampColumn' | 'timestampOf' | 'sizeOf'>;

/** The order of records by their start (`start_date`, then id): histories and shifts. */
export const byStartDate = <Row extends { start_date: Date }>(): TimestampOrder<Row> => ({
  timestampColumn: 'start_date',
  timestampOf: (row) => row.start_date,
});

/** The order of resources by their last change (`updated_at`, then id): orders and operations. */
export const BY_UPDATED_AT: TimestampOrder<{ updated_at: Date }> = {
  timestampColumn: 'updated_at',
  timestampOf: (row) => row.updated_at,
};

/** The order of records by the time they tell of (`"timestamp"`, then id): samples and output quantities. */
export const BY_TIMESTAMP: TimestampOrder<{ timestamp: Date }> = {
  timestampColumn: '"timestamp"',
  timestampOf: (row) => row.timestamp,
};

/** A timestamp-mode page of the rows that pass `filter` (paging.ts, `keysetPage`). */
export async function timestampPageOf<Row extends { id: string }, Item>(
  db: Queryable,
  table: Table<Row, Item>,
  filter: Filter,
  order: TimestampOrder<Row>,
  request: KeysetRequest,
): Promise<KeysetPage<Item>> {
  const page = await keysetPage<Row>(
    db,
    {
      from: table.from,
      where: [...filter.where],
      params: [...filter.params],
      idColumn: table.id ?? 'id',
      select: table.select ?? '*',
      idOf: (row) => row.id,
      ...order,
    },
    request,
  );
  return { ...page, items: page.items.map(table.toItem) };
}

/** A list in timestamp pages: the rows of `table` that pass the conditions of a filter, newest first by `order`. */
export const timestampList =
  <Row extends { id: string }, Item, F>(
    table: Table<Row, Item>,
    order: TimestampOrder<Row>,
    conditionsOf: (filter: F) => Filter,
  ) =>
  (db: Queryable, filter: F, request: KeysetRequest): Promise<KeysetPage<Item>> =>
    timestampPageOf(db, table, conditionsOf(filter), order, request);

export interface FindOptions {
  /** Appended to the select, e.g. `forUpdate(true)`. */
  lock?: string;
  /** The column and value of the owner the row must belong to (a shift of this workplace). */
  owner?: readonly [column: string, value: unknown];
}

/** The row with this id; an id that is no uuid is not found (and never reaches a uuid column). */
export async function findById<Row, Item>(
  db: Queryable,
  table: Table<Row, Item>,
  id: string,
  { lock = '', owner }: FindOptions = {},
): Promise<Item | undefined> {
  if (!isUuid(id)) return undefined;
  const params = owner === undefined ? [id] : [id, owner[1]];
  return firstItem(db, byIdStatement(table, owner?.[0], lock), params, table.toItem);
}

// The same string object for every find of a table: the statement's name is looked up by its
// text, which a string built anew would hash and compare in full on every read.
const byIdStatements = new WeakMap<object, Map<string, string>>();

function byIdStatement<Row, Item>(table: Table<Row, Item>, ownerColumn: string | undefined, lock: string) {
  let ofTable = byIdStatements.get(table);
  if (ofTable === undefined) {
    ofTable = new Map();
    byIdStatements.set(table, ofTable);
  }
  const key = ownerColumn === undefined ? lock : `${ownerColumn}|${lock}`;
  let sql = ofTable.get(key);
  if (sql === undefined) {
    const ofOwner = ownerColumn === undefined ? '' : ` AND ${ownerColumn} = $2`;
    sql = `${selectFrom(table)} WHERE ${table.id ?? 'id'} = $1${ofOwner}${lock}`;
    ofTable.set(key, sql);
  }
  return sql;
}

/** The find of one row by id of a resource, locked (`FOR UPDATE`) when a write asks for it. */
export const lockableFind =
  <Row, Item>(table: Table<Row, Item>) =>
  (db: Queryable, id: string, lock = false): Promise<Item | undefined> =>
    findById(db, table, id, { lock: forUpdate(lock) });

/** The find of one row of an owner by id (another owner's row is not found), locked when a write asks for it. */
export const ownedFind =
  <Row, Item>(table: Table<Row, Item>, ownerColumn: string) =>
  (db: Queryable, ownerId: string, id: string, lock = false): Promise<Item | undefined> =>
    findById(db, table, id, { owner: [ownerColumn, ownerId], lock: forUpdate(lock) });

/**
 * The find of one row of an owner by a key of its own that is not a uuid id (`keyColumn`): a
 * document's version by its number, a master data entry of a kind by its id.
 */
export const keyedFind = <Row, Item>(table: Table<Row, Item>, ownerColumn: string, keyColumn: string) => {
  const sql = `${selectFrom(table)} WHERE ${ownerColumn} = $1 AND ${keyColumn} = $2`;
  return (db: Queryable, ownerId: string, key: string | number): Promise<Item | undefined> =>
    firstItem(db, sql, [ownerId, key], table.toItem);
};

/** The find of the rows with these ids, in no particular order; unknown ids are left out. */
export const batchFind =
  <Row, Item>(table: Table<Row, Item>) =>
  async (db: Queryable, ids: readonly string[]): Promise<Item[]> => {
    if (ids.length === 0) return [];
    const rows = await db.query<Row>(`${selectFrom(table)} WHERE ${table.id ?? 'id'} = ANY($1::uuid[])`, [
      ids,
    ]);
    return rows.map(table.toItem);
  };

/**
 * The find of the rows of some owners: those for which `where` holds, `$1` being the owners' ids
 * (a uuid array), in `orderBy` order; none, without a statement, for no owners.
 */
export const ofOwners = <Row, Item>(table: Table<Row, Item>, where: string, orderBy: string) => {
  const sql = `${selectFrom(table)} WHERE ${where} ORDER BY ${orderBy}`;
  return async (db: Queryable, ownerIds: readonly string[]): Promise<Item[]> =>
    ownerIds.length === 0 ? [] : (await db.query<Row>(sql, [ownerIds])).map(table.toItem);
};

const CAST = Symbol('cast');

/** A value written with a cast to an SQL type: `typed(ids, 'uuid[]')` is `$n::uuid[]`. */
interface Typed {
  readonly [CAST]: string;
  readonly value: unknown;
}

export const typed = (value: unknown, type: string): Typed => ({ [CAST]: type, value });

/** A value written to a jsonb column: its JSON text, cast. */
export const asJsonb = (value: unknown): Typed => typed(JSON.stringify(value), 'jsonb');

/** A jsonb column as read: both drivers hand it back parsed, and text is parsed all the same. */
export const fromJsonb = <T>(value: T | string): T => (typeof value === 'string' ? JSON.parse(value) : value);

const isTyped = (value: unknown): value is Typed =>
  typeof value === 'object' && value !== null && CAST in value;

/** Column values of one row, by column name. */
export type Values = Record<string, unknown>;

/** The names of a list of them separated by single spaces. */
type Words<S extends string> = S extends `${infer Word} ${infer Rest}` ? Word | Words<Rest> : S;

/** Property names of an item separated by single spaces; a name the item does not have fails to compile. */
type SameNames<Item, S extends string> = S & (Words<S> extends keyof Item ? unknown : never);

/** A property's name in snake_case: its column where the two agree (`erpContextId`: `erp_context_id`). */
const snakeCase = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/**
 * The column values of the item's properties that `names` lists (separated by single spaces),
 * each in the column of its name in snake_case: the columns that mirror the item, named once
 * (a name the item does not have fails to compile). Columns that differ are added beside it.
 */
export const sameNamed =
  <Item>() =>
  <S extends string>(names: SameNames<Item, S>) => {
    const columns = names.split(' ').map((name) => [snakeCase(name), name as keyof Item] as const);
    return (item: Item): Values => Object.fromEntries(columns.map(([column, name]) => [column, item[name]]));
  };

/** The columns of `values`, their placeholders from `$first` on (with their casts) and their parameters. */
function columnsOf(values: Values, first: number) {
  const entries = Object.entries(values);
  return {
    columns: entries.map(([column]) => column),
    slots: entries.map(([, value], index) => {
      const at = `$${first + index}`;
      return isTyped(value) ? `${at}::${value[CAST]}` : at;
    }),
    params: entries.map(([, value]) => (isTyped(value) ? value.value : value)),
  };
}

/** Inserts one row. */
export async function insertRow(db: Queryable, table: string, values: Values): Promise<void> {
  const { columns, slots, params } = columnsOf(values, 1);
  await db.query(`INSERT INTO ${table} (${columns.join(', ')}) VALUES (${slots.join(', ')})`, params);
}

/** Sets these columns of the row with this id. */
export async function updateById(db: Queryable, table: string, id: string, values: Values): Promise<void> {
  const { columns, slots, params } = columnsOf(values, 2);
  const set = columns.map((column, index) => `${column} = ${slots[index]}`);
  await db.query(`UPDATE ${table} SET ${set.join(', ')} WHERE id = $1`, [id, ...params]);
}

/** `values` without the columns an update leaves alone (`created_at`, an owner that never changes). */
function except(values: Values, ...columns: string[]): Values {
  return Object.fromEntries(Object.entries(values).filter(([column]) => !columns.includes(column)));
}

/** Deletes the row with this id. */
export async function deleteById(db: Queryable, table: string, id: string): Promise<void> {
  await db.query(`DELETE FROM ${table} WHERE id = $1`, [id]);
}

/** The writes of one table's rows by id; a repository exports them as `<family>Writes`. */
export interface RowWrites<Item> {
  insert: (db: Queryable, item: Item) => Promise<void>;
  update: (db: Queryable, item: Item) => Promise<void>;
  delete: (db: Queryable, id: string) => Promise<void>;
}

/** How a table's columns differ from the same-named ones of its item. */
interface WritesOptions<Item> {
  /** The columns beside the same-named ones (jsonb, the fields of a nested object, other names). */
  other?: (item: Item) => Values;
  /** The columns an update leaves alone: `created_at` by default, and an owner that never changes. */
  fixed?: readonly string[];
}

/**
 * The insert, update and delete by id of a table whose columns are the item's properties that
 * `names` lists (as `sameNamed` takes them) and the `other` ones: an update writes every column
 * but the id and the `fixed` ones.
 */
export const rowWrites =
  <Item extends { id: string }>() =>
  <S extends string>(
    table: string,
    names: SameNames<Item, S>,
    { other, fixed = ['created_at'] }: WritesOptions<Item> = {},
  ): RowWrites<Item> => {
    const columns = sameNamed<Item>()(names);
    const values = (item: Item) =>
      other === undefined ? columns(item) : { ...columns(item), ...other(item) };
    return {
      insert: (db, item) => insertRow(db, table, values(item)),
      update: (db, item) => updateById(db, table, item.id, except(values(item), 'id', ...fixed)),
      delete: (db, id) => deleteById(db, table, id),
    };
  };
