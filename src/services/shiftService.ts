import type { Database, Queryable } from '../db/database.ts';
import * as shifts from '../db/repositories/shiftRepository.ts';
import { findWorkplace } from '../db/repositories/workplaceRepository.ts';
import { AppError, notFound } from '../domain/errors.ts';
import { type ChangeType, catalogueEvent, type NewEvent } from '../domain/events.ts';
import {
  announcementsAfterChange,
  checkPeriod,
  checkShiftPlan,
  SHIFT_CHARACTERISTICS,
  type Shift,
  type ShiftInput,
  type ShiftPlan,
} from '../domain/shifts.ts';
import { changedProperties } from '../domain/workplaces.ts';
import { recordEvents } from './eventService.ts';
import { lifecycle, newItem, withChanged } from './lifecycle.ts';
import { checkMasterDataReference } from './masterDataService.ts';
import { getWorkplace } from './workplaceService.ts';
import { found, gettingBelow, lockingBelow } from './writes.ts';

/** A shift as it appears in event data (times as ISO text, so changes compare by value). */
function shiftData(shift: Shift) {
  return {
    shiftId: shift.id,
    name: shift.name,
    shiftModelId: shift.shiftModelId,
    shiftTypeId: shift.shiftTypeId,
    startDate: shift.startDate.toISOString(),
    endDate: shift.endDate.toISOString(),
  };
}

function shiftsUpdated(changeType: ChangeType, shift: Shift, changed?: string[]): NewEvent[] {
  return [
    catalogueEvent(
      'WORKPLACE_SHIFTS_UPDATED',
      shift.workplaceId,
      withChanged({ workplaceId: shift.workplaceId, changeType, shift: shiftData(shift) }, changed),
    ),
  ];
}

/** A shift of the workplace: 404 when there is no such workplace, or no such shift of it. */
export const getShift = gettingBelow('shift', getWorkplace, shifts.findShift);

/** One shift of any workplace (GET /workplaces/shifts/{id}). */
export const getAnyShift = (db: Queryable, id: string) => found(shifts.findAnyShift(db, id), 'shift', id);

/**
 * Locks the workplace (404 when it does not exist) for the change: it cannot be deleted meanwhile,
 * and shift writes of one workplace take turns, so two requests cannot both pass the overlap check.
 */
export async function lockWorkplace(tx: Queryable, workplaceId: string): Promise<void> {
  if (!(await findWorkplace(tx, workplaceId, true))) throw notFound('workplace', workplaceId);
}

const lockShift = lockingBelow('shift', lockWorkplace, shifts.findShift);

/** A shift's checks against the database: its shift type exists, it overlaps no other shift. */
async function checkShift(tx: Queryable, shift: Shift, prefix = ''): Promise<void> {
  await checkMasterDataReference(tx, `${prefix}shiftTypeId`, shift.shiftTypeId, 'shiftTypes', 'shiftType');
  await checkNoOverlap(tx, shift, prefix);
}

async function checkNoOverlap(tx: Queryable, shift: Shift, prefix: string): Promise<void> {
  const other = await shifts.findOverlappingShift(tx, shift.workplaceId, shift, shift.id);
  if (other) {
    throw new AppError('VALIDATION_FAILED', {
      rule: 'value',
      field: `${prefix}startDate`,
      detail: `the period overlaps shift ${other.id} (${other.startDate.toISOString()} to ${other.endDate.toISOString()})`,
    });
  }
}

const SHIFTS = lifecycle<Shift>('shift', {
  rows: shifts.shiftWrites,
  events: shiftsUpdated,
  check: checkShift,
});

/** A new shift, with what the clock is to announce (a shift created already over: nothing). */
function newShift(workplaceId: string, input: ShiftInput, now: Date): Shift {
  const none = { startAnnouncedAt: null, endAnnouncedAt: null };
  return newItem({ ...input, workplaceId, ...announcementsAfterChange(none, input, now) }, now);
}

/** A stored shift given new properties: what changed, and (if anything did) the new state. */
function changeShift(before: Shift, input: ShiftInput, now: Date): { after: Shift; changed: string[] } {
  const after: Shift = { ...before, ...input };
  const changed = changedProperties(shiftData(before), shiftData(after), SHIFT_CHARACTERISTICS);
  if (changed.length === 0) return { after: before, changed };
  return { after: { ...after, ...announcementsAfterChange(before, after, now), updatedAt: now }, changed };
}

export async function createShift(db: Database, workplaceId: string, input: ShiftInput): Promise<Shift> {
  checkPeriod(input);
  return db.transaction(async (tx) => {
    await lockWorkplace(tx, workplaceId);
    return SHIFTS.insert(tx, newShift(workplaceId, input, new Date()));
  });
}

export async function replaceShift(
  db: Database,
  workplaceId: string,
  id: string,
  input: ShiftInput,
): Promise<Shift> {
  checkPeriod(input);
  return SHIFTS.replace(db, lockShift(workplaceId, id), (_tx, before, at) => changeShift(before, input, at));
}

/** Deleting a running shift announces no ENDED: WORKPLACE_SHIFTS_UPDATED (DELETED) says it is gone. */
export async function deleteShift(db: Database, workplaceId: string, id: string): Promise<void> {
  await SHIFTS.delete(db, lockShift(workplaceId, id));
}

/**
 * Bulk replace: the workplace's shifts starting within the plan's period become the plan's shifts,
 * in one transaction. A planned shift with the start of an existing one keeps that shift's id
 * (UPDATED when something differs, nothing when not); existing shifts left over are DELETED, new
 * ones CREATED, each with its WORKPLACE_SHIFTS_UPDATED. Sending the same plan again changes nothing.
 * Returns the period's shifts by start.
 */
export async function replaceShiftsInPeriod(
  db: Database,
  workplaceId: string,
  plan: ShiftPlan,
): Promise<Shift[]> {
  checkShiftPlan(plan);
  return db.transaction(async (tx) => {
    await lockWorkplace(tx, workplaceId);
    const now = new Date();
    const existing = await shifts.lockShiftsStartingIn(tx, workplaceId, plan);
    const planned = new Set(plan.shifts.map((shift) => shift.startDate.getTime()));
    const events: NewEvent[] = [];
    for (const shift of existing.filter((old) => !planned.has(old.startDate.getTime()))) {
      await shifts.shiftWrites.delete(tx, shift.id);
      events.push(...shiftsUpdated('DELETED', shift));
    }
    const byStart = new Map(existing.map((shift) => [shift.startDate.getTime(), shift]));
    const result: Shift[] = [];
    const written: [number, Shift][] = [];
    for (const [index, input] of plan.shifts.entries()) {
      const before = byStart.get(input.startDate.getTime());
      if (before === undefined) {
        const shift = newShift(workplaceId, input, now);
        await shifts.shiftWrites.insert(tx, shift);
        events.push(...shiftsUpdated('CREATED', shift));
        written.push([index, shift]);
        result.push(shift);
        continue;
      }
      const { after, changed } = changeShift(before, input, now);
      result.push(after);
      if (changed.length === 0) continue;
      await shifts.shiftWrites.update(tx, after);
      events.push(...shiftsUpdated('UPDATED', after, changed));
      written.push([index, after]);
    }
    // The plan's shifts do not overlap one another (checked above): an overlap now is with a shift
    // outside the period (one starting before it and running into it, or one after it).
    for (const [index, shift] of written) await checkShift(tx, shift, `shifts[${index}].`);
    await recordEvents(tx, events, now);
    return result.sort((a, b) => a.startDate.getTime() - b.startDate.getTime());
  });
}
