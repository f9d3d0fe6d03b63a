import { v7 as uuidv7 } from 'uuid';
import type { Database, Queryable } from '../db/database.ts';
import * as operations from '../db/repositories/operationRepository.ts';
import { findProductionOrder } from '../db/repositories/productionOrderRepository.ts';
import { AppError } from '../domain/errors.ts';
import { catalogueEvent, type NewEvent } from '../domain/events.ts';
import {
  INITIAL_OPERATION_PHASE,
  OPERATION_PHASE_TRANSITIONS,
  PHASES_NEEDING_WORKPLACE,
} from '../domain/operationPhases.ts';
import {
  OPERATION_CHARACTERISTICS,
  type Operation,
  type OperationInput,
  ownMaterial,
  type ScheduledDates,
  targetProcessingTime,
} from '../domain/operations.ts';
import { changedValues, jsonValues } from '../domain/productionOrders.ts';
import { checkTransition } from '../domain/transitions.ts';
import { recordEvents } from './eventService.ts';
import { lifecycle, primaryEvents } from './lifecycle.ts';
import { checkReference } from './referenceService.ts';
import { found, locking, writeOnFound } from './writes.ts';

const lockOperation = locking('operation', operations.findOperation);

/** The event data of OPERATION_CREATED/_UPDATED/_DELETED: the operation's characteristic properties. */
const eventData = (operation: Operation): Record<string, unknown> => ({
  operationId: operation.id,
  ...jsonValues(operation, OPERATION_CHARACTERISTICS),
  targetProcessingTime: targetProcessingTime(operation),
});

/** A new operation: the input plus, optionally, its position within the order (default: last). */
export type NewOperation = OperationInput & { sequence?: number | undefined };

export async function getOperation(db: Queryable, id: string): Promise<Operation> {
  return found(operations.findOperation(db, id), 'operation', id);
}

/** `prefix` names the operation in bulk bodies, e.g. `operations[2].`. */
async function checkReferences(tx: Queryable, input: OperationInput, prefix: string) {
  await checkReference(tx, `${prefix}productionOrderId`, input.productionOrderId, 'production_orders');
  await checkReference(tx, `${prefix}workplaceId`, input.workplaceId, 'workplaces');
  await checkReference(tx, `${prefix}workplaceGroupId`, input.workplaceGroupId, 'workplace_groups');
  for (const [index, tool] of input.productionResourcesAndTools.entries()) {
    await checkReference(tx, `${prefix}productionResourcesAndTools[${index}].toolId`, tool.toolId, 'tools');
  }
  for (const [index, workplaceId] of input.alternativeWorkplaceIds.entries()) {
    await checkReference(tx, `${prefix}alternativeWorkplaceIds[${index}]`, workplaceId, 'workplaces');
  }
  for (const [index, variant] of input.manufacturingVariants.entries()) {
    for (const [at, workplaceId] of variant.workplaceIds.entries()) {
      const field = `${prefix}manufacturingVariants[${index}].workplaceIds[${at}]`;
      await checkReference(tx, field, workplaceId, 'workplaces');
    }
  }
}

/**
 * Operations whose errors name their fields after `prefix` (in bulk bodies, e.g. `operations[2].`).
 * Their references are checked by the writes that change them (checkReferences).
 */
const operationsIn = (prefix: string) =>
  lifecycle<Operation>('operation', {
    rows: operations.operationWrites,
    events: primaryEvents('OPERATION', eventData),
    unique: (operation) => [`${prefix}number`, operation.number],
  });

const OPERATIONS = operationsIn('');

/**
 * Creates a released operation inside the caller's transaction, with its first phase record and
 * OPERATION_CREATED. Production orders create their operations through this as well.
 */
export async function insertNewOperation(
  tx: Queryable,
  input: NewOperation,
  at: Date,
  prefix = '',
): Promise<Operation> {
  const { sequence, ...properties } = input;
  await checkReferences(tx, properties, prefix);
  const operation: Operation = {
    ...properties,
    id: uuidv7(),
    sequence: sequence ?? (await operations.nextSequence(tx, input.productionOrderId)),
    operationPhaseId: INITIAL_OPERATION_PHASE,
    createdAt: at,
    updatedAt: at,
  };
  await operationsIn(prefix).insert(tx, operation);
  await operations.recordOperationPhase(tx, {
    id: uuidv7(),
    operationId: operation.id,
    operationPhaseId: operation.operationPhaseId,
    workplaceId: operation.workplaceId,
    staffMemberId: null,
    startDate: at,
    endDate: null,
  });
  return operation;
}

