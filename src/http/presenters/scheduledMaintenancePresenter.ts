import type { ScheduledMaintenance } from '../../domain/scheduledMaintenances.ts';
import { link, type Resource, resource } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';
import { scheduledMaintenancesPath, WORKPLACES_PATH } from '../paths.ts';

export function presentScheduledMaintenance(task: ScheduledMaintenance, hrefs: Hrefs): Resource {
  return resource(
    {
      id: task.id,
      workplaceId: task.workplaceId,
      description: task.description,
      maintenanceType: task.maintenanceType,
      startDate: task.startDate.toISOString(),
      endDate: task.endDate.toISOString(),
    },
    {
      self: link(hrefs.api(`${scheduledMaintenancesPath(task.workplaceId)}/${task.id}`)),
      workplace: link(hrefs.api(`${WORKPLACES_PATH}/${task.workplaceId}`)),
    },
  );
}
