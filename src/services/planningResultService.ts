// Results of every kind (forecast, operation planning, staff member planning): reading, deleting,
// the forecast's single-resource PUT and the bulk update. One function, applyResult, stores an element for the bulk update and for
// PUT alike, so both give the same state and the same events.

import type { PeriodFilter } from '../db/conditions.ts';
import type { Database, Queryable } from '../db/database.ts';
import type { KeysetPage, KeysetRequest } from '../db/paging.ts';
import * as results from '../db/repositories/planningResultRepository.ts';
import { obsoletePlanningScenarios } from '../db/repositories/planningScenarioRepository.ts';
import {
  findStaffMemberShift,
  listStaffMemberShiftsDuring,
} from '../db/repositories/staffMemberShiftRepository.ts';
import { AppError, notFound } from '../domain/errors.ts';
import type { NewEvent } from '../domain/events.ts';
import { catalogueEvent } from '../domain/events.ts';
import {
  checkResultDates,
  checkShiftAssignment,
  checkUniqueOwners,
  checkWorkplaceShift,
  OPERATION_PLANNING_RESULTS,
  partInShift,
  RESULT_PROPERTIES,
  type Result,
  type ResultElement,
  type ResultInput,
  type ResultKind,
  type ResultSummary,
  resultValues,
  type ShiftAssignmentInput,
  type ShiftPlanningResult,
  STAFF_MEMBER_PLANNING_RESULTS,
  summarizeResults,
} from '../domain/planning.ts';
import type { StaffMemberShift } from '../domain/staffMembers.ts';
import { changedProperties } from '../domain/workplaces.ts';
import { recordEvents } from './eventService.ts';
import { checkReference } from './referenceService.ts';

export type ResultChange = 'CREATED' | 'UPDATED' | 'UNCHANGED';

/** Event data: the owner's id and the result's properties (times as ISO text). */
function resultEvent(
  kind: ResultKind,
  change: 'CREATED' | 'UPDATED' | 'DELETED',
  result: Result,
  changed?: string[],
) {
  const data: Record<string, unknown> = { [kind.ownerField]: result.ownerId, ...resultValues(result) };
  if (changed) data.changedProperties = changed;
  // Results belong to their owner and are no primary resources: no RESOURCES_UPDATED beside them.
  const event: NewEvent = {
    eventType: `${kind.eventPrefix}_${change}`,
    objectType: kind.objectType,
    objectId: result.ownerId,
    data,
  };
  return event;
}

/** The owner named in a path must exist (404), and stays until the transaction ends. */
async function requireOwner(tx: Queryable, kind: ResultKind, ownerId: string): Promise<void> {
  await checkReference(tx, kind.ownerField, ownerId, kind.ownerTable).catch((error: unknown) => {
    throw error instanceof AppError && error.code === 'INVALID_REFERENCE'
      ? notFound(kind.ownerResource, ownerId)
      : error;
  });
}

/** Dates and references of one element; `prefix` names it in errors (`assignments[3].`). */
export async function checkElement(
  tx: Queryable,
  kind: Pick<ResultKind, 'ownerField' | 'ownerTable'>,
  element: ResultElement,
  prefix: string,
): Promise<void> {
  checkResultDates(element, prefix);
  await checkReference(tx, `${prefix}${kind.ownerField}`, element.ownerId, kind.ownerTable);
  await checkReference(tx, `${prefix}workplaceId`, element.workplaceId, 'workplaces');
}

/**
 * Creates or fully replaces the owner's result in the caller's transaction and records its event;
 * a replacement that changes nothing records nothing.
 */
async function applyResult(
  tx: Queryable,
  kind: ResultKind,
  element: ResultElement,
  prefix: string,
  now: Date,
): Promise<{ result: Result; change: ResultChange }> {
  await checkElement(tx, kind, element, prefix);
  const before = await results.findResult(tx, kind, element.ownerId, true);
  if (before) {
    const changed = changedProperties(resultValues(before), resultValues(element), RESULT_PROPERTIES);
    if (changed.length === 0) return { result: before, change: 'UNCHANGED' };
    const after: Result = { ...before, ...element, updatedAt: now };
    await results.saveResult(tx, kind, after);
    await recordEvents(tx, [resultEvent(kind, 'UPDATED', after, changed)], now);
    return { result: after, change: 'UPDATED' };
  }
  const created: Result = { ...element, createdAt: now, updatedAt: now };
  await results.saveResult(tx, kind, created);
  await recordEvents(tx, [resultEvent(kind, 'CREATED', created)], now);
  return { result: created, change: 'CREATED' };
}

