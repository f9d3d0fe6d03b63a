// A correction of a history (docs/resources/workplaces.md, "Corrections"): a period is inserted
// into an owner's records, and the records it overlaps are trimmed, split or removed, so the
// history stays a sequence of periods that never overlap. Pure: the service reads the records,
// applies what this returns and records the events.
import { AppError } from './errors.ts';

/** A record of a history: [startDate, endDate), endDate null while it is open. */
export interface Period {
  id: string;
  startDate: Date;
  endDate: Date | null;
}

export interface Correction<Record extends Period> {
  /** Records that lie inside the inserted period. */
  removed: string[];
  /** Records that keep their id with new dates (one side trimmed). */
  changed: Period[];
  /** The tail of a record the inserted period falls inside of: its values, new dates, `tailId`. */
  tail: (Record & { from: string }) | null;
  /** The inserted period's dates. */
  inserted: { startDate: Date; endDate: Date | null };
}

const endOf = (record: Period) => record.endDate?.getTime() ?? Number.POSITIVE_INFINITY;

/**
 * Where a period without an end date ends: where the next record after `start` starts (open when
 * none does), so it recodes the rest of the record it starts in.
 */
export function periodEnd(records: readonly Period[], start: Date, end: Date | null): Date | null {
  if (end !== null) return end;
  const next = records
    .map((record) => record.startDate.getTime())
    .filter((at) => at > start.getTime())
    .sort((a, b) => a - b)[0];
  return next === undefined ? null : new Date(next);
}

/** The body's dates checked: a start before the end, neither after `now`. 400 naming the field. */
export function checkCorrectionDates(start: Date, end: Date | null, now: Date): void {
  if (start.getTime() > now.getTime()) {
    throw new AppError('VALIDATION_FAILED', {
      rule: 'value',
      field: 'startDate',
      detail: 'must not be in the future',
    });
  }
  if (end === null) return;
  if (end.getTime() <= start.getTime()) {
    throw new AppError('VALIDATION_FAILED', {
      rule: 'value',
      field: 'endDate',
      detail: 'must be after startDate',
    });
  }
  if (end.getTime() > now.getTime()) {
    throw new AppError('VALIDATION_FAILED', {
      rule: 'value',
      field: 'endDate',
      detail: 'must not be in the future',
    });
  }
}

/**
 * Inserts [start, end) (end null: open, to now and on) into `records`. A record touching the
 * period at an edge stays as it is; one that overlaps the start loses its end, one that overlaps
 * the end loses its start, one inside is removed, and one the period lies inside is split in two
 * (its tail gets `tailId` and keeps the record's values).
 */
export function insertPeriod<Record extends Period>(
  records: readonly Record[],
  start: Date,
  end: Date | null,
  tailId: string,
): Correction<Record> {
  const from = start.getTime();
  const to = end?.getTime() ?? Number.POSITIVE_INFINITY;
  const correction: Correction<Record> = {
    removed: [],
    changed: [],
    tail: null,
    inserted: { startDate: start, endDate: end },
  };
  for (const record of records) {
    const recordFrom = record.startDate.getTime();
    const recordTo = endOf(record);
    if (recordTo <= from || recordFrom >= to) continue;
    const keepsHead = recordFrom < from;
    const keepsTail = recordTo > to;
    if (keepsHead && keepsTail) {
      correction.changed.push({ id: record.id, startDate: record.startDate, endDate: start });
      correction.tail = { ...record, id: tailId, startDate: end as Date, from: record.id };
    } else if (keepsHead) {
      correction.changed.push({ id: record.id, startDate: record.startDate, endDate: start });
    } else if (keepsTail) {
      correction.changed.push({ id: record.id, startDate: end as Date, endDate: record.endDate });
    } else {
      correction.removed.push(record.id);
    }
  }
  return correction;
}
