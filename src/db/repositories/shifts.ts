import { isUuid } from '../../domain/ids.ts';
import type { Shift } from '../../domain/shifts.ts';
import type { Queryable } from '../database.ts';
import {
  addPeriodConditions,
  byStartDate,
  type KeysetPage,
  type KeysetRequest,
  keysetPage,
  type PeriodFilter,
} from '../paging.ts';

interface Row {
  id: string;
  workplace_id: string;
  name: string | null;
  shift_model_id: string | null;
  start_date: Date;
  end_date: Date;
  start_announced_at: Date | null;
  end_announced_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const toShift = (row: Row): Shift => ({
  id: row.id,
  workplaceId: row.workplace_id,
  name: row.name,
  shiftModelId: row.shift_model_id,
  startDate: row.start_date,
  endDate: row.end_date,
  startAnnouncedAt: row.start_announced_at,
  endAnnouncedAt: row.end_announced_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export async function listShifts(
  db: Queryable,
  workplaceId: string,
  filter: PeriodFilter,
  request: KeysetRequest,
): Promise<KeysetPage<Shift>> {
  const where = ['workplace_id = $1'];
  const params: unknown[] = [workplaceId];
  addPeriodConditions(filter, where, params);
  const page = await keysetPage(db, byStartDate<Row>('shifts', where, params), request);
  return { ...page, items: page.items.map(toShift) };
}

export async function findShift(
  db: Queryable,
  workplaceId: string,
  id: string,
  forUpdate = false,
): Promise<Shift | undefined> {
  if (!isUuid(id)) return undefined;
  const rows = await db.query<Row>(
    `SELECT * FROM shifts WHERE workplace_id = $1 AND id = $2${forUpdate ? ' FOR UPDATE' : ''}`,
    [workplaceId, id],
  );
  return rows[0] === undefined ? undefined : toShift(rows[0]);
}

/** The workplace's shifts starting within [startDate, endDate), by start, locked for a bulk replace. */
export async function lockShiftsStartingIn(
  db: Queryable,
  workplaceId: string,
  period: { startDate: Date; endDate: Date },
): Promise<Shift[]> {
  const rows = await db.query<Row>(
    `SELECT * FROM shifts WHERE workplace_id = $1 AND start_date >= $2 AND start_date < $3
     ORDER BY start_date, id FOR UPDATE`,
    [workplaceId, period.startDate, period.endDate],
  );
  return rows.map(toShift);
}

/** A shift of the workplace, other than `exceptId`, that overlaps the half-open period [start, end). */
export async function findOverlappingShift(
  db: Queryable,
  workplaceId: string,
  period: { startDate: Date; endDate: Date },
  exceptId: string,
): Promise<Shift | undefined> {
  const rows = await db.query<Row>(
    `SELECT * FROM shifts WHERE workplace_id = $1 AND start_date < $3 AND end_date > $2 AND id <> $4
     ORDER BY start_date LIMIT 1`,
    [workplaceId, period.startDate, period.endDate, exceptId],
  );
  return rows[0] === undefined ? undefined : toShift(rows[0]);
}

export async function insertShift(db: Queryable, shift: Shift): Promise<void> {
  await db.query(
    `INSERT INTO shifts (id, workplace_id, name, shift_model_id, start_date, end_date,
       start_announced_at, end_announced_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [
      shift.id,
      shift.workplaceId,
      shift.name,
      shift.shiftModelId,
      shift.startDate,
      shift.endDate,
      shift.startAnnouncedAt,
      shift.endAnnouncedAt,
      shift.createdAt,
      shift.updatedAt,
    ],
  );
}

export async function updateShift(db: Queryable, shift: Shift): Promise<void> {
  await db.query(
    `UPDATE shifts SET name = $2, shift_model_id = $3, start_date = $4, end_date = $5,
       start_announced_at = $6, end_announced_at = $7, updated_at = $8
     WHERE id = $1`,
    [
      shift.id,
      shift.name,
      shift.shiftModelId,
      shift.startDate,
      shift.endDate,
      shift.startAnnouncedAt,
      shift.endAnnouncedAt,
      shift.updatedAt,
    ],
  );
}

export async function deleteShift(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM shifts WHERE id = $1', [id]);
}

/**
 * Claims up to `limit` shifts whose start is due and not yet announced, marking them announced.
 * SKIP LOCKED: a shift another instance (or a request) holds is left to it or to the next poll.
 */
export async function claimDueStarts(db: Queryable, now: Date, limit: number): Promise<Shift[]> {
  const rows = await db.query<Row>(
    `UPDATE shifts SET start_announced_at = $1
     WHERE start_announced_at IS NULL AND id IN (
       SELECT id FROM shifts WHERE start_announced_at IS NULL AND start_date <= $1
       ORDER BY start_date, id LIMIT $2 FOR UPDATE SKIP LOCKED)
     RETURNING *`,
    [now, limit],
  );
  return rows.map(toShift);
}

/** As claimDueStarts for ends; only of shifts whose start was announced, so ENDED never comes first. */
export async function claimDueEnds(db: Queryable, now: Date, limit: number): Promise<Shift[]> {
  const rows = await db.query<Row>(
    `UPDATE shifts SET end_announced_at = $1
     WHERE end_announced_at IS NULL AND id IN (
       SELECT id FROM shifts
       WHERE end_announced_at IS NULL AND end_date <= $1 AND start_announced_at IS NOT NULL
       ORDER BY end_date, id LIMIT $2 FOR UPDATE SKIP LOCKED)
     RETURNING *`,
    [now, limit],
  );
  return rows.map(toShift);
}
