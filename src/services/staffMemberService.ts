import { v7 as uuidv7 } from 'uuid';
import type { PeriodFilter } from '../db/conditions.ts';
import type { Database, Queryable } from '../db/database.ts';
import type { OffsetRequest } from '../db/paging.ts';
import { listShiftModelPeriods } from '../db/repositories/shiftRepository.ts';
import * as staffMembers from '../db/repositories/staffMemberRepository.ts';
import { findStaffMemberShift } from '../db/repositories/staffMemberShiftRepository.ts';
import { findWorkplace } from '../db/repositories/workplaceRepository.ts';
import { AppError } from '../domain/errors.ts';
import { catalogueEvent } from '../domain/events.ts';
import {
  absencesOverlapping,
  activityOf,
  allowedAfter,
  checkAbsences,
  comparable,
  currentWorkplaceId,
  type RecordedActivity,
  STAFF_MEMBER_CHARACTERISTICS,
  type StaffActivity,
  type StaffMember,
  type StaffMemberInput,
  scheduledWorkingTimes,
} from '../domain/staffMembers.ts';
import { changedProperties, type Workplace } from '../domain/workplaces.ts';
import { recordEvents } from './eventService.ts';
import { lifecycle, newItem, primaryEvents } from './lifecycle.ts';
import { checkReference } from './referenceService.ts';
import { found, locking } from './writes.ts';

const lockStaffMember = locking('staffMember', staffMembers.findStaffMember);

/** The event data of STAFF_MEMBER_CREATED/_UPDATED/_DELETED. */
function eventData(member: StaffMember) {
  const data: Record<string, unknown> = { staffMemberId: member.id };
  // The catalogue's properties (docs/events.md); an ERP context or identification number change is
  // named in changedProperties.
  for (const key of STAFF_MEMBER_CHARACTERISTICS)
    if (key !== 'erpContextId' && key !== 'identificationNumber') data[key] = member[key];
  data.absences = member.absences.map((absence) => ({
    startDate: absence.startDate.toISOString(),
    endDate: absence.endDate.toISOString(),
    reason: absence.reason,
  }));
  return data;
}

export async function getStaffMember(db: Queryable, id: string): Promise<StaffMember> {
  return found(staffMembers.findStaffMember(db, id), 'staffMember', id);
}

/**
 * The scheduled working time of these staff members overlapping a period, by staff member id:
 * the shifts of each one's shift model (`shiftId`) at their assigned workplaces, less their
 * absences, newest first; none without either. One read of the shifts for all of them.
 */
async function scheduledWorkingTimesOf(
  db: Queryable,
  members: readonly StaffMember[],
  period: PeriodFilter,
): Promise<Map<string, { startDate: Date; endDate: Date }[]>> {
  const scheduled = members.filter((member) => member.shiftId !== null);
  const workplaceIds = [...new Set(scheduled.flatMap((member) => member.assignedWorkplaceIds))];
  const models = [...new Set(scheduled.map((member) => member.shiftId as string))];
  const shifts = await listShiftModelPeriods(db, workplaceIds, models, period);
  return new Map(
    members.map((member) => {
      const assigned = new Set(member.assignedWorkplaceIds);
      const own = shifts.filter(
        (shift) => shift.shiftModelId === member.shiftId && assigned.has(shift.workplaceId),
      );
      return [member.id, scheduledWorkingTimes(own, member.absences)];
    }),
  );
}

/** One staff member's scheduled working time overlapping a period (see `scheduledWorkingTimesOf`). */
export async function getScheduledWorkingTimes(db: Queryable, id: string, period: PeriodFilter) {
  const member = await getStaffMember(db, id);
  return (await scheduledWorkingTimesOf(db, [member], period)).get(member.id) ?? [];
}

/** One shift a staff member works, by its derived id. */
export const getStaffMemberShift = (db: Queryable, id: string) =>
  found(findStaffMemberShift(db, id), 'staffMemberShift', id);

/** One staff member's absences overlapping a period, newest first. */
export async function getAbsenceTimes(db: Queryable, id: string, period: PeriodFilter) {
  return absencesOverlapping((await getStaffMember(db, id)).absences, period);
}

/** A page of staff members (by staff number) with their scheduled working time overlapping a period. */
export async function listScheduledWorkingTimes(db: Queryable, page: OffsetRequest, period: PeriodFilter) {
  const members = await staffMembers.listStaffMembers(db, {}, page);
  const times = await scheduledWorkingTimesOf(db, members.items, period);
  return {
    items: members.items.map((member) => ({ staffMemberId: member.id, periods: times.get(member.id) ?? [] })),
    total: members.total,
  };
}

