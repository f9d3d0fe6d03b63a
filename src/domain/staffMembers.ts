// Staff members and their activities on operations, as services and repositories exchange them.
import { AppError } from './errors.ts';
import type { Stored } from './stored.ts';

/** A period the staff member is not available (vacation, sickness, training, ...). */
export interface Absence {
  startDate: Date;
  endDate: Date;
  reason: string | null;
}

export interface StaffMemberInput {
  staffNumber: string;
  firstName: string;
  lastName: string;
  email: string | null;
  erpContextId: string | null;
  /** The badge or card number a terminal reads; null: none. */
  identificationNumber: string | null;
  qualifications: string[];
  /** In the order the client gave them. */
  assignedWorkplaceIds: string[];
  shiftId: string | null;
  absences: Absence[];
}

export interface StaffMember extends StaffMemberInput, Stored {}

/**
 * A shift a staff member works: a shift of their shift model at one of their assigned
 * workplaces (derived, see staffMemberShiftRepository.ts).
 */
export interface StaffMemberShift {
  id: string;
  staffMemberId: string;
  /** The workplace shift it is, and that shift's workplace and type. */
  shiftId: string;
  workplaceId: string;
  shiftTypeId: string | null;
  startDate: Date;
  endDate: Date;
}

/**
 * Every property is characteristic (skills, assigned workplaces, ...: docs/events.md, "Catalogue");
 * activities have their own event and never emit STAFF_MEMBER_UPDATED.
 */
export const STAFF_MEMBER_CHARACTERISTICS = [
  'staffNumber',
  'firstName',
  'lastName',
  'email',
  'erpContextId',
  'identificationNumber',
  'qualifications',
  'assignedWorkplaceIds',
  'shiftId',
  'absences',
] as const;

export const STAFF_ACTIVITIES = ['STARTED', 'INTERRUPTED', 'FINISHED'] as const;
export type StaffActivity = (typeof STAFF_ACTIVITIES)[number];
export type EndActivity = Exclude<StaffActivity, 'STARTED'>;

/**
 * A period of work of a staff member on an operation at a workplace: STARTED opens it,
 * INTERRUPTED or FINISHED closes it. A deleted operation or workplace leaves its reference null.
 */
export interface RecordedActivity {
  id: string;
  staffMemberId: string;
  operationId: string | null;
  workplaceId: string | null;
  startDate: Date;
  endDate: Date | null;
  endActivity: EndActivity | null;
}

/** The activity a record stands for now: STARTED while open, then how it ended. */
export const activityOf = (record: RecordedActivity): StaffActivity => record.endActivity ?? 'STARTED';

/**
 * Where a staff member works now: the workplace of their latest open activity that names one
 * (`open` newest first), undefined while they are signed on nowhere.
 */
export const currentWorkplaceId = (open: readonly RecordedActivity[]): string | undefined =>
  open.find((record) => record.workplaceId !== null)?.workplaceId ?? undefined;

/** The activities that may follow the record (none: only STARTED). */
export const allowedAfter = (record: RecordedActivity | undefined): StaffActivity[] =>
  record && record.endActivity === null ? ['INTERRUPTED', 'FINISHED'] : ['STARTED'];

/** Refuses an absence that ends before it starts, naming its index. */
export function checkAbsences(absences: readonly Absence[]): void {
  absences.forEach((absence, index) => {
    if (absence.endDate < absence.startDate) {
      throw new AppError('VALIDATION_FAILED', {
        rule: 'value',
        field: `absences[${index}].endDate`,
        detail: 'must not be before startDate',
      });
    }
  });
}

/**
 * The characteristic properties in a form `changedProperties` can compare with `!==`: lists and
 * absences become their JSON text, so a reordered or edited list counts as a change.
 */
export const comparable = (member: StaffMemberInput) => ({
  staffNumber: member.staffNumber,
  firstName: member.firstName,
  lastName: member.lastName,
  email: member.email,
  erpContextId: member.erpContextId,
  identificationNumber: member.identificationNumber,
  qualifications: JSON.stringify(member.qualifications),
  assignedWorkplaceIds: JSON.stringify(member.assignedWorkplaceIds),
  shiftId: member.shiftId,
  absences: JSON.stringify(member.absences),
});

interface Period {
  startDate: Date;
  endDate: Date;
}

/**
 * A staff member's scheduled working time: the periods of their shifts (at several workplaces the
 * same shift may repeat) joined where they overlap or touch, less their absences; newest first.
 */
export function scheduledWorkingTimes(shifts: readonly Period[], absences: readonly Period[]): Period[] {
  const merged: Period[] = [];
  for (const shift of [...shifts].sort((a, b) => a.startDate.getTime() - b.startDate.getTime())) {
    const last = merged.at(-1);
    if (last && shift.startDate.getTime() <= last.endDate.getTime()) {
      if (shift.endDate > last.endDate) last.endDate = shift.endDate;
    } else merged.push({ startDate: shift.startDate, endDate: shift.endDate });
  }
  let periods = merged;
  for (const absence of absences) {
    periods = periods.flatMap((period) => {
      if (absence.endDate <= period.startDate || absence.startDate >= period.endDate) return [period];
      const left =
        absence.startDate > period.startDate
          ? [{ startDate: period.startDate, endDate: absence.startDate }]
          : [];
      const right =
        absence.endDate < period.endDate ? [{ startDate: absence.endDate, endDate: period.endDate }] : [];
      return [...left, ...right];
    });
  }
  return periods.reverse();
}

/**
 * A staff member's absences overlapping a period (either end open), newest first by start, then
 * by end: the order timestamp pages walk them in.
 */
export function absencesOverlapping(
  absences: readonly Absence[],
  period: { startDate?: Date | undefined; endDate?: Date | undefined },
): Absence[] {
  const { startDate, endDate } = period;
  return absences
    .filter(
      (absence) =>
        (startDate === undefined || absence.endDate >= startDate) &&
        (endDate === undefined || absence.startDate <= endDate),
    )
    .sort(
      (a, b) => b.startDate.getTime() - a.startDate.getTime() || b.endDate.getTime() - a.endDate.getTime(),
    );
}

/**
 * One timestamp-mode page of periods held newest first: NEXT walks to older periods (those
 * starting before the position), PREVIOUS to newer ones (the page nearest the position); without
 * a position NEXT is the newest page and PREVIOUS the oldest. The page is newest first.
 */
export function periodPage<P extends Period>(
  periods: readonly P[],
  asked: { limit: number; direction: 'NEXT' | 'PREVIOUS'; timestamp: Date | undefined },
): { items: P[]; hasOlder: boolean; hasNewer: boolean } {
  const { limit, direction, timestamp } = asked;
  if (direction === 'NEXT') {
    const older =
      timestamp === undefined ? periods : periods.filter((period) => period.startDate < timestamp);
    return {
      items: older.slice(0, limit),
      hasOlder: older.length > limit,
      hasNewer: older.length < periods.length,
    };
  }
  const newer = timestamp === undefined ? periods : periods.filter((period) => period.startDate > timestamp);
  return {
    items: newer.slice(Math.max(0, newer.length - limit)),
    hasOlder: newer.length < periods.length,
    hasNewer: newer.length > limit,
  };
}
