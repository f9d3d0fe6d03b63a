// Storage of the three kinds of results (forecast, operation planning, staff member planning):
// one table each, all of the same shape, so one set of statements over the kind's table.
import { isUuid } from '../../domain/ids.ts';
import type { Result, ResultKind } from '../../domain/planning.ts';
import { Conditions, type PeriodFilter } from '../conditions.ts';
import type { Queryable } from '../database.ts';
import type { OffsetPage, OffsetRequest } from '../paging.ts';
import { offsetPageOf, type Table } from '../table.ts';

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
const select = (kind: ResultKind) => `SELECT ${ownerColumn(kind)} AS owner_id, * FROM ${kind.table}`;

export async function findResult(
  db: Queryable,
  kind: ResultKind,
  ownerId: string,
  forUpdate = false,
): Promise<Result | undefined> {
  if (!isUuid(ownerId)) return undefined;
  const rows = await db.query<Row>(
    `${select(kind)} WHERE ${ownerColumn(kind)} = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [ownerId],
  );
  return rows[0] === undefined ? undefined : toResult(rows[0]);
}

/** The results of a kind that overlap a period (either end may be open), by start, in offset pages. */
export function listResults(
  db: Queryable,
  kind: ResultKind,
  filter: PeriodFilter,
  page: OffsetRequest,
): Promise<OffsetPage<Result>> {
  const table: Table<Row, Result> = {
    from: kind.table,
    select: `${ownerColumn(kind)} AS owner_id, *`,
    toItem: toResult,
  };
  return offsetPageOf(
    db,
    table,
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
export async function listRunningResultsAt(
  db: Queryable,
  kind: ResultKind,
  workplaceId: string,
  at: Date,
): Promise<Result[]> {
  const rows = await db.query<Row>(
    `${select(kind)} WHERE workplace_id = $1 AND end_date > $2 ORDER BY ${ownerColumn(kind)}`,
    [workplaceId, at],
  );
  return rows.map(toResult);
}
