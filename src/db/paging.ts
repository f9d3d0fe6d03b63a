// Offset pages and keyset ("timestamp mode") pages over any table (docs/api.md, "Collections").
import type { Queryable } from './database.ts';
import { countedScope, readCount } from './rowCounts.ts';

export interface OffsetRequest {
  limit: number;
  offset: number;
}

export interface OffsetPage<T> {
  items: T[];
  total: number;
}

type PaginationDirection = 'NEXT' | 'PREVIOUS';

export interface KeysetRequest {
  limit: number;
  direction: PaginationDirection;
  /** Position: the timestamp of the period's edge, and the id of the item there when known. */
  timestamp: Date | undefined;
  identifier: string | undefined;
  /**
   * Byte budget of the page, for sources with a `sizeOf`: the page ends before the item that
   * would take it past the budget (it always holds one item), and hasOlder/hasNewer say there is more.
   */
  maxBytes?: number | undefined;
}

export interface KeysetPage<T> {
  /** Newest first, whatever the direction. */
  items: T[];
  total: number;
  hasOlder: boolean;
  hasNewer: boolean;
}

export interface KeysetSource<Row> {
  /** `FROM` target and the filter that applies to every page (with its `$n` parameters). */
  from: string;
  where: string[];
  params: unknown[];
  timestampColumn: string;
  idColumn: string;
  select: string;
  timestampOf: (row: Row) => Date;
  idOf: (row: Row) => string;
  /** SQL for the size of one row in bytes, where rows can be large (e.g. `octet_length(events::text)`). */
  sizeOf?: string;
}

/**
 * Walks a collection ordered newest first by (timestamp, id). NEXT goes to older entries and
 * PREVIOUS to newer ones, so a kept firstIdentifier asked with PREVIOUS returns what changed since.
 */
export async function keysetPage<Row>(
  db: Queryable,
  source: KeysetSource<Row>,
  request: KeysetRequest,
): Promise<KeysetPage<Row>> {
  const { timestampColumn: ts, idColumn: id } = source;
  const older = request.direction === 'NEXT';
  const params = [...source.params];
  const where = [...source.where];
  if (request.timestamp !== undefined) {
    params.push(request.timestamp);
    const at = `$${params.length}`;
    if (request.identifier === undefined) {
      where.push(`${ts} ${older ? '<=' : '>='} ${at}`);
    } else {
      params.push(request.identifier);
      where.push(`(${ts}, ${id}) ${older ? '<' : '>'} (${at}, $${params.length}::uuid)`);
    }
  }
  params.push(request.limit + 1);
  const order = `${ts} ${older ? 'DESC' : 'ASC'}, ${id} ${older ? 'DESC' : 'ASC'}`;
  let rows: Row[];
  let cutByBudget = false;
  if (source.sizeOf === undefined || request.maxBytes === undefined) {
    rows = await db.query<Row>(
      `SELECT ${source.select} FROM ${source.from} ${whereClause(where)} ORDER BY ${order} LIMIT $${params.length}`,
      params,
    );
  } else {
    // The database adds up the sizes in page order and hands over only what fits the budget, so
    // the memory a page takes is bounded whatever is stored. `more_` tells whether a row was cut.
    params.push(request.maxBytes);
    // The page is chosen first (an index walk or a top-N sort), then its sizes are added up.
    const unqualified = (column: string) => column.replace(/^\w+\./, '');
    const pageOrder = `${unqualified(ts)} ${older ? 'DESC' : 'ASC'}, ${unqualified(id)} ${older ? 'DESC' : 'ASC'}`;
    const budgeted = await db.query<
      Row & { row_bytes_: unknown; page_bytes_: unknown; rn_: unknown; more_: boolean }
    >(
      `SELECT * FROM (
         SELECT page.*,
           sum(row_bytes_) OVER w AS page_bytes_,
           row_number() OVER w AS rn_,
           lead(true, 1, false) OVER w AS more_
         FROM (
           SELECT ${source.select}, ${source.sizeOf} AS row_bytes_ FROM ${source.from} ${whereClause(where)}
           ORDER BY ${order} LIMIT $${params.length - 1}
         ) page
         WINDOW w AS (ORDER BY ${pageOrder} ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
       ) sized WHERE rn_ = 1 OR page_bytes_ <= $${params.length} ORDER BY rn_`,
      params,
    );
    const last = budgeted.at(-1);
    cutByBudget = budgeted.length <= request.limit && last !== undefined && last.more_;
    rows = budgeted.map(({ row_bytes_, page_bytes_, rn_, more_, ...row }) => row as Row);
  }
  const moreInDirection = cutByBudget || rows.length > request.limit;
  const items = rows.slice(0, request.limit);
  if (!older) items.reverse();

  const total = await countRows(db, source.from, source.where, source.params);
  // Is there anything on the side we came from? Only when we started from a position.
  const edge = older ? items[0] : items.at(-1);
  let moreBehind = false;
  if (request.timestamp !== undefined && edge !== undefined) {
    const edgeParams = [...source.params, source.timestampOf(edge), source.idOf(edge)];
    const n = source.params.length;
    // Ordered like the comparison, so the nearest row is found by walking the keyset index.
    const behind = older ? 'ASC' : 'DESC';
    const rowsBehind = await db.query(
      `SELECT 1 FROM ${source.from} ${whereClause([
        ...source.where,
        `(${ts}, ${id}) ${older ? '>' : '<'} ($${n + 1}, $${n + 2}::uuid)`,
      ])} ORDER BY ${ts} ${behind}, ${id} ${behind} LIMIT 1`,
      edgeParams,
    );
    moreBehind = rowsBehind.length > 0;
  }
  return {
    items,
    total,
    hasOlder: older ? moreInDirection : moreBehind,
    hasNewer: older ? moreBehind : moreInDirection,
  };
}

/** How many rows pass `where`: a maintained count where one answers it (rowCounts.ts), else count(*). */
export async function countRows(
  db: Queryable,
  from: string,
  where: string[],
  params: unknown[],
): Promise<number> {
  const counted = countedScope(from, where, params);
  if (counted !== undefined) return readCount(db, counted);
  const [row] = await db.query<{ total: number }>(
    `SELECT count(*)::int AS total FROM ${from} ${whereClause(where)}`,
    params,
  );
  return row?.total ?? 0;
}

export const whereClause = (conditions: string[]) =>
  conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`;
