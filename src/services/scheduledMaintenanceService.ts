import * as maintenances from '../db/repositories/scheduledMaintenanceRepository.ts';
import {
  SCHEDULED_MAINTENANCE_CHARACTERISTICS,
  type ScheduledMaintenance,
  type ScheduledMaintenanceInput,
} from '../domain/scheduledMaintenances.ts';
import { checkPeriod } from '../domain/shifts.ts';
import { changedProperties } from '../domain/workplaces.ts';
import { newItem, ownedLifecycle, ownerEvents } from './lifecycle.ts';
import { lockWorkplace } from './shiftService.ts';
import { getWorkplace } from './workplaceService.ts';

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

/** A workplace's maintenance tasks: 404 when there is no such workplace, or no such task of it. */
export const scheduledMaintenances = ownedLifecycle<ScheduledMaintenance, ScheduledMaintenanceInput>(
  'scheduledMaintenance',
  {
    owner: { get: getWorkplace, lock: lockWorkplace },
    find: maintenances.findScheduledMaintenance,
    rows: maintenances.scheduledMaintenanceWrites,
    /**
     * SCHEDULED_MAINTENANCE_* about the workplace (docs/events.md, "Catalogue"). No RESOURCES_UPDATED
     * beside it: that event reports primary resources, and with objectType WORKPLACE it would say the
     * workplace itself was created or deleted.
     */
    events: ownerEvents('SCHEDULED_MAINTENANCE', (task) => task.workplaceId, eventData),
    checkInput: checkPeriod,
    create: (input, workplaceId, at) => newItem({ ...input, workplaceId }, at),
    changed: (before, after) =>
      changedProperties(eventData(before), eventData(after), SCHEDULED_MAINTENANCE_CHARACTERISTICS),
  },
);
