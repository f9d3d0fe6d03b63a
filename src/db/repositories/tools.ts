import { isUuid } from '../../domain/ids.ts';
import type { ToolAssemblyOrderStateId } from '../../domain/toolAssemblyOrderStates.ts';
import {
  orderStatesOf,
  type Tool,
  type ToolStateId,
  type ToolView,
  toolStateOf,
} from '../../domain/tools.ts';
import type { Queryable } from '../database.ts';
import { countRows, type OffsetPage, type OffsetRequest, whereClause } from '../paging.ts';

interface Row {
  id: string;
  number: string | null;
  description: string | null;
  storage_location: string | null;
  workplace_id: string | null;
  // bigint arrives as text from the drivers.
  lifespan_remaining: string | number | null;
  lifespan_maximum: string | number | null;
  lifespan_warning_limit: string | number | null;
  created_at: Date;
  updated_at: Date;
  order_id: string;
  order_state: ToolAssemblyOrderStateId;
}

const toMilliseconds = (value: string | number | null) => (value === null ? null : Number(value));

const toTool = (row: Row): ToolView => ({
  id: row.id,
  number: row.number,
  description: row.description,
  storageLocation: row.storage_location,
  workplaceId: row.workplace_id,
  lifespan: {
    remaining: toMilliseconds(row.lifespan_remaining),
    maximum: toMilliseconds(row.lifespan_maximum),
    warningLimit: toMilliseconds(row.lifespan_warning_limit),
  },
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  toolAssemblyOrderId: row.order_id,
  toolStateId: toolStateOf(row.order_state),
});

// Every tool has its assembly order (they are created together), which gives the tool its state.
const FROM = 'tools t JOIN tool_assembly_orders o ON o.tool_id = t.id';
const SELECT = `SELECT t.*, o.id AS order_id, o.state AS order_state FROM ${FROM}`;

export interface ToolFilter {
  workplaceId?: string;
  toolStateId?: ToolStateId;
  number?: string;
}

export async function listTools(
  db: Queryable,
  filter: ToolFilter,
  page: OffsetRequest,
): Promise<OffsetPage<ToolView>> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.workplaceId !== undefined) {
    params.push(filter.workplaceId);
    where.push(`t.workplace_id = $${params.length}`);
  }
  if (filter.toolStateId !== undefined) {
    params.push(orderStatesOf(filter.toolStateId));
    where.push(`o.state = ANY($${params.length}::text[])`);
  }
  if (filter.number !== undefined) {
    params.push(filter.number);
    where.push(`t.number = $${params.length}`);
  }
  const rows = await db.query<Row>(
    `${SELECT} ${whereClause(where)} ORDER BY t.number, t.id
     LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, page.limit, page.offset],
  );
  return { items: rows.map(toTool), total: await countRows(db, FROM, where, params) };
}

export async function findTool(db: Queryable, id: string, forUpdate = false): Promise<ToolView | undefined> {
  if (!isUuid(id)) return undefined;
  const rows = await db.query<Row>(`${SELECT} WHERE t.id = $1${forUpdate ? ' FOR UPDATE' : ''}`, [id]);
  return rows[0] === undefined ? undefined : toTool(rows[0]);
}

const columns = (tool: Tool) => [
  tool.id,
  tool.number,
  tool.description,
  tool.storageLocation,
  tool.workplaceId,
  tool.lifespan.remaining,
  tool.lifespan.maximum,
  tool.lifespan.warningLimit,
  tool.updatedAt,
];

export async function insertTool(db: Queryable, tool: Tool): Promise<void> {
  await db.query(
    `INSERT INTO tools (id, number, description, storage_location, workplace_id, lifespan_remaining,
       lifespan_maximum, lifespan_warning_limit, updated_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
    [...columns(tool), tool.createdAt],
  );
}

export async function updateTool(db: Queryable, tool: Tool): Promise<void> {
  await db.query(
    `UPDATE tools SET number = $2, description = $3, storage_location = $4, workplace_id = $5,
       lifespan_remaining = $6, lifespan_maximum = $7, lifespan_warning_limit = $8, updated_at = $9
     WHERE id = $1`,
    columns(tool),
  );
}

export async function deleteTool(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM tools WHERE id = $1', [id]);
}
