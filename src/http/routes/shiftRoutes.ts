import { Type } from 'typebox';
import * as repository from '../../db/repositories/shiftRepository.ts';
import * as service from '../../services/shiftService.ts';
import { getWorkplace } from '../../services/workplaceService.ts';
import type { Api } from '../api.ts';
import type { ServerDeps } from '../deps.ts';
import { link, startPosition } from '../hal.ts';
import { shiftsPath } from '../paths.ts';
import { presentShift } from '../presenters/shiftPresenter.ts';
import { resourceRoutes } from '../resourceRoutes.ts';
import { registerRoute } from '../route.ts';
import { LinkSchema, PeriodFilters, periodOf } from '../schemas/common.ts';
import {
  CreateShiftBody,
  ReplaceShiftBody,
  ShiftPlanBody,
  ShiftSchema,
  shiftInput,
} from '../schemas/shiftSchemas.ts';

const COLLECTION = shiftsPath(':id');
const tags = ['workplaces'];

export function registerShifts(api: Api, { db }: ServerDeps): void {
  const shifts = resourceRoutes(api, {
    path: COLLECTION,
    itemParam: 'shiftId',
    schema: ShiftSchema,
    present: presentShift,
  });
  shifts.list({
    summary: 'Shifts of a workplace, latest start first (timestamp pagination on startDate)',
    description: 'Shifts ending before startDate or starting after endDate are left out.',
    position: startPosition,
    filters: PeriodFilters,
    owner: async (at) => (await getWorkplace(db, at.id)).id,
    filter: periodOf,
    load: (filter, page, at) => repository.listShifts(db, at.owner, filter, page),
  });

  registerRoute(api, {
    method: 'PUT',
    path: COLLECTION,
    tags,
    summary: 'Replace the shifts starting within a period (bulk, one transaction)',
    description:
      'A shift with the start of an existing one keeps its id; shifts of the period that are not sent are deleted. ' +
      'Each created, changed or deleted shift emits WORKPLACE_SHIFTS_UPDATED; the same plan again changes nothing. ' +
      'The answer lists the shifts of the period by start.',
    body: ShiftPlanBody,
    response: {
      200: Type.Object({
        _embedded: Type.Object({ shifts: Type.Array(ShiftSchema) }),
        _links: Type.Record(Type.String(), LinkSchema),
      }),
    },
    errors: [404, 415],
    handler: async (request) => {
      const { startDate, endDate, shifts } = request.body;
      const result = await service.replaceShiftsInPeriod(db, request.params.id, {
        startDate: new Date(startDate),
        endDate: new Date(endDate),
        shifts: shifts.map(shiftInput),
      });
      return {
        _embedded: { shifts: result.map((shift) => presentShift(shift, request.hrefs)) },
        _links: { self: link(request.hrefs.api(shiftsPath(request.params.id), { startDate, endDate })) },
      };
    },
  });

  shifts.items(db, {
    input: shiftInput,
    get: { summary: 'One shift of a workplace', run: service.getShift },
    create: {
      summary:
        'Add a shift (emits WORKPLACE_SHIFTS_UPDATED); it must not overlap the workplace’s other shifts',
      body: CreateShiftBody,
      run: service.createShift,
    },
    replace: {
      summary: 'Replace a shift (emits WORKPLACE_SHIFTS_UPDATED when something changes)',
      body: ReplaceShiftBody,
      run: service.replaceShift,
    },
    remove: { summary: 'Delete a shift (emits WORKPLACE_SHIFTS_UPDATED)', run: service.deleteShift },
  });
}
