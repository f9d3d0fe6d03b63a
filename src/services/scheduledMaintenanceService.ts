import { v7 as uuidv7 } from 'uuid';
import type { Database } from '../db/database.ts';
import * as maintenances from '../db/repositories/scheduledMaintenanceRepository.ts';
import { type ChangeType, catalogueEvent, type NewEvent } from '../domain/events.ts';
import type { ScheduledMaintenance, ScheduledMaintenanceInput } from '../domain/scheduledMaintenances.ts';
import { checkPeriod } from '../domain/shifts.ts';
import { changedProperties } from '../domain/workplaces.ts';
import { recordEvents } from './eventService.ts';
import { lockWorkplace } from './shiftService.ts';
import { getWorkplace } from './workplaceService.ts';
import { gettingBelow, lockingBelow, writeOnFound } from './writes.ts';

const lockTask = lockingBelow('scheduledMaintenance', lockWorkplace, maintenances.findScheduledMaintenance);

const CHARACTERISTICS = ['description', 'maintenanceType', 'startDate', 'endDate'] as const;

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

/**
 * SCHEDULED_MAINTENANCE_* about the workplace (docs/events.md, "Catalogue"). No RESOURCES_UPDATED beside it: that
 * event reports primary resources, and with objectType WORKPLACE it would say the workplace
 * itself was created or deleted.
 */
function maintenanceEvent(change: ChangeType, task: ScheduledMaintenance, changed?: string[]): NewEvent[] {
  return [
    catalogueEvent(`SCHEDULED_MAINTENANCE_${change}`, task.workplaceId, {
      ...eventData(task),
      ...(changed ? { changedProperties: changed } : {}),
    }),
  ];
}

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
    const now = new Date();
    const task: ScheduledMaintenance = {
      ...input,
      id: uuidv7(),
      workplaceId,
      createdAt: now,
      updatedAt: now,
    };
    await maintenances.insertScheduledMaintenance(tx, task);
    await recordEvents(tx, maintenanceEvent('CREATED', task), now);
    return task;
  });
}

export async function replaceScheduledMaintenance(
  db: Database,
  workplaceId: string,
  id: string,
  input: ScheduledMaintenanceInput,
): Promise<ScheduledMaintenance> {
  checkPeriod(input);
  return writeOnFound(db, lockTask(workplaceId, id), async (tx, before) => {
    const after: ScheduledMaintenance = { ...before, ...input };
    const changed = changedProperties(eventData(before), eventData(after), CHARACTERISTICS);
    if (changed.length === 0) return before;
    after.updatedAt = new Date();
    await maintenances.updateScheduledMaintenance(tx, after);
    await recordEvents(tx, maintenanceEvent('UPDATED', after, changed), after.updatedAt);
    return after;
  });
}

export async function deleteScheduledMaintenance(
  db: Database,
  workplaceId: string,
  id: string,
): Promise<void> {
  await writeOnFound(db, lockTask(workplaceId, id), async (tx, task) => {
    await maintenances.deleteScheduledMaintenance(tx, id);
    await recordEvents(tx, maintenanceEvent('DELETED', task), new Date());
  });
}
