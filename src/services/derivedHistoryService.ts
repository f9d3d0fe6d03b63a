// Reads of histories derived from stored ones (src/domain/derivedHistories.ts): the operating
// states an operation ran under, and a staff member's login periods.
import type { Database } from '../db/database.ts';
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

const bounds = (window: Window) => ({
  startDate: window.startDate ?? new Date(0),
  endDate: window.endDate ?? null,
});

/** GET /operations/{id}/recordedOperatingStates: read in one transaction, so phases and states agree. */
export async function operatingStatesOfOperationIn(
  db: Database,
  operationId: string,
  window: Window,
): Promise<ClippedOperatingState[]> {
  const { startDate, endDate } = bounds(window);
  return db.transaction(async (tx) => {
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
export async function loginPeriodsOf(
  db: Database,
  staffMemberId: string,
  window: Window,
): Promise<LoginPeriod[]> {
  const { startDate, endDate } = bounds(window);
  return db.transaction(async (tx) => {
    const member = await getStaffMember(tx, staffMemberId);
    return loginPeriods(await listActivitiesOverlapping(tx, member.id, startDate, endDate));
  });
}
