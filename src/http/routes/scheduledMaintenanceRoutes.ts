import * as repository from '../../db/repositories/scheduledMaintenanceRepository.ts';
import * as service from '../../services/scheduledMaintenanceService.ts';
import { getWorkplace } from '../../services/workplaceService.ts';
import type { Api } from '../api.ts';
import type { ServerDeps } from '../deps.ts';
import { scheduledMaintenancesPath } from '../paths.ts';
import { presentScheduledMaintenance } from '../presenters/scheduledMaintenancePresenter.ts';
import { resourceRoutes } from '../resourceRoutes.ts';
import { PeriodFilters, periodOf } from '../schemas/common.ts';
import {
  CreateScheduledMaintenanceBody,
  ReplaceScheduledMaintenanceBody,
  ScheduledMaintenanceSchema,
  scheduledMaintenanceInput,
} from '../schemas/scheduledMaintenanceSchemas.ts';

export function registerScheduledMaintenances(api: Api, { db }: ServerDeps): void {
  const tasks = resourceRoutes(api, {
    path: scheduledMaintenancesPath(':id'),
    itemParam: 'scheduledMaintenanceId',
    schema: ScheduledMaintenanceSchema,
    present: presentScheduledMaintenance,
  });
  tasks.list({
    summary: 'Scheduled maintenance of a workplace, by start date (offset pagination)',
    description: 'Tasks ending before startDate or starting after endDate are left out.',
    filters: PeriodFilters,
    owner: async (at) => (await getWorkplace(db, at.id)).id,
    filter: periodOf,
    load: (filter, page, at) => repository.listScheduledMaintenances(db, at.owner, filter, page),
  });
  tasks.items(db, {
    input: scheduledMaintenanceInput,
    get: { summary: 'One scheduled maintenance task', run: service.scheduledMaintenances.get },
    create: {
      summary: 'Plan a maintenance task (emits SCHEDULED_MAINTENANCE_CREATED)',
      body: CreateScheduledMaintenanceBody,
      run: service.scheduledMaintenances.create,
    },
    replace: {
      summary: 'Replace a maintenance task (emits SCHEDULED_MAINTENANCE_UPDATED when something changes)',
      body: ReplaceScheduledMaintenanceBody,
      run: service.scheduledMaintenances.replace,
    },
    remove: {
      summary: 'Delete a maintenance task (emits SCHEDULED_MAINTENANCE_DELETED)',
      run: service.scheduledMaintenances.delete,
    },
  });
}
