import type { Database } from '../db/database.ts';
import * as maintenances from '../db/repositories/scheduledMaintenanceRepository.ts';
import { catalogueEvent } from '../domain/events.ts';
import {
  SCHEDULED_MAINTENANCE_CHARACTERISTICS,
  type ScheduledMaintenance,
  type ScheduledMaintenanceInput,
} from '../domain/scheduledMaintenances.ts';
import { checkPeriod } from '../domain/shifts.ts';
import { changedProperties } from '../domain/workplaces.ts';
import { lifecycle, newItem, withChanged } from './lifecycle.ts';
import { lockWorkplace } from './shiftService.ts';
import { getWorkplace } from './workplaceService.ts';
import { gettingBelow, lockingBelow } from './writes.ts';

const lockTask = lockingBelow('scheduledMaintenance', lockWorkplace, maintenances.findScheduledMaintenance);

/** Event data: the task's characteristic properties with its id (times as ISO text, compared by value). */
function eventData(task: ScheduledMaintenance) {
  return {
    scheduledMaintenanceId: task.id,
    workplaceId: task.workplaceId,
    description: task.description,
    maintenanceType: task.maintenanceType,
    startDate: task.startDate.toISOString(),
    endDate: task.endDate.toISOString(),
  };
}

const MAINTENANCES = lifecycle<ScheduledMaintenance>('scheduledMaintenance', {
  rows: maintenances.scheduledMaintenanceWrites,
  /**
   * SCHEDULED_MAINTENANCE_* about the workplace (docs/events.md, "Catalogue"). No RESOURCES_UPDATED
   * beside it: that event reports primary resources, and with objectType WORKPLACE it would say the
   * workplace itself was created or deleted.
   */
  events: (change, task, changed) => [
    catalogueEvent(
      `SCHEDULED_MAINTENANCE_${change}`,
      task.workplaceId,
      withChanged(eventData(task), changed),
    ),
  ],
});

/** A maintenance task of the workplace: 404 when there is no such workplace, or no such task of it. */
export const getScheduledMaintenance = gettingBelow(
  'scheduledMaintenance',
  getWorkplace,
  maintenances.findScheduledMaintenance,
);

export async function createScheduledMaintenance(
  db: Database,
  workplaceId: string,
  input: ScheduledMaintenanceInput,
): Promise<ScheduledMaintenance> {
  checkPeriod(input);
  return db.transaction(async (tx) => {
    await lockWorkplace(tx, workplaceId);
    return MAINTENANCES.insert(tx, newItem({ ...input, workplaceId }, new Date()));
  });
}

export async function replaceScheduledMaintenance(
  db: Database,
  workplaceId: string,
  id: string,
  input: ScheduledMaintenanceInput,
): Promise<ScheduledMaintenance> {
  checkPeriod(input);
  return MAINTENANCES.replace(db, lockTask(workplaceId, id), (_tx, before) => {
    const after: ScheduledMaintenance = { ...before, ...input };
    return {
      after,
      changed: changedProperties(eventData(before), eventData(after), SCHEDULED_MAINTENANCE_CHARACTERISTICS),
    };
  });
}

export async function deleteScheduledMaintenance(
  db: Database,
  workplaceId: string,
  id: string,
): Promise<void> {
  await MAINTENANCES.delete(db, lockTask(workplaceId, id));
}
