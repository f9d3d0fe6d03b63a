// Storage of the three kinds of results (forecast, operation planning, staff member planning):
// one table each, all of the same shape, so one set of statements over the kind's table.
import { isUuid } from '../../domain/ids.ts';
import type { PlannedOrder, Result, ResultKind, ResultSummaryInput, Span } from '../../domain/planning.ts';
import { Conditions, type PeriodFilter } from '../conditions.ts';
import type { Queryable } from '../database.ts';
import type { OffsetPage, OffsetRequest } from '../paging.ts';
import { allOf, findById, forUpdate, offsetPageOf, type Table } from '../table.ts';

interface Row {
  owner_id: string;
  workplace_id: string;
  start_date: Date;
  end_date: Date;
  setup_start_date: Date | null;
  setup_end_date: Date | null;
  processing_start_date: Date | null;
  processing_end_date: Date | null;
  fixed: boolean;
  created_at: Date;
  updated_at: Date;
}

const toResult = (row: Row): Result => ({
  ownerId: row.owner_id,
  workplaceId: row.workplace_id,
  startDate: row.start_date,
  endDate: row.end_date,
  setupStartDate: row.setup_start_date,
  setupEndDate: row.setup_end_date,
  processingStartDate: row.processing_start_date,
  processingEndDate: row.processing_end_date,
  fixed: row.fixed,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

// Table and column names come from the fixed ResultKind constants, never from input.
const ownerColumn = (kind: ResultKind) =>
  kind.ownerField === 'operationId' ? 'operation_id' : 'staff_member_id';

// One description per kind, made once, so the find by owner keeps its statement (table.ts).
const TABLES = new Map<ResultKind, Table<Row, Result>>();

/** The kind's table, its results found by their owner. */
function tableOf(kind: ResultKind): Table<Row, Result> {
  let table = TABLES.get(kind);
  if (table === undefined) {
    const owner = ownerColumn(kind);
    table = { from: kind.table, select: `${owner} AS owner_id, *`, id: owner, toItem: toResult };
    TABLES.set(kind, table);
  }
  return table;
}

/** The owner's result; locked when a write asks for it. */
export const findResult = (db: Queryable, kind: ResultKind, ownerId: string, lock = false) =>
  findById(db, tableOf(kind), ownerId, { lock: forUpdate(lock) });

/** The results of a kind that overlap a period (either end may be open), by start, in offset pages. */
export function listResults(
  db: Queryable,
  kind: ResultKind,
  filter: PeriodFilter,
  page: OffsetRequest,
): Promise<OffsetPage<Result>> {
  return offsetPageOf(
    db,
    tableOf(kind),
    new Conditions().overlapping(filter),
    `start_date, ${ownerColumn(kind)}`,
    page,
  );
}

/**
 * Locks the owners (in id order, so concurrent writers cannot deadlock) until the transaction
 * ends: writers of one owner's result then run one after the other, and the second sees the
 * first's result instead of creating it again. Unknown ids are skipped (checked later).
 */
export async function lockOwners(
  db: Queryable,
  kind: ResultKind,
  ownerIds: readonly string[],
): Promise<void> {
  const ids = ownerIds.filter(isUuid);
  if (ids.length === 0) return;
  await db.query(
    `SELECT 1 FROM ${kind.ownerTable} WHERE id = ANY($1::uuid[]) ORDER BY id FOR NO KEY UPDATE`,
    [ids],
  );
}

/** Inserts or replaces the owner's result. */
export async function saveResult(db: Queryable, kind: ResultKind, result: Result): Promise<void> {
  await db.query(
    `INSERT INTO ${kind.table} (${ownerColumn(kind)}, workplace_id, start_date, end_date, setup_start_date,
       setup_end_date, processing_start_date, processing_end_date, fixed, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     ON CONFLICT (${ownerColumn(kind)}) DO UPDATE SET workplace_id = $2, start_date = $3, end_date = $4,
       setup_start_date = $5, setup_end_date = $6, processing_start_date = $7, processing_end_date = $8,
       fixed = $9, updated_at = $11`,
    [
      result.ownerId,
      result.workplaceId,
      result.startDate,
      result.endDate,
      result.setupStartDate,
      result.setupEndDate,
      result.processingStartDate,
      result.processingEndDate,
      result.fixed,
      result.createdAt,
      result.updatedAt,
    ],
  );
}

export async function deleteResult(db: Queryable, kind: ResultKind, ownerId: string): Promise<void> {
  await db.query(`DELETE FROM ${kind.table} WHERE ${ownerColumn(kind)} = $1`, [ownerId]);
}

/** Results at a workplace that end after `at` (still to be realized), in owner order. */
export const listRunningResultsAt = (db: Queryable, kind: ResultKind, workplaceId: string, at: Date) =>
  allOf(
    db,
    tableOf(kind),
    { where: ['workplace_id = $1', 'end_date > $2'], params: [workplaceId, at] },
    ownerColumn(kind),
  );

/**
 * What the summary of an operation result kind over a period is computed from, read in one
 * statement each: the results overlapping the period (as the list filters them), the production
 * orders of their operations with every operation's result, and the shifts of their workplaces.
 */
export async function loadSummaryInput(
  db: Queryable,
  kind: ResultKind,
  period: PeriodFilter,
): Promise<ResultSummaryInput> {
  const from = period.startDate ?? null;
  const to = period.endDate ?? null;
  const rows = await db.query<Row & { production_order_id: string }>(
    `SELECT r.operation_id AS owner_id, r.*, o.production_order_id FROM ${kind.table} r
     JOIN operations o ON o.id = r.operation_id
     WHERE ($1::timestamptz IS NULL OR r.end_date >= $1) AND ($2::timestamptz IS NULL OR r.start_date <= $2)`,
    [from, to],
  );
  const results = rows.map(toResult);
  const orderIds = [...new Set(rows.map((row) => row.production_order_id))];
  const operations = await db.query<{
    production_order_id: string;
    delivery_date: Date | null;
    start_date: Date | null;
    end_date: Date | null;
  }>(
    `SELECT o.production_order_id, p.delivery_date, r.start_date, r.end_date FROM operations o
     JOIN production_orders p ON p.id = o.production_order_id
     LEFT JOIN ${kind.table} r ON r.operation_id = o.id
     WHERE o.production_order_id = ANY($1::uuid[])`,
    [orderIds],
  );
  const orders = plannedOrders(operations, (row) =>
    row.start_date !== null && row.end_date !== null
      ? { startDate: row.start_date, endDate: row.end_date }
      : undefined,
  );
  const workplaceIds = [...new Set(results.map((result) => result.workplaceId))];
  const shifts = await shiftsOfWorkplaces(db, workplaceIds, period);
  return {
    period,
    results,
    orders,
    shifts,
  };
}

/**
 * The production orders of the planned operations, each with all its operations; an operation is
 * planned where `planned` has its span (a scenario's elements).
 */
export async function ordersOfOperations(
  db: Queryable,
  planned: ReadonlyMap<string, Span>,
): Promise<PlannedOrder[]> {
  const ids = [...planned.keys()].filter(isUuid);
  const rows = await db.query<{ id: string; production_order_id: string; delivery_date: Date | null }>(
    `SELECT o.id, o.production_order_id, p.delivery_date FROM operations o
     JOIN production_orders p ON p.id = o.production_order_id
     WHERE o.production_order_id IN (SELECT production_order_id FROM operations WHERE id = ANY($1::uuid[]))`,
    [ids],
  );
  return plannedOrders(rows, (row) => planned.get(row.id));
}

/** The orders of operation rows, each counting its operations, with the spans `spanOf` gives of them. */
function plannedOrders<R extends { production_order_id: string; delivery_date: Date | null }>(
  rows: readonly R[],
  spanOf: (row: R) => Span | undefined,
): PlannedOrder[] {
  const orders = new Map<string, PlannedOrder>();
  for (const row of rows) {
    let order = orders.get(row.production_order_id);
    if (!order) {
      order = { deliveryDate: row.delivery_date, operationCount: 0, results: [] };
      orders.set(row.production_order_id, order);
    }
    order.operationCount++;
    const span = spanOf(row);
    if (span) order.results.push(span);
  }
  return [...orders.values()];
}

/** The shifts of the workplaces that overlap the horizon (all of them without one). */
export async function shiftsOfWorkplaces(
  db: Queryable,
  workplaceIds: readonly string[],
  horizon: { startDate?: Date | undefined; endDate?: Date | undefined },
): Promise<ResultSummaryInput['shifts']> {
  const rows = await db.query<{ workplace_id: string; start_date: Date; end_date: Date }>(
    `SELECT workplace_id, start_date, end_date FROM shifts WHERE workplace_id = ANY($1::uuid[])
     AND ($2::timestamptz IS NULL OR end_date > $2) AND ($3::timestamptz IS NULL OR start_date < $3)`,
    [workplaceIds.filter(isUuid), horizon.startDate ?? null, horizon.endDate ?? null],
  );
  return rows.map((row) => ({
    workplaceId: row.workplace_id,
    startDate: row.start_date,
    endDate: row.end_date,
  }));
}

/** The id of the workplace's shift running at `at` (the latest started, should shifts overlap). */
export async function shiftAt(db: Queryable, workplaceId: string, at: Date): Promise<string | null> {
  if (!isUuid(workplaceId)) return null;
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM shifts WHERE workplace_id = $1 AND start_date <= $2 AND end_date > $2
     ORDER BY start_date DESC, id DESC LIMIT 1`,
    [workplaceId, at],
  );
  return rows[0]?.id ?? null;
}

/** Every result of the kind overlapping the period (either end open), as the list filters them. */
export const resultsOverlapping = (db: Queryable, kind: ResultKind, period: PeriodFilter) =>
  allOf(db, tableOf(kind), new Conditions().overlapping(period));
