import type { ToolAssemblyOrderStateId } from '../../domain/toolAssemblyOrderStates.ts';
import {
  orderStatesOf,
  type Tool,
  type ToolStateId,
  type ToolView,
  toolStateOf,
} from '../../domain/tools.ts';
import { Conditions } from '../conditions.ts';
import { lockableFind, offsetList, rowWrites, type Table } from '../table.ts';

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
const TOOLS: Table<Row, ToolView> = {
  from: 'tools t JOIN tool_assembly_orders o ON o.tool_id = t.id',
  select: 't.*, o.id AS order_id, o.state AS order_state',
  id: 't.id',
  toItem: toTool,
};

export interface ToolFilter {
  workplaceId?: string;
  toolStateId?: ToolStateId;
  number?: string;
}

export const listTools = offsetList(TOOLS, 't.number, t.id', (filter: ToolFilter) => {
  const conditions = new Conditions().equals('t.workplace_id', filter.workplaceId);
  if (filter.toolStateId !== undefined) {
    conditions.add((at) => `o.state = ANY(${at}::text[])`, orderStatesOf(filter.toolStateId));
  }
  return conditions.equals('t.number', filter.number);
});

export const findTool = lockableFind(TOOLS);

const values = (tool: Tool) => ({
  id: tool.id,
  number: tool.number,
  description: tool.description,
  storage_location: tool.storageLocation,
  workplace_id: tool.workplaceId,
  lifespan_remaining: tool.lifespan.remaining,
  lifespan_maximum: tool.lifespan.maximum,
  lifespan_warning_limit: tool.lifespan.warningLimit,
  updated_at: tool.updatedAt,
  created_at: tool.createdAt,
});

const writes = rowWrites('tools', values);
export const insertTool = writes.insert;
export const updateTool = writes.update;
export const deleteTool = writes.delete;
