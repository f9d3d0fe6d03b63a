import { isUuid } from '../../domain/ids.ts';
import type { WorkplaceGroup, WorkplaceGroupType } from '../../domain/workplaces.ts';
import type { Queryable } from '../database.ts';
import { countRows, type OffsetPage, type OffsetRequest, whereClause } from '../paging.ts';

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

export interface WorkplaceGroupFilter {
  type?: WorkplaceGroupType;
}

export async function listWorkplaceGroups(
  db: Queryable,
  filter: WorkplaceGroupFilter,
  page: OffsetRequest,
): Promise<OffsetPage<WorkplaceGroup>> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.type !== undefined) {
    params.push(filter.type);
    where.push(`type = $${params.length}`);
  }
  const rows = await db.query<Row>(
    `SELECT * FROM workplace_groups ${whereClause(where)} ORDER BY number, id
     LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, page.limit, page.offset],
  );
  return { items: rows.map(toGroup), total: await countRows(db, 'workplace_groups', where, params) };
}

export async function findWorkplaceGroups(db: Queryable, ids: readonly string[]): Promise<WorkplaceGroup[]> {
  if (ids.length === 0) return [];
  const rows = await db.query<Row>('SELECT * FROM workplace_groups WHERE id = ANY($1::uuid[])', [ids]);
  return rows.map(toGroup);
}

export async function findWorkplaceGroup(
  db: Queryable,
  id: string,
  forUpdate = false,
): Promise<WorkplaceGroup | undefined> {
  if (!isUuid(id)) return undefined;
  const rows = await db.query<Row>(
    `SELECT * FROM workplace_groups WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] === undefined ? undefined : toGroup(rows[0]);
}

export async function insertWorkplaceGroup(db: Queryable, group: WorkplaceGroup): Promise<void> {
  await db.query(
    `INSERT INTO workplace_groups (id, number, description, type, erp_context_id, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      group.id,
      group.number,
      group.description,
      group.type,
      group.erpContextId,
      group.createdAt,
      group.updatedAt,
    ],
  );
}

export async function updateWorkplaceGroup(db: Queryable, group: WorkplaceGroup): Promise<void> {
  await db.query(
    `UPDATE workplace_groups SET number = $2, description = $3, type = $4, erp_context_id = $5, updated_at = $6
     WHERE id = $1`,
    [group.id, group.number, group.description, group.type, group.erpContextId, group.updatedAt],
  );
}

export async function deleteWorkplaceGroup(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM workplace_groups WHERE id = $1', [id]);
}

/** How many workplaces use the group in the role given (to refuse a type change that breaks them). */
export async function countWorkplacesInGroup(
  db: Queryable,
  id: string,
  role: WorkplaceGroupType,
): Promise<number> {
  const column = role === 'CAPACITY_GROUP' ? 'capacity_group_id' : 'production_line_id';
  return countRows(db, 'workplaces', [`${column} = $1`], [id]);
}
