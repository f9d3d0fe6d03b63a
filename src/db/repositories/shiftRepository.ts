import type { Shift } from '../../domain/shifts.ts';
import { Conditions, type PeriodFilter } from '../conditions.ts';
import type { Queryable } from '../database.ts';
import type { KeysetPage, KeysetRequest } from '../paging.ts';
import {
  anyOwnerPeriodList,
  byStartDate,
  findById,
  firstItem,
  ownedFind,
  ownedInPeriod,
  ownedPeriodList,
  rowWrites,
  type Table,
  timestampPageOf,
} from '../table.ts';

interface Row {
  id: string;
  workplace_id: string;
  name: string | null;
  shift_model_id: string | null;
  shift_type_id: string | null;
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
  shiftTypeId: row.shift_type_id,
  startDate: row.start_date,
  endDate: row.end_date,
  startAnnouncedAt: row.start_announced_at,
  endAnnouncedAt: row.end_announced_at,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const SHIFTS: Table<Row, Shift> = { from: 'shifts', toItem: toShift };
const ofWorkplaceInPeriod = ownedInPeriod('workplace_id');

export async function listShifts(
  db: Queryable,
  workplaceId: string,
  filter: PeriodFilter,
  request: KeysetRequest,
): Promise<KeysetPage<Shift>> {
  return timestampPageOf(db, SHIFTS, ofWorkplaceInPeriod(workplaceId, filter), byStartDate<Row>(), request);
}

export const findShift = ownedFind(SHIFTS, 'workplace_id');

/** Shifts of all workplaces (GET /workplaces/shifts), or of one, latest start first. */
export const listAllShifts = anyOwnerPeriodList(SHIFTS, 'workplace_id');

/** One shift of any workplace. */
export const findAnyShift = (db: Queryable, id: string) => findById(db, SHIFTS, id);

/** A workplace's shifts in offset pages by start: its scheduled operating times. */
export const listShiftPeriods = ownedPeriodList(SHIFTS, 'workplace_id', 'start_date, id');

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
  return firstItem(
    db,
    `SELECT * FROM shifts WHERE workplace_id = $1 AND start_date < $3 AND end_date > $2 AND id <> $4
     ORDER BY start_date LIMIT 1`,
    [workplaceId, period.startDate, period.endDate, exceptId],
    toShift,
  );
}

export const shiftWrites = rowWrites<Shift>()(
  'shifts',
  'id workplaceId name shiftModelId shiftTypeId startDate endDate startAnnouncedAt endAnnouncedAt createdAt updatedAt',
  { fixed: ['workplace_id', 'created_at'] },
);

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

/**
 * The periods of the shifts of these shift models at these workplaces that overlap a period, by
 * start (the scheduled working time of staff members).
 */
export async function listShiftModelPeriods(
  db: Queryable,
  workplaceIds: readonly string[],
  shiftModelIds: readonly string[],
  filter: PeriodFilter,
): Promise<{ workplaceId: string; shiftModelId: string; startDate: Date; endDate: Date }[]> {
  if (workplaceIds.length === 0 || shiftModelIds.length === 0) return [];
  const conditions = new Conditions(
    ['workplace_id = ANY($1::uuid[])', 'shift_model_id = ANY($2::text[])'],
    [workplaceIds, shiftModelIds],
  ).overlapping(filter);
  const rows = await db.query<{
    workplace_id: string;
    shift_model_id: string;
    start_date: Date;
    end_date: Date;
  }>(
    `SELECT workplace_id, shift_model_id, start_date, end_date FROM shifts
     WHERE ${conditions.where.join(' AND ')} ORDER BY start_date, id`,
    conditions.params,
  );
  return rows.map((row) => ({
    workplaceId: row.workplace_id,
    shiftModelId: row.shift_model_id,
    startDate: row.start_date,
    endDate: row.end_date,
  }));
}
