// What a workplace's stored rows give besides its own resource (docs/resources/workplaces.md,
// "Sub-resources"): the shifts of all workplaces at /workplaces/shifts, the scheduled operating
// and maintenance times (from its shifts and scheduled maintenance), and the phase and output
// quantity histories recorded at it.
import { Type } from 'typebox';
import { listWorkplaceOperationPhases } from '../../db/repositories/operationRepository.ts';
import { listWorkplaceOutputQuantities } from '../../db/repositories/outputQuantityRepository.ts';
import { listScheduledMaintenances } from '../../db/repositories/scheduledMaintenanceRepository.ts';
import { listAllShifts, listShiftPeriods } from '../../db/repositories/shiftRepository.ts';
import { getAnyShift } from '../../services/shiftService.ts';
import { getWorkplace } from '../../services/workplaceService.ts';
import type { Api } from '../api.ts';
import type { ServerDeps } from '../deps.ts';
import { registerElementsRoute } from '../elementRoutes.ts';
import { positionBy, startPosition } from '../hal.ts';
import { WORKPLACES_PATH } from '../paths.ts';
import { outputQuantityElements, phaseElements } from '../presenters/historyPresenter.ts';
import { presentRecordedOperationPhase } from '../presenters/operationPresenter.ts';
import { presentOutputQuantity } from '../presenters/outputQuantityPresenter.ts';
import { presentWorkplaceShifts, WORKPLACE_SHIFT_EMBEDS } from '../presenters/shiftPresenter.ts';
import { resourceRoutes } from '../resourceRoutes.ts';
import { anyOwnerPeriodQuery, PeriodFilters, periodOf } from '../schemas/common.ts';
import { RecordedOperationPhaseSchema } from '../schemas/operationSchemas.ts';
import { RecordedOutputQuantitySchema } from '../schemas/outputQuantitySchemas.ts';
import { WorkplaceShiftSchema } from '../schemas/shiftSchemas.ts';
import { embeddableWorkplaces } from './workplaceRoutes.ts';

const tags = ['workplaces'];
const DateTime = Type.String({ format: 'date-time' });
const PeriodElement = Type.Object({ startDate: DateTime, endDate: DateTime, duration: Type.Integer() });
const periodElement = (period: { startDate: Date; endDate: Date }) => ({
  startDate: period.startDate.toISOString(),
  endDate: period.endDate.toISOString(),
  duration: period.endDate.getTime() - period.startDate.getTime(),
});

export function registerWorkplaceDetails(api: Api, { db }: ServerDeps): void {
  const ownerId = async (id: string) => (await getWorkplace(db, id)).id;

  const shifts = resourceRoutes(api, {
    path: `${WORKPLACES_PATH}/shifts`,
    itemParam: 'shiftId',
    schema: WorkplaceShiftSchema,
    embeds: WORKPLACE_SHIFT_EMBEDS,
    presentPage: presentWorkplaceShifts(db, embeddableWorkplaces),
  });
  shifts.list({
    summary: 'Shifts of all workplaces, latest start first (timestamp pagination on startDate)',
    description: 'Shifts ending before startDate or starting after endDate are left out.',
    position: startPosition,
    ...anyOwnerPeriodQuery('workplaceId'),
    load: (filter, page) => listAllShifts(db, filter, page),
  });
  shifts.get({ summary: 'One shift of any workplace', load: (at) => getAnyShift(db, at.itemId) });

  registerElementsRoute(api, {
    tags,
    path: `${WORKPLACES_PATH}/:id/scheduledOperatingTimes`,
    operationId: 'getScheduledOperatingTimes',
    summary: "The workplace's scheduled operating times: the periods of its shifts, by start",
    description: 'Shifts ending before startDate or starting after endDate are left out.',
    filters: PeriodFilters,
    element: PeriodElement,
    load: async (id, filters, page) => listShiftPeriods(db, await ownerId(id), periodOf(filters), page),
    present: periodElement,
  });

  registerElementsRoute(api, {
    tags,
    path: `${WORKPLACES_PATH}/:id/scheduledMaintenanceTimes`,
    operationId: 'getScheduledMaintenanceTimes',
    summary:
      "The workplace's scheduled maintenance times: the periods of its scheduled maintenance, by start",
    description: 'Tasks ending before startDate or starting after endDate are left out.',
    filters: PeriodFilters,
    element: PeriodElement,
    load: async (id, filters, page) =>
      listScheduledMaintenances(db, await ownerId(id), periodOf(filters), page),
    present: periodElement,
  });

  const phases = resourceRoutes(api, {
    path: `${WORKPLACES_PATH}/:id/recordedOperationPhases`,
    schema: RecordedOperationPhaseSchema,
    present: presentRecordedOperationPhase,
  });
  phases.list({
    summary: 'Operation phases recorded at the workplace, newest start first (timestamp pagination)',
    description:
      'properties: the page as elements, and its setup and processing durations (occupancyTime: both).',
    position: startPosition,
    owner: (at) => ownerId(at.id),
    load: (_filter, page, at) => listWorkplaceOperationPhases(db, at.owner, page),
    elements: phaseElements('occupancyTime'),
  });

  const quantities = resourceRoutes(api, {
    path: `${WORKPLACES_PATH}/:id/recordedOutputQuantities`,
    schema: RecordedOutputQuantitySchema,
    present: presentOutputQuantity,
  });
  quantities.list({
    summary: 'Output quantities booked at the workplace, newest first (timestamp pagination)',
    position: positionBy('timestamp'),
    owner: (at) => ownerId(at.id),
    load: (_filter, page, at) => listWorkplaceOutputQuantities(db, at.owner, page),
    elements: outputQuantityElements,
  });
}