/**
 * A change of the operation plan outdates every operation planning scenario computed against it:
 * one OBSOLETE_OPERATION_PLANNING_SCENARIOS for the scenarios not yet obsolete, if any.
 */
async function obsoleteScenarios(tx: Queryable, kind: ResultKind, now: Date): Promise<void> {
  if (kind !== OPERATION_PLANNING_RESULTS) return;
  const ids = await obsoletePlanningScenarios(tx, 'OPERATION', now);
  if (ids.length === 0) return;
  const obsoleted = catalogueEvent('OBSOLETE_OPERATION_PLANNING_SCENARIOS', null, {
    operationPlanningScenarioIds: ids,
  });
  await recordEvents(tx, [obsoleted], now);
}

export async function getResult(db: Database, kind: ResultKind, ownerId: string): Promise<Result> {
  return db.transaction(async (tx) => {
    await requireOwner(tx, kind, ownerId);
    const result = await results.findResult(tx, kind, ownerId);
    if (!result) throw notFound(kind.resource, ownerId);
    return result;
  });
}

export async function deleteResult(db: Database, kind: ResultKind, ownerId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await requireOwner(tx, kind, ownerId);
    const result = await results.findResult(tx, kind, ownerId, true);
    if (!result) throw notFound(kind.resource, ownerId);
    await removeResult(tx, kind, result, new Date());
  });
}

async function removeResult(tx: Queryable, kind: ResultKind, result: Result, now: Date): Promise<void> {
  await results.deleteResult(tx, kind, result.ownerId);
  await recordEvents(tx, [resultEvent(kind, 'DELETED', result)], now);
  await obsoleteScenarios(tx, kind, now);
}

export interface BulkOutcome {
  /** The resulting results, in the order of the body. */
  results: Result[];
  created: number;
  updated: number;
  unchanged: number;
}

/**
 * The bulk update: every element is applied as its PUT would be, all in one transaction, so one
 * invalid element (named by its index in `list`) leaves everything as it was.
 */
export async function updateResults(
  db: Database,
  kind: ResultKind,
  list: string,
  elements: readonly ResultElement[],
): Promise<BulkOutcome> {
  checkUniqueOwners(elements, list, kind.ownerField);
  const now = new Date();
  return db.transaction(async (tx) => {
    await results.lockOwners(
      tx,
      kind,
      elements.map((element) => element.ownerId),
    );
    const outcome: BulkOutcome = { results: [], created: 0, updated: 0, unchanged: 0 };
    for (const [index, element] of elements.entries()) {
      const { result, change } = await applyResult(tx, kind, element, `${list}[${index}].`, now);
      outcome.results.push(result);
      if (change === 'CREATED') outcome.created++;
      else if (change === 'UPDATED') outcome.updated++;
      else outcome.unchanged++;
    }
    if (outcome.created + outcome.updated > 0) await obsoleteScenarios(tx, kind, now);
    return outcome;
  });
}

/**
 * PUT /operations/{id}/forecastResult or /planningResult: full replacement; the operation must
 * exist (404). A changed planning result makes the operation planning scenarios obsolete, as the
 * bulk update does.
 */
export async function replaceOperationResult(
  db: Database,
  kind: ResultKind,
  operationId: string,
  input: ResultInput,
) {
  const now = new Date();
  return db.transaction(async (tx) => {
    await requireOwner(tx, kind, operationId);
    await results.lockOwners(tx, kind, [operationId]);
    const applied = await applyResult(tx, kind, { ...input, ownerId: operationId }, '', now);
    if (applied.change !== 'UNCHANGED') await obsoleteScenarios(tx, kind, now);
    return applied;
  });
}

/** The figures of an operation result kind over a period, read in one transaction. */
export async function summarizeOperationResults(
  db: Database,
  kind: ResultKind,
  period: PeriodFilter,
): Promise<ResultSummary> {
  return db.transaction(async (tx) => summarizeResults(await results.loadSummaryInput(tx, kind, period)));
}

