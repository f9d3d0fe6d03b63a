import type { Database, Queryable } from '../db/database.ts';
import { operationsOfOrders } from '../db/repositories/operationRepository.ts';
import * as orders from '../db/repositories/productionOrderRepository.ts';
import { AppError } from '../domain/errors.ts';
import type { Operation, ScheduledDates } from '../domain/operations.ts';
import {
  changedValues,
  jsonValues,
  type OrderScheduledDates,
  PRODUCTION_ORDER_CHARACTERISTICS,
  type ProductionOrder,
  type ProductionOrderInput,
  withDefaultEndDate,
} from '../domain/productionOrders.ts';
import { lifecycle, newItem, primaryEvents } from './lifecycle.ts';
import {
  insertNewOperation,
  type NewOperation,
  removeOperation,
  setScheduledDates,
} from './operationService.ts';
import { found, locking, writeOnFound } from './writes.ts';

const lockProductionOrder = locking('productionOrder', orders.findProductionOrder);

/** The event data of PRODUCTION_ORDER_CREATED/_UPDATED/_DELETED: the order's characteristic properties. */
const eventData = (order: ProductionOrder) => ({
  productionOrderId: order.id,
  ...jsonValues(order, PRODUCTION_ORDER_CHARACTERISTICS),
});

const ORDERS = lifecycle<ProductionOrder>('productionOrder', {
  rows: orders.productionOrderWrites,
  events: primaryEvents('PRODUCTION_ORDER', eventData),
  unique: (order) => ['number', order.number],
});

export async function getProductionOrder(db: Queryable, id: string): Promise<ProductionOrder> {
  return found(orders.findProductionOrder(db, id), 'productionOrder', id);
}

/** An operation created with its order: the order's id is not known to the client yet. */
export type NewOrderOperation = Omit<NewOperation, 'productionOrderId'>;

/** Creates the order and its operations (in the given order unless they say their sequence) at once. */
export async function createProductionOrder(
  db: Database,
  input: ProductionOrderInput,
  newOperations: readonly NewOrderOperation[] = [],
): Promise<{ order: ProductionOrder; operations: Operation[] }> {
  const now = new Date();
  const order: ProductionOrder = newItem(
    { ...withDefaultEndDate(input), scheduledStartDate: null, scheduledEndDate: null },
    now,
  );
  return db.transaction(async (tx) => {
    await ORDERS.insert(tx, order);
    const created: Operation[] = [];
    for (const [index, operation] of newOperations.entries()) {
      created.push(
        await insertNewOperation(
          tx,
          { ...operation, productionOrderId: order.id, sequence: operation.sequence ?? index + 1 },
          now,
          `operations[${index}].`,
        ),
      );
    }
    created.sort((a, b) => a.sequence - b.sequence);
    return { order, operations: created };
  });
}

export async function replaceProductionOrder(
  db: Database,
  id: string,
  input: ProductionOrderInput,
): Promise<ProductionOrder> {
  return ORDERS.replace(db, lockProductionOrder(id), (_tx, before) => {
    const after: ProductionOrder = { ...before, ...withDefaultEndDate(input) };
    return { after, changed: changedValues(before, after, PRODUCTION_ORDER_CHARACTERISTICS) };
  });
}

/** Deletes the order with its operations; each operation emits OPERATION_DELETED. */
export async function deleteProductionOrder(db: Database, id: string): Promise<void> {
  await writeOnFound(db, lockProductionOrder(id), async (tx, order) => {
    const now = new Date();
    for (const operation of await operationsOfOrders(tx, [id], true))
      await removeOperation(tx, operation, now);
    await ORDERS.remove(tx, order, now);
  });
}

/** The scheduling result of an order: its own dates and those of some of its operations. */
export interface SchedulingResult extends OrderScheduledDates {
  elements: { operationId: string; scheduledDates: ScheduledDates }[];
}

/**
 * Stores a scheduling result in one transaction: the order's dates (PRODUCTION_ORDER_UPDATED when
 * they change) and each named operation's (OPERATION_UPDATED when they change); operations not
 * named keep theirs. An operation of another order is a 400 naming its element.
 */
export async function replaceScheduledDates(
  db: Database,
  id: string,
  result: SchedulingResult,
): Promise<{ order: ProductionOrder; operations: Operation[] }> {
  return writeOnFound(db, lockProductionOrder(id), async (tx, before) => {
    const now = new Date();
    const own = await operationsOfOrders(tx, [id], true);
    const byId = new Map(own.map((operation) => [operation.id, operation]));
    for (const [index, element] of result.elements.entries()) {
      const operation = byId.get(element.operationId);
      if (!operation) {
        throw new AppError('VALIDATION_FAILED', {
          rule: 'value',
          field: `elements[${index}].operationId`,
          detail: 'must name an operation of this production order',
        });
      }
      byId.set(operation.id, await setScheduledDates(tx, operation, element.scheduledDates, now));
    }
    const after: ProductionOrder = {
      ...before,
      scheduledStartDate: result.scheduledStartDate,
      scheduledEndDate: result.scheduledEndDate,
    };
    const changed = changedValues(before, after, PRODUCTION_ORDER_CHARACTERISTICS);
    const order = await ORDERS.update(tx, before, { after, changed }, now);
    return { order, operations: own.map((operation) => byId.get(operation.id) as Operation) };
  });
}
