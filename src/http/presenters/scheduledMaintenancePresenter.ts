import type { ScheduledMaintenance } from '../../domain/scheduledMaintenances.ts';
import { link, type Resource, resource } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';
import { scheduledMaintenancesPath, WORKPLACES_PATH } from '../paths.ts';
import { ScheduledMaintenanceSchema } from '../schemas/scheduledMaintenanceSchemas.ts';
import { propertiesOf } from './properties.ts';

export function presentScheduledMaintenance(task: ScheduledMaintenance, hrefs: Hrefs): Resource {
  return resource(propertiesOf(ScheduledMaintenanceSchema, task), {
    self: link(hrefs.api(`${scheduledMaintenancesPath(task.workplaceId)}/${task.id}`)),
    workplace: link(hrefs.api(`${WORKPLACES_PATH}/${task.workplaceId}`)),
  });
}