/** The assignment of a shift: its dispatching's part in it, at the workplace's shift of that time. */
async function assignmentsIn(
  tx: Queryable,
  shift: StaffMemberShift,
  result: Result | undefined,
): Promise<ShiftPlanningResult> {
  const part = result && partInShift(shift, result);
  if (!result || !part) return { ...shift, assignments: [] };
  const workplaceShiftId = await results.shiftAt(tx, result.workplaceId, part.startDate);
  return {
    ...shift,
    assignments: [{ ...part, workplaceId: result.workplaceId, workplaceShiftId, fixed: result.fixed }],
  };
}

/** The shift the path names, of the staff member it names (404 for either). */
async function requireShift(
  tx: Queryable,
  staffMemberId: string,
  shiftId: string,
): Promise<StaffMemberShift> {
  await requireOwner(tx, STAFF_MEMBER_PLANNING_RESULTS, staffMemberId);
  const shift = await findStaffMemberShift(tx, shiftId);
  if (shift?.staffMemberId !== staffMemberId) throw notFound('staffMemberShift', shiftId);
  return shift;
}

/**
 * GET /staffMembers/{id}/planningResults: the staff member's planning result per shift, for the
 * shifts their dispatching shares time with, overlapping the window; latest start first.
 */
export async function listShiftResults(
  db: Database,
  staffMemberId: string,
  window: PeriodFilter,
  page: KeysetRequest,
): Promise<KeysetPage<ShiftPlanningResult>> {
  return db.transaction(async (tx) => {
    await requireOwner(tx, STAFF_MEMBER_PLANNING_RESULTS, staffMemberId);
    const result = await results.findResult(tx, STAFF_MEMBER_PLANNING_RESULTS, staffMemberId);
    if (!result) return { items: [], total: 0, hasOlder: false, hasNewer: false };
    const shifts = await listStaffMemberShiftsDuring(
      tx,
      { ownerId: staffMemberId, ...window, during: result },
      page,
    );
    const items: ShiftPlanningResult[] = [];
    for (const shift of shifts.items) items.push(await assignmentsIn(tx, shift, result));
    return { ...shifts, items };
  });
}

/** GET /staffMembers/{id}/shifts/{shiftId}/planningResult: a shift without an assignment has none. */
export async function getShiftResult(
  db: Database,
  staffMemberId: string,
  shiftId: string,
): Promise<ShiftPlanningResult> {
  return db.transaction(async (tx) => {
    const shift = await requireShift(tx, staffMemberId, shiftId);
    return assignmentsIn(
      tx,
      shift,
      await results.findResult(tx, STAFF_MEMBER_PLANNING_RESULTS, staffMemberId),
    );
  });
}

/**
 * PUT /staffMembers/{id}/shifts/{shiftId}/planningResult: the shift's assignment becomes the staff
 * member's dispatching, as the bulk update would make it; no element removes the dispatching if
 * it shares time with the shift.
 */
export async function replaceShiftResult(
  db: Database,
  staffMemberId: string,
  shiftId: string,
  assignment: ShiftAssignmentInput | undefined,
): Promise<ShiftPlanningResult> {
  const now = new Date();
  return db.transaction(async (tx) => {
    await results.lockOwners(tx, STAFF_MEMBER_PLANNING_RESULTS, [staffMemberId]);
    const shift = await requireShift(tx, staffMemberId, shiftId);
    if (assignment) {
      checkShiftAssignment(shift, assignment);
      const { element } = assignment;
      checkWorkplaceShift(assignment, await results.shiftAt(tx, element.workplaceId, element.startDate));
      const { result } = await applyResult(tx, STAFF_MEMBER_PLANNING_RESULTS, element, 'elements[0].', now);
      return assignmentsIn(tx, shift, result);
    }
    const before = await results.findResult(tx, STAFF_MEMBER_PLANNING_RESULTS, staffMemberId, true);
    if (before && partInShift(shift, before))
      await removeResult(tx, STAFF_MEMBER_PLANNING_RESULTS, before, now);
    return { ...shift, assignments: [] };
  });
}

/**
 * DELETE /staffMembers/{id}/shifts/{shiftId}/planningResult: deletes the staff member's
 * dispatching when it shares time with the shift (404 when it does not), in every shift it spans.
 */
export async function deleteShiftResult(db: Database, staffMemberId: string, shiftId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const shift = await requireShift(tx, staffMemberId, shiftId);
    const result = await results.findResult(tx, STAFF_MEMBER_PLANNING_RESULTS, staffMemberId, true);
    if (!result || !partInShift(shift, result)) throw notFound('planningResult', shiftId);
    await removeResult(tx, STAFF_MEMBER_PLANNING_RESULTS, result, new Date());
  });
}
