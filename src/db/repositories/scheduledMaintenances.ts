import { isUuid } from '../../domain/ids.ts';
import type { ScheduledMaintenance } from '../../domain/scheduledMaintenances.ts';
import type { Queryable } from '../database.ts';
import {
  addPeriodConditions,
  countRows,
  type OffsetPage,
  type OffsetRequest,
  type PeriodFilter,
  whereClause,
} from '../paging.ts';

interface Row {
  id: string;
  workplace_id: string;
  description: string;
  maintenance_type: string | null;
  start_date: Date;
  end_date: Date;
  created_at: Date;
  updated_at: Date;
}

const toMaintenance = (row: Row): ScheduledMaintenance => ({
  id: row.id,
  workplaceId: row.workplace_id,
  description: row.description,
  maintenanceType: row.maintenance_type,
  startDate: row.start_date,
  endDate: row.end_date,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export async function listScheduledMaintenances(
  db: Queryable,
  workplaceId: string,
  filter: PeriodFilter,
  page: OffsetRequest,
): Promise<OffsetPage<ScheduledMaintenance>> {
  const where = ['workplace_id = $1'];
  const params: unknown[] = [workplaceId];
  addPeriodConditions(filter, where, params);
  const rows = await db.query<Row>(
    `SELECT * FROM scheduled_maintenances ${whereClause(where)} ORDER BY start_date, id
     LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, page.limit, page.offset],
  );
  return {
    items: rows.map(toMaintenance),
    total: await countRows(db, 'scheduled_maintenances', where, params),
  };
}

export async function findScheduledMaintenance(
  db: Queryable,
  workplaceId: string,
  id: string,
  forUpdate = false,
): Promise<ScheduledMaintenance | undefined> {
  if (!isUuid(id)) return undefined;
  const rows = await db.query<Row>(
    `SELECT * FROM scheduled_maintenances WHERE workplace_id = $1 AND id = $2${forUpdate ? ' FOR UPDATE' : ''}`,
    [workplaceId, id],
  );
  return rows[0] === undefined ? undefined : toMaintenance(rows[0]);
}

export async function insertScheduledMaintenance(db: Queryable, task: ScheduledMaintenance): Promise<void> {
  await db.query(
    `INSERT INTO scheduled_maintenances (id, workplace_id, description, maintenance_type, start_date, end_date,
       created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      task.id,
      task.workplaceId,
      task.description,
      task.maintenanceType,
      task.startDate,
      task.endDate,
      task.createdAt,
      task.updatedAt,
    ],
  );
}

export async function updateScheduledMaintenance(db: Queryable, task: ScheduledMaintenance): Promise<void> {
  await db.query(
    `UPDATE scheduled_maintenances SET description = $2, maintenance_type = $3, start_date = $4, end_date = $5,
       updated_at = $6
     WHERE id = $1`,
    [task.id, task.description, task.maintenanceType, task.startDate, task.endDate, task.updatedAt],
  );
}

export async function deleteScheduledMaintenance(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM scheduled_maintenances WHERE id = $1', [id]);
}
