// Maintenance tasks planned for a workplace.

export interface ScheduledMaintenanceInput {
  description: string;
  /** Free text of the planning system (e.g. INSPECTION); the bridge gives it no meaning. */
  maintenanceType: string | null;
  startDate: Date;
  endDate: Date;
}

export interface ScheduledMaintenance extends ScheduledMaintenanceInput {
  id: string;
  workplaceId: string;
  createdAt: Date;
  updatedAt: Date;
}
