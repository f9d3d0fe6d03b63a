import { v7 as uuidv7 } from 'uuid';
import type { Database, Queryable } from '../db/database.ts';
import * as orders from '../db/repositories/toolAssemblyOrderRepository.ts';
import { catalogueEvent } from '../domain/events.ts';
import {
  INITIAL_TOOL_ASSEMBLY_ORDER_STATE,
  TOOL_ASSEMBLY_ORDER_TRANSITIONS,
} from '../domain/toolAssemblyOrderStates.ts';
import { type Lifespan, NO_LIFE_TIME, NO_PLACE, type Tool, type ToolAssemblyOrder } from '../domain/tools.ts';
import { checkTransition } from '../domain/transitions.ts';
import { recordEvents } from './eventService.ts';
import { checkReference } from './referenceService.ts';
import { checkLifespan, TOOLS } from './toolService.ts';
import { found, locking, writeOnFound } from './writes.ts';

const lockToolAssemblyOrder = locking('toolAssemblyOrder', orders.findToolAssemblyOrder);

export interface ToolAssemblyOrderInput {
  toolNumber: string | null;
  toolDescription: string;
  targetWorkplaceId: string | null;
  operationId: string | null;
  storageLocation: string | null;
  lifespan: Lifespan;
}

export async function getToolAssemblyOrder(db: Queryable, id: string): Promise<ToolAssemblyOrder> {
  return found(orders.findToolAssemblyOrder(db, id), 'toolAssemblyOrder', id);
}

/**
 * Creates the order and its new tool in one transaction (emits TOOL_CREATED). The tool has no
 * site of operation yet; a new tool's remaining life is its maximum unless given.
 */
export async function createToolAssemblyOrder(
  db: Database,
  input: ToolAssemblyOrderInput,
): Promise<ToolAssemblyOrder> {
  const lifespan = { ...input.lifespan, remaining: input.lifespan.remaining ?? input.lifespan.maximum };
  checkLifespan(lifespan);
  const now = new Date();
  const tool: Tool = {
    id: uuidv7(),
    number: input.toolNumber,
    description: input.toolDescription,
    storageLocation: input.storageLocation,
    workplaceId: null,
    lifespan,
    name: null,
    identifier2: null,
    identifier3: null,
    documentUrl: null,
    group: null,
    toolClass: null,
    lifeTime: NO_LIFE_TIME,
    place: NO_PLACE,
    stateId: null,
    createdAt: now,
    updatedAt: now,
  };
  const order: ToolAssemblyOrder = {
    id: uuidv7(),
    toolId: tool.id,
    toolDescription: input.toolDescription,
    targetWorkplaceId: input.targetWorkplaceId,
    operationId: input.operationId,
    toolAssemblyOrderStateId: INITIAL_TOOL_ASSEMBLY_ORDER_STATE,
    createdAt: now,
    updatedAt: now,
  };
  await db.transaction(async (tx) => {
    await checkReference(tx, 'targetWorkplaceId', order.targetWorkplaceId, 'workplaces');
    await checkReference(tx, 'operationId', order.operationId, 'operations');
    await TOOLS.insert(tx, tool);
    await orders.insertToolAssemblyOrder(tx, order);
  });
  return order;
}

/**
 * The state command: only the transitions of the table (docs/api.md, "States and transitions");
 * the same state again is one too.
 */
export async function changeToolAssemblyOrderState(
  db: Database,
  id: string,
  requested: string,
): Promise<ToolAssemblyOrder> {
  return writeOnFound(db, lockToolAssemblyOrder(id), async (tx, before) => {
    const current = before.toolAssemblyOrderStateId;
    checkTransition(TOOL_ASSEMBLY_ORDER_TRANSITIONS, 'toolAssemblyOrder', id, current, requested, {
      sameChecked: true,
      states: 'toolAssemblyOrderState',
    });
    const after: ToolAssemblyOrder = {
      ...before,
      toolAssemblyOrderStateId: requested,
      updatedAt: new Date(),
    };
    await orders.updateToolAssemblyOrderState(tx, after);
    const event = catalogueEvent('TOOL_ASSEMBLY_ORDER_STATE_CHANGED', id, {
      toolAssemblyOrderId: id,
      toolId: after.toolId,
      currentToolAssemblyOrderState: requested,
      previousToolAssemblyOrderState: current,
    });
    await recordEvents(tx, [event], after.updatedAt);
    return after;
  });
}
