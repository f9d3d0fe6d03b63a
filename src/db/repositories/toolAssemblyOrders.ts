import { isUuid } from '../../domain/ids.ts';
import type { ToolAssemblyOrderStateId } from '../../domain/toolAssemblyOrderStates.ts';
import type { ToolAssemblyOrder } from '../../domain/tools.ts';
import type { Queryable } from '../database.ts';
import { countRows, type OffsetPage, type OffsetRequest, whereClause } from '../paging.ts';

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

export async function listToolAssemblyOrders(
  db: Queryable,
  filter: ToolAssemblyOrderFilter,
  page: OffsetRequest,
): Promise<OffsetPage<ToolAssemblyOrder>> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.toolAssemblyOrderStateId !== undefined) {
    params.push(filter.toolAssemblyOrderStateId);
    where.push(`state = $${params.length}`);
  }
  if (filter.toolId !== undefined) {
    params.push(filter.toolId);
    where.push(`tool_id = $${params.length}`);
  }
  const rows = await db.query<Row>(
    `SELECT * FROM tool_assembly_orders ${whereClause(where)} ORDER BY created_at, id
     LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, page.limit, page.offset],
  );
  return { items: rows.map(toOrder), total: await countRows(db, 'tool_assembly_orders', where, params) };
}

export async function findToolAssemblyOrder(
  db: Queryable,
  id: string,
  forUpdate = false,
): Promise<ToolAssemblyOrder | undefined> {
  if (!isUuid(id)) return undefined;
  const rows = await db.query<Row>(
    `SELECT * FROM tool_assembly_orders WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] === undefined ? undefined : toOrder(rows[0]);
}

export async function insertToolAssemblyOrder(db: Queryable, order: ToolAssemblyOrder): Promise<void> {
  await db.query(
    `INSERT INTO tool_assembly_orders (id, tool_id, tool_description, target_workplace_id, operation_id,
       state, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      order.id,
      order.toolId,
      order.toolDescription,
      order.targetWorkplaceId,
      order.operationId,
      order.toolAssemblyOrderStateId,
      order.createdAt,
      order.updatedAt,
    ],
  );
}

export async function updateToolAssemblyOrderState(db: Queryable, order: ToolAssemblyOrder): Promise<void> {
  await db.query('UPDATE tool_assembly_orders SET state = $2, updated_at = $3 WHERE id = $1', [
    order.id,
    order.toolAssemblyOrderStateId,
    order.updatedAt,
  ]);
}
