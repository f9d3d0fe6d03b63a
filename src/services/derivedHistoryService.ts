// Reads of histories derived from stored ones (src/domain/derivedHistories.ts): the operating
// states an operation ran under, and a staff member's login periods.
import type { Database, Queryable } from '../db/database.ts';
import { listOperationPhasesOverlapping } from '../db/repositories/operationRepository.ts';
import { listActivitiesOverlapping } from '../db/repositories/staffMemberRepository.ts';
import { listOperatingStatesOverlapping } from '../db/repositories/workplaceRepository.ts';
import {
  type ClippedOperatingState,
  type LoginPeriod,
  loginPeriods,
  operatingStatesOfOperation,
} from '../domain/derivedHistories.ts';
import { getOperation } from './operationService.ts';
import { getStaffMember } from './staffMemberService.ts';

export interface Window {
  startDate?: Date | undefined;
  endDate?: Date | undefined;
}

interface Bounds {
  startDate: Date;
  /** null: up to now and beyond. */
  endDate: Date | null;
}

/** Runs `read` in one transaction, so the histories it combines agree, within the window's bounds. */
function readWithin<T>(db: Database, window: Window, read: (tx: Queryable, bounds: Bounds) => Promise<T>) {
  return db.transaction((tx) =>
    read(tx, { startDate: window.startDate ?? new Date(0), endDate: window.endDate ?? null }),
  );
}

/** GET /operations/{id}/recordedOperatingStates: the states of the workplaces of its phases. */
export function operatingStatesOfOperationIn(
  db: Database,
  operationId: string,
  window: Window,
): Promise<ClippedOperatingState[]> {
  return readWithin(db, window, async (tx, { startDate, endDate }) => {
    const operation = await getOperation(tx, operationId);
    const phases = await listOperationPhasesOverlapping(tx, operation.id, startDate, endDate);
    const workplaceIds = new Set(phases.flatMap((phase) => (phase.workplaceId ? [phase.workplaceId] : [])));
    const states = [];
    for (const workplaceId of workplaceIds)
      states.push(...(await listOperatingStatesOverlapping(tx, workplaceId, startDate, endDate)));
    return operatingStatesOfOperation(phases, states, { startDate, endDate });
  });
}

/** GET /staffMembers/{id}/recordedLoginPeriods: its activity records overlapping the window. */
export function loginPeriodsOf(db: Database, staffMemberId: string, window: Window): Promise<LoginPeriod[]> {
  return readWithin(db, window, async (tx, { startDate, endDate }) => {
    const member = await getStaffMember(tx, staffMemberId);
    return loginPeriods(await listActivitiesOverlapping(tx, member.id, startDate, endDate));
  });
}
