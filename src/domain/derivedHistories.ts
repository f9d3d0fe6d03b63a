// Histories derived from stored ones (docs/resources/production-orders.md and staff-members.md):
// the operating states an operation ran under, and the login periods of a staff member.
import { type OperationPhaseId, PHASES_NEEDING_WORKPLACE } from './operationPhases.ts';

interface Period {
  startDate: Date;
  /** null while open. */
  endDate: Date | null;
}

/** The earlier of two ends, null (open) being the latest. */
const earlierEnd = (a: Date | null, b: Date | null): Date | null => {
  if (a === null) return b;
  if (b === null) return a;
  return a < b ? a : b;
};

/** The overlap of two periods, or undefined when they share no time. */
function overlap(a: Period, b: Period): Period | undefined {
  const startDate = new Date(Math.max(a.startDate.getTime(), b.startDate.getTime()));
  const endDate = earlierEnd(a.endDate, b.endDate);
  return endDate === null || endDate > startDate ? { startDate, endDate } : undefined;
}

export interface ClippedOperatingState extends Period {
  workplaceId: string;
  operatingStateId: string;
}

/**
 * The operating-state records of the workplaces an operation ran at, clipped to the periods it
 * was there in a running phase (SETUP, TRAINING, PROCESSING), newest start first. A record and a
 * phase both open give an open period; `window` clips them all.
 */
export function operatingStatesOfOperation(
  phases: readonly (Period & { operationPhaseId: OperationPhaseId; workplaceId: string | null })[],
  states: readonly (Period & { workplaceId: string; operatingStateId: string })[],
  window: Period = { startDate: new Date(0), endDate: null },
): ClippedOperatingState[] {
  const clipped: ClippedOperatingState[] = [];
  for (const phase of phases) {
    if (phase.workplaceId === null || !PHASES_NEEDING_WORKPLACE.includes(phase.operationPhaseId)) continue;
    const running = overlap(phase, window);
    if (!running) continue;
    for (const state of states) {
      if (state.workplaceId !== phase.workplaceId) continue;
      const period = overlap(running, state);
      if (period)
        clipped.push({ ...period, workplaceId: state.workplaceId, operatingStateId: state.operatingStateId });
    }
  }
  // Consecutive running phases (SETUP then PROCESSING) cut one record in two: joined again.
  clipped.sort((a, b) => a.startDate.getTime() - b.startDate.getTime());
  const joined: ClippedOperatingState[] = [];
  for (const period of clipped) {
    const last = joined.at(-1);
    if (
      last &&
      last.endDate?.getTime() === period.startDate.getTime() &&
      last.workplaceId === period.workplaceId &&
      last.operatingStateId === period.operatingStateId
    )
      last.endDate = period.endDate;
    else joined.push({ ...period });
  }
  return joined.reverse();
}

export interface LoginPeriod extends Period {
  workplaceId: string | null;
  operationId: string | null;
  /** 1/n: n the staff member's periods open when this one started, itself included. */
  proportion: number;
}

/**
 * A staff member's login periods from its activity records (STARTED to INTERRUPTED or FINISHED),
 * newest start first. The proportion counts the periods among `records`.
 */
export function loginPeriods(
  records: readonly (Period & { workplaceId: string | null; operationId: string | null })[],
): LoginPeriod[] {
  const openAt = (at: Date) =>
    records.filter((other) => other.startDate <= at && (other.endDate === null || other.endDate > at)).length;
  return [...records]
    .sort((a, b) => b.startDate.getTime() - a.startDate.getTime())
    .map((record) => ({
      workplaceId: record.workplaceId,
      operationId: record.operationId,
      startDate: record.startDate,
      endDate: record.endDate,
      proportion: 1 / Math.max(1, openAt(record.startDate)),
    }));
}
