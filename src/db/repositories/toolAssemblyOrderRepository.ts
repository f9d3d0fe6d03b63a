import type { ToolAssemblyOrderStateId } from '../../domain/toolAssemblyOrderStates.ts';
import type { ToolAssemblyOrder } from '../../domain/tools.ts';
import { Conditions } from '../conditions.ts';
import type { Queryable } from '../database.ts';
import { insertRow, lockableFind, offsetList, type Table, updateById } from '../table.ts';

interface Row {
  id: string;
  tool_id: string | null;
  tool_description: string;
  target_workplace_id: string | null;
  operation_id: string | null;
  state: ToolAssemblyOrderStateId;
  created_at: Date;
  updated_at: Date;
}

const toOrder = (row: Row): ToolAssemblyOrder => ({
  id: row.id,
  toolId: row.tool_id,
  toolDescription: row.tool_description,
  targetWorkplaceId: row.target_workplace_id,
  operationId: row.operation_id,
  toolAssemblyOrderStateId: row.state,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export interface ToolAssemblyOrderFilter {
  toolAssemblyOrderStateId?: ToolAssemblyOrderStateId;
  toolId?: string;
}

const ORDERS: Table<Row, ToolAssemblyOrder> = { from: 'tool_assembly_orders', toItem: toOrder };

export const listToolAssemblyOrders = offsetList(
  ORDERS,
  'created_at, id',
  (filter: ToolAssemblyOrderFilter) =>
    new Conditions().equals('state', filter.toolAssemblyOrderStateId).equals('tool_id', filter.toolId),
);

export const findToolAssemblyOrder = lockableFind(ORDERS);

export async function insertToolAssemblyOrder(db: Queryable, order: ToolAssemblyOrder): Promise<void> {
  await insertRow(db, 'tool_assembly_orders', {
    id: order.id,
    tool_id: order.toolId,
    tool_description: order.toolDescription,
    target_workplace_id: order.targetWorkplaceId,
    operation_id: order.operationId,
    state: order.toolAssemblyOrderStateId,
    created_at: order.createdAt,
    updated_at: order.updatedAt,
  });
}

export async function updateToolAssemblyOrderState(db: Queryable, order: ToolAssemblyOrder): Promise<void> {
  await updateById(db, 'tool_assembly_orders', order.id, {
    state: order.toolAssemblyOrderStateId,
    updated_at: order.updatedAt,
  });
}