/**
 * Where the staff member is: the workplace of their latest open activity, null while they are
 * signed on nowhere (or that workplace is gone).
 */
export async function getStaffMemberLocation(
  db: Queryable,
  id: string,
): Promise<{ member: StaffMember; workplace: Workplace | null }> {
  const member = await getStaffMember(db, id);
  const open = await staffMembers.findOpenActivities(db, [member.id]);
  const workplaceId = currentWorkplaceId(open);
  const workplace = workplaceId ? await findWorkplace(db, workplaceId) : undefined;
  return { member, workplace: workplace ?? null };
}

/** Absences in order, and every assigned workplace existing (kept so until commit). */
async function checkInput(tx: Queryable, input: StaffMemberInput) {
  checkAbsences(input.absences);
  for (const [index, workplaceId] of input.assignedWorkplaceIds.entries()) {
    await checkReference(tx, `assignedWorkplaceIds[${index}]`, workplaceId, 'workplaces');
  }
}

const STAFF_MEMBERS = lifecycle<StaffMember>('staffMember', {
  rows: staffMembers.staffMemberWrites,
  events: primaryEvents('STAFF_MEMBER', eventData),
  check: checkInput,
  unique: (member) => ['staffNumber', member.staffNumber],
});

export async function createStaffMember(db: Database, input: StaffMemberInput): Promise<StaffMember> {
  return STAFF_MEMBERS.create(db, newItem(input, new Date()));
}

export async function replaceStaffMember(
  db: Database,
  id: string,
  input: StaffMemberInput,
): Promise<StaffMember> {
  return STAFF_MEMBERS.replace(db, lockStaffMember(id), (_tx, before) => {
    const after: StaffMember = { ...before, ...input };
    return {
      after,
      changed: changedProperties(comparable(before), comparable(after), STAFF_MEMBER_CHARACTERISTICS),
    };
  });
}

export async function deleteStaffMember(db: Database, id: string): Promise<void> {
  await STAFF_MEMBERS.delete(db, lockStaffMember(id));
}

export interface ActivityCommand {
  operationId: string;
  workplaceId: string | null;
  activity: StaffActivity;
}

/**
 * POST /staffMembers/{id}/activities. STARTED opens a record on the operation (none may be open
 * on it); INTERRUPTED and FINISHED close the open one. Returns the record and whether it is new.
 */
export async function recordActivity(
  db: Database,
  staffMemberId: string,
  command: ActivityCommand,
): Promise<{ record: RecordedActivity; created: boolean }> {
  return db.transaction(async (tx) => {
    // Locking the staff member serializes its activity commands.
    const member = await found(
      staffMembers.findStaffMember(tx, staffMemberId, true),
      'staffMember',
      staffMemberId,
    );
    const latest = await staffMembers.findLatestActivity(tx, member.id, command.operationId);
    const allowed = allowedAfter(latest);
    if (!allowed.includes(command.activity)) {
      throw new AppError('INVALID_TRANSITION', {
        resource: 'staffMember',
        id: member.id,
        current: latest ? activityOf(latest) : 'NONE',
        requested: command.activity,
        allowed: allowed.join(', '),
      });
    }
    const now = new Date();
    let record: RecordedActivity;
    if (command.activity === 'STARTED') {
      if (command.workplaceId === null) {
        throw new AppError('VALIDATION_FAILED', { rule: 'required', field: 'workplaceId' });
      }
      await checkReference(tx, 'operationId', command.operationId, 'operations');
      await checkReference(tx, 'workplaceId', command.workplaceId, 'workplaces');
      record = {
        id: uuidv7(),
        staffMemberId: member.id,
        operationId: command.operationId,
        workplaceId: command.workplaceId,
        startDate: now,
        endDate: null,
        endActivity: null,
      };
      await staffMembers.insertActivity(tx, record);
    } else {
      // `latest` is the open record here: only that allows INTERRUPTED and FINISHED.
      const open = latest as RecordedActivity;
      if (command.workplaceId !== null && command.workplaceId !== open.workplaceId) {
        throw new AppError('VALIDATION_FAILED', {
          rule: 'value',
          field: 'workplaceId',
          detail: 'differs from the workplace of the open activity',
        });
      }
      record = { ...open, endDate: now, endActivity: command.activity };
      await staffMembers.closeActivity(tx, record);
    }
    const event = catalogueEvent('STAFF_MEMBER_ACTIVITY_CHANGED', member.id, {
      staffMemberId: member.id,
      operationId: record.operationId,
      workplaceId: record.workplaceId,
      activity: command.activity,
      previousActivity: latest ? activityOf(latest) : null,
    });
    await recordEvents(tx, [event], now);
    return { record, created: command.activity === 'STARTED' };
  });
}
