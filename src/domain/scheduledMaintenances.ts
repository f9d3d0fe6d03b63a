// Maintenance tasks planned for a workplace.
import type { Stored } from './stored.ts';

export interface ScheduledMaintenanceInput {
  description: string;
  /** Free text of the planning system (e.g. INSPECTION); the bridge gives it no meaning. */
  maintenanceType: string | null;
  startDate: Date;
  endDate: Date;
}

export interface ScheduledMaintenance extends ScheduledMaintenanceInput, Stored {
  workplaceId: string;
}

/** Changes of these emit SCHEDULED_MAINTENANCE_UPDATED. */
export const SCHEDULED_MAINTENANCE_CHARACTERISTICS = [
  'description',
  'maintenanceType',
  'startDate',
  'endDate',
] as const;
