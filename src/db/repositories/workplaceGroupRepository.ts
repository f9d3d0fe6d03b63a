import type { WorkplaceGroup, WorkplaceGroupType } from '../../domain/workplaces.ts';
import { Conditions } from '../conditions.ts';
import type { Queryable } from '../database.ts';
import { countRows } from '../paging.ts';
import { batchFind, lockableFind, offsetList, rowWrites, type Table } from '../table.ts';

interface Row {
  id: string;
  number: string;
  description: string | null;
  type: WorkplaceGroupType;
  erp_context_id: string | null;
  created_at: Date;
  updated_at: Date;
}

const toGroup = (row: Row): WorkplaceGroup => ({
  id: row.id,
  number: row.number,
  description: row.description,
  type: row.type,
  erpContextId: row.erp_context_id,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** A group as `to_jsonb(workplace_groups)` gives it: the row's columns, times as text. */
export const groupFromJson = (
  json: Row & { created_at: Date | string; updated_at: Date | string },
): WorkplaceGroup =>
  toGroup({ ...json, created_at: new Date(json.created_at), updated_at: new Date(json.updated_at) });

export interface WorkplaceGroupFilter {
  type?: WorkplaceGroupType;
}

const GROUPS: Table<Row, WorkplaceGroup> = { from: 'workplace_groups', toItem: toGroup };

export const listWorkplaceGroups = offsetList(GROUPS, 'number, id', (filter: WorkplaceGroupFilter) =>
  new Conditions().equals('type', filter.type),
);

export const findWorkplaceGroups = batchFind(GROUPS);

export const findWorkplaceGroup = lockableFind(GROUPS);

export const workplaceGroupWrites = rowWrites<WorkplaceGroup>()(
  'workplace_groups',
  'id number description type erpContextId createdAt updatedAt',
);

/** How many workplaces use the group in the role given (to refuse a type change that breaks them). */
export async function countWorkplacesInGroup(
  db: Queryable,
  id: string,
  role: WorkplaceGroupType,
): Promise<number> {
  const column = role === 'CAPACITY_GROUP' ? 'capacity_group_id' : 'production_line_id';
  return countRows(db, 'workplaces', [`${column} = $1`], [id]);
}
