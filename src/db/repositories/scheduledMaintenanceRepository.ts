import type { ScheduledMaintenance } from '../../domain/scheduledMaintenances.ts';
import { ownedFind, ownedPeriodList, rowWrites, type Table } from '../table.ts';

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

const MAINTENANCES: Table<Row, ScheduledMaintenance> = {
  from: 'scheduled_maintenances',
  toItem: toMaintenance,
};

/** A workplace's tasks that overlap the period, by start. */
export const listScheduledMaintenances = ownedPeriodList(MAINTENANCES, 'workplace_id', 'start_date, id');

export const findScheduledMaintenance = ownedFind(MAINTENANCES, 'workplace_id');

export const scheduledMaintenanceWrites = rowWrites<ScheduledMaintenance>()(
  'scheduled_maintenances',
  'id workplaceId description maintenanceType startDate endDate createdAt updatedAt',
  { fixed: ['workplace_id', 'created_at'] },
);
