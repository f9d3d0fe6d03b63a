// Workplace shifts, and when the shift clock announces their start and end (WORKPLACE_SHIFT_CHANGED).
import { AppError } from './errors.ts';
import type { Stored } from './stored.ts';

export interface ShiftInput {
  name: string | null;
  /** A shift model of the planning system; kept as given (the bridge has no shift models). */
  shiftModelId: string | null;
  /** An entry of the master data kind shiftTypes; null: no type stated. */
  shiftTypeId: string | null;
  startDate: Date;
  endDate: Date;
}

/** What the clock has announced already; null = still to announce when its time comes. */
export interface Announcements {
  startAnnouncedAt: Date | null;
  endAnnouncedAt: Date | null;
}

export interface Shift extends ShiftInput, Announcements, Stored {
  workplaceId: string;
}

/** Changes of these emit WORKPLACE_SHIFTS_UPDATED (UPDATED). */
export const SHIFT_CHARACTERISTICS = ['name', 'shiftModelId', 'shiftTypeId', 'startDate', 'endDate'] as const;

export type ShiftChange = 'STARTED' | 'ENDED';

interface Period {
  startDate: Date;
  endDate: Date;
}

/** A period must end after it starts (shifts and scheduled maintenance); `prefix` names a bulk element. */
export function checkPeriod(period: Period, prefix = ''): void {
  if (period.endDate.getTime() <= period.startDate.getTime()) {
    throw new AppError('VALIDATION_FAILED', {
      rule: 'value',
      field: `${prefix}endDate`,
      detail: 'must be after startDate',
    });
  }
}

/**
 * The announcement state of a shift after it was created (`before` all null) or its period changed,
 * so that subscribers see STARTED and ENDED in pairs:
 * - already over: a shift whose start was never announced is history and is never announced;
 *   one that was announced as started gets its ENDED (unless already sent);
 * - running: its STARTED is announced (right away if not yet); a shift that had ended and is
 *   running again is announced again (STARTED now, ENDED at the new end);
 * - in the future: both are announced when their time comes, even if announced before.
 */
export function announcementsAfterChange(
  before: Announcements,
  period: { startDate: Date; endDate: Date },
  now: Date,
): Announcements {
  if (period.endDate.getTime() <= now.getTime()) {
    if (before.startAnnouncedAt === null) return { startAnnouncedAt: now, endAnnouncedAt: now };
    return { startAnnouncedAt: before.startAnnouncedAt, endAnnouncedAt: before.endAnnouncedAt };
  }
  if (period.startDate.getTime() <= now.getTime() && before.endAnnouncedAt === null) {
    return { startAnnouncedAt: before.startAnnouncedAt, endAnnouncedAt: null };
  }
  return { startAnnouncedAt: null, endAnnouncedAt: null };
}

/** The shifts that replace a workplace's shifts starting within [startDate, endDate). */
export interface ShiftPlan extends Period {
  shifts: ShiftInput[];
}

/**
 * What a plan must satisfy on its own: a valid period, and shifts that each end after they start,
 * start within the period and do not overlap one another. Errors name the element, e.g.
 * `shifts[3].startDate`.
 */
export function checkShiftPlan(plan: ShiftPlan): void {
  checkPeriod(plan);
  plan.shifts.forEach((shift, index) => {
    checkPeriod(shift, `shifts[${index}].`);
    if (shift.startDate < plan.startDate || shift.startDate >= plan.endDate) {
      throw new AppError('VALIDATION_FAILED', {
        rule: 'value',
        field: `shifts[${index}].startDate`,
        detail: 'must be within the period from startDate (inclusive) to endDate (exclusive)',
      });
    }
  });
  const byStart = plan.shifts
    .map((shift, index) => ({ shift, index }))
    .sort((a, b) => a.shift.startDate.getTime() - b.shift.startDate.getTime());
  for (let i = 1; i < byStart.length; i++) {
    const previous = byStart[i - 1];
    const current = byStart[i];
    if (previous && current && current.shift.startDate < previous.shift.endDate) {
      throw new AppError('VALIDATION_FAILED', {
        rule: 'value',
        field: `shifts[${current.index}].startDate`,
        detail: `the period overlaps shifts[${previous.index}]`,
      });
    }
  }
}