/** Deletes a locked operation inside the caller's transaction and emits OPERATION_DELETED. */
export async function removeOperation(tx: Queryable, operation: Operation, at: Date): Promise<void> {
  await OPERATIONS.remove(tx, operation, at);
}

export async function createOperation(db: Database, input: NewOperation): Promise<Operation> {
  return db.transaction((tx) => insertNewOperation(tx, input, new Date()));
}

/** Full replacement; a missing sequence keeps the operation's position. */
export async function replaceOperation(db: Database, id: string, input: NewOperation): Promise<Operation> {
  return OPERATIONS.replace(db, lockOperation(id), async (tx, before) => {
    const { sequence, ...properties } = input;
    const order = await findProductionOrder(tx, before.productionOrderId);
    properties.material = ownMaterial(properties.material, before.material, order?.material ?? null);
    const after: Operation = { ...before, ...properties, sequence: sequence ?? before.sequence };
    const changed = changedValues(eventData(before), eventData(after), [
      ...OPERATION_CHARACTERISTICS,
      'targetProcessingTime',
    ]);
    if (changed.length > 0) await checkReferences(tx, after, '');
    return { after, changed };
  });
}

/**
 * Sets the scheduled dates of a locked operation inside the caller's transaction (PUT
 * /productionOrders/{id}/scheduledDates); emits OPERATION_UPDATED when they change.
 */
export async function setScheduledDates(
  tx: Queryable,
  before: Operation,
  scheduledDates: ScheduledDates,
  at: Date,
): Promise<Operation> {
  const after: Operation = { ...before, scheduledDates };
  const changed = changedValues(eventData(before), eventData(after), ['scheduledDates']);
  return OPERATIONS.update(tx, before, { after, changed }, at);
}

export async function deleteOperation(db: Database, id: string): Promise<void> {
  await OPERATIONS.delete(db, lockOperation(id));
}

export interface PhaseChange {
  workplaceId?: string | undefined;
  staffMemberId?: string | undefined;
}

/**
 * The phase command (docs/api.md, "States and transitions"). A workplace given in the body becomes the operation's workplace
 * (and, being a characteristic, emits OPERATION_UPDATED beside OPERATION_PHASE_CHANGED).
 */
export async function changeOperationPhase(
  db: Database,
  id: string,
  phaseId: string,
  change: PhaseChange,
): Promise<Operation> {
  return writeOnFound(db, lockOperation(id), async (tx, before) => {
    checkTransition(OPERATION_PHASE_TRANSITIONS, 'operation', id, before.operationPhaseId, phaseId, {
      sameChecked: true,
      none: '-',
      states: 'operationPhase',
    });
    await checkReference(tx, 'workplaceId', change.workplaceId, 'workplaces');
    await checkReference(tx, 'staffMemberId', change.staffMemberId, 'staff_members');
    const workplaceId = change.workplaceId ?? before.workplaceId;
    if (workplaceId === null && PHASES_NEEDING_WORKPLACE.includes(phaseId)) {
      throw new AppError('VALIDATION_FAILED', {
        rule: 'value',
        field: 'workplaceId',
        detail: `the phase ${phaseId} needs a workplace, and the operation has none planned`,
      });
    }
    const now = new Date();
    const after: Operation = { ...before, operationPhaseId: phaseId, workplaceId, updatedAt: now };
    await operations.operationWrites.update(tx, after);
    const staffMemberId = change.staffMemberId ?? null;
    await operations.recordOperationPhase(tx, {
      id: uuidv7(),
      operationId: id,
      operationPhaseId: phaseId,
      workplaceId,
      staffMemberId,
      startDate: now,
      endDate: null,
    });
    const events: NewEvent[] = [
      catalogueEvent('OPERATION_PHASE_CHANGED', id, {
        operationId: id,
        currentOperationPhase: phaseId,
        previousOperationPhase: before.operationPhaseId,
        workplaceId,
        staffMemberId,
      }),
    ];
    if (workplaceId !== before.workplaceId) {
      events.push(...OPERATIONS.events('UPDATED', after, ['workplaceId']));
    }
    await recordEvents(tx, events, now);
    return after;
  });
}
