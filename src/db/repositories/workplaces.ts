import { isUuid } from '../../domain/ids.ts';
import type { RecordedOperatingState, Workplace, WorkplaceType } from '../../domain/workplaces.ts';
import type { Queryable } from '../database.ts';
import { history } from '../history.ts';
import { countRows, type OffsetPage, type OffsetRequest, whereClause } from '../paging.ts';

interface Row {
  id: string;
  number: string;
  description: string | null;
  is_manual_workplace: boolean;
  workplace_type: WorkplaceType;
  erp_context_id: string | null;
  operating_state_id: string;
  capacity_group_id: string;
  production_line_id: string | null;
  created_at: Date;
  updated_at: Date;
}

const toWorkplace = (row: Row): Workplace => ({
  id: row.id,
  number: row.number,
  description: row.description,
  isManualWorkplace: row.is_manual_workplace,
  workplaceType: row.workplace_type,
  erpContextId: row.erp_context_id,
  operatingStateId: row.operating_state_id,
  capacityGroupId: row.capacity_group_id,
  productionLineId: row.production_line_id,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export interface WorkplaceFilter {
  workplaceGroupNumber?: string;
  workplaceNumber?: string;
  workplaceType?: WorkplaceType;
  erpContextId?: string;
  /** Its capacity group or its production line. */
  workplaceGroupId?: string;
}

export async function listWorkplaces(
  db: Queryable,
  filter: WorkplaceFilter,
  page: OffsetRequest,
): Promise<OffsetPage<Workplace>> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.workplaceNumber !== undefined) {
    params.push(filter.workplaceNumber);
    where.push(`w.number = $${params.length}`);
  }
  if (filter.workplaceType !== undefined) {
    params.push(filter.workplaceType);
    where.push(`w.workplace_type = $${params.length}`);
  }
  if (filter.erpContextId !== undefined) {
    params.push(filter.erpContextId);
    where.push(`w.erp_context_id = $${params.length}`);
  }
  if (filter.workplaceGroupId !== undefined) {
    params.push(filter.workplaceGroupId);
    where.push(`(w.capacity_group_id = $${params.length} OR w.production_line_id = $${params.length})`);
  }
  if (filter.workplaceGroupNumber !== undefined) {
    // A workplace belongs to a group as its capacity group or as its production line.
    params.push(filter.workplaceGroupNumber);
    where.push(`EXISTS (SELECT 1 FROM workplace_groups g WHERE g.number = $${params.length}
      AND (g.id = w.capacity_group_id OR g.id = w.production_line_id))`);
  }
  const rows = await db.query<Row>(
    `SELECT w.* FROM workplaces w ${whereClause(where)} ORDER BY w.number, w.id
     LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, page.limit, page.offset],
  );
  return { items: rows.map(toWorkplace), total: await countRows(db, 'workplaces w', where, params) };
}

/** The workplaces with these ids, in no particular order; unknown ids are left out. */
export async function findWorkplaces(db: Queryable, ids: readonly string[]): Promise<Workplace[]> {
  if (ids.length === 0) return [];
  const rows = await db.query<Row>('SELECT * FROM workplaces WHERE id = ANY($1::uuid[])', [ids]);
  return rows.map(toWorkplace);
}

export async function findWorkplace(
  db: Queryable,
  id: string,
  forUpdate = false,
): Promise<Workplace | undefined> {
  if (!isUuid(id)) return undefined;
  const rows = await db.query<Row>(
    `SELECT * FROM workplaces WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] === undefined ? undefined : toWorkplace(rows[0]);
}

export async function insertWorkplace(db: Queryable, workplace: Workplace): Promise<void> {
  await db.query(
    `INSERT INTO workplaces (id, number, description, is_manual_workplace, operating_state_id,
       capacity_group_id, production_line_id, created_at, updated_at, workplace_type, erp_context_id)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
    [
      workplace.id,
      workplace.number,
      workplace.description,
      workplace.isManualWorkplace,
      workplace.operatingStateId,
      workplace.capacityGroupId,
      workplace.productionLineId,
      workplace.createdAt,
      workplace.updatedAt,
      workplace.workplaceType,
      workplace.erpContextId,
    ],
  );
}

export async function updateWorkplace(db: Queryable, workplace: Workplace): Promise<void> {
  await db.query(
    `UPDATE workplaces SET number = $2, description = $3, is_manual_workplace = $4, operating_state_id = $5,
       capacity_group_id = $6, production_line_id = $7, updated_at = $8, workplace_type = $9, erp_context_id = $10
     WHERE id = $1`,
    [
      workplace.id,
      workplace.number,
      workplace.description,
      workplace.isManualWorkplace,
      workplace.operatingStateId,
      workplace.capacityGroupId,
      workplace.productionLineId,
      workplace.updatedAt,
      workplace.workplaceType,
      workplace.erpContextId,
    ],
  );
}

export async function deleteWorkplace(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM workplaces WHERE id = $1', [id]);
}

interface RecordRow {
  id: string;
  workplace_id: string;
  operating_state_id: string;
  start_date: Date;
  end_date: Date | null;
}

const toRecord = (row: RecordRow): RecordedOperatingState => ({
  id: row.id,
  workplaceId: row.workplace_id,
  operatingStateId: row.operating_state_id,
  startDate: row.start_date,
  endDate: row.end_date,
});

/** Closes the open record of the workplace (if any) and opens the new one. */
export async function recordOperatingState(db: Queryable, record: RecordedOperatingState): Promise<void> {
  await db.query(
    'UPDATE recorded_operating_states SET end_date = $2 WHERE workplace_id = $1 AND end_date IS NULL',
    [record.workplaceId, record.startDate],
  );
  await db.query(
    `INSERT INTO recorded_operating_states (id, workplace_id, operating_state_id, start_date, end_date)
     VALUES ($1, $2, $3, $4, NULL)`,
    [record.id, record.workplaceId, record.operatingStateId, record.startDate],
  );
}

const operatingStates = history('recorded_operating_states', 'workplace_id', toRecord);
export const listRecordedOperatingStates = operatingStates.list;
export const findRecordedOperatingState = operatingStates.find;
