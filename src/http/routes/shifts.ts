import { type Static, Type } from 'typebox';
import * as repository from '../../db/repositories/shifts.ts';
import * as service from '../../services/shifts.ts';
import { getWorkplace } from '../../services/workplaces.ts';
import type { Api } from '../api.ts';
import { canWrite } from '../auth.ts';
import type { ServerDeps } from '../deps.ts';
import { keysetCollection, link, startPosition } from '../hal.ts';
import { shiftsPath } from '../paths.ts';
import { presentShift } from '../presenters/shifts.ts';
import {
  checkBodyId,
  errorResponses,
  IdParams,
  KeysetCollection,
  KeysetQuery,
  keysetPosition,
  LinkSchema,
  Nullable,
  pagingAsked,
  Resource,
} from '../schemas/common.ts';

const DateTime = Type.String({ format: 'date-time' });

const ShiftSchema = Resource(
  Type.Object({
    id: Type.String({ format: 'uuid' }),
    workplaceId: Type.String({ format: 'uuid' }),
    name: Nullable(Type.String()),
    shiftModelId: Nullable(Type.String()),
    startDate: DateTime,
    endDate: DateTime,
  }),
  'A shift of a workplace: the period [startDate, endDate)',
);

const writable = {
  name: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  shiftModelId: Type.Optional(
    Nullable(Type.String({ maxLength: 100, description: 'Shift model of the planning system' })),
  ),
  startDate: DateTime,
  endDate: Type.String({ format: 'date-time', description: 'After startDate (exclusive end)' }),
};
const CreateBody = Type.Object(writable, { additionalProperties: false });
const ReplaceBody = Type.Object(
  { id: Type.Optional(Type.String({ description: 'Must equal the path id when sent' })), ...writable },
  { additionalProperties: false },
);
const PlanBody = Type.Object(
  {
    startDate: DateTime,
    endDate: Type.String({ format: 'date-time', description: 'End of the period (exclusive)' }),
    shifts: Type.Array(CreateBody, {
      maxItems: 1000,
      description: 'The shifts starting within the period, in any order',
    }),
  },
  { additionalProperties: false },
);
const ShiftParams = Type.Object({
  id: Type.String({ maxLength: 100 }),
  shiftId: Type.String({ maxLength: 100 }),
});
const COLLECTION = shiftsPath(':id');
const ONE = `${COLLECTION}/:shiftId`;
const tags = ['workplaces'];

const toInput = (body: Static<typeof CreateBody>) => ({
  name: body.name ?? null,
  shiftModelId: body.shiftModelId ?? null,
  startDate: new Date(body.startDate),
  endDate: new Date(body.endDate),
});

export function registerShifts(api: Api, { db }: ServerDeps): void {
  api.get(
    COLLECTION,
    {
      schema: {
        tags,
        summary: 'Shifts of a workplace, latest start first (timestamp pagination on startDate)',
        description: 'Shifts ending before startDate or starting after endDate are left out.',
        params: IdParams,
        querystring: Type.Object(
          { ...KeysetQuery, startDate: Type.Optional(DateTime), endDate: Type.Optional(DateTime) },
          { additionalProperties: false },
        ),
        response: { 200: KeysetCollection('shifts', ShiftSchema), ...errorResponses(404) },
      },
    },
    async (request) => {
      const { startDate, endDate } = request.query;
      const position = keysetPosition(request.query);
      const workplace = await getWorkplace(db, request.params.id);
      const page = await repository.listShifts(
        db,
        workplace.id,
        {
          startDate: startDate === undefined ? undefined : new Date(startDate),
          endDate: endDate === undefined ? undefined : new Date(endDate),
        },
        position,
      );
      const path = shiftsPath(workplace.id);
      return keysetCollection(
        {
          hrefs: request.hrefs,
          path,
          name: 'shifts',
          query: { startDate, endDate },
          create: canWrite(request) ? { rel: 'createShift', href: request.hrefs.api(path) } : undefined,
        },
        page.items.map((shift) => presentShift(shift, request.hrefs)),
        page,
        pagingAsked(request.query),
        startPosition,
      );
    },
  );

  api.put(
    COLLECTION,
    {
      schema: {
        tags,
        summary: 'Replace the shifts starting within a period (bulk, one transaction)',
        description:
          'A shift with the start of an existing one keeps its id; shifts of the period that are not sent are deleted. ' +
          'Each created, changed or deleted shift emits WORKPLACE_SHIFTS_UPDATED; the same plan again changes nothing. ' +
          'The answer lists the shifts of the period by start.',
        params: IdParams,
        body: PlanBody,
        response: {
          200: Type.Object({
            _embedded: Type.Object({ shifts: Type.Array(ShiftSchema) }),
            _links: Type.Record(Type.String(), LinkSchema),
          }),
          ...errorResponses(404, 415),
        },
      },
    },
    async (request) => {
      const { startDate, endDate, shifts } = request.body;
      const result = await service.replaceShiftsInPeriod(db, request.params.id, {
        startDate: new Date(startDate),
        endDate: new Date(endDate),
        shifts: shifts.map(toInput),
      });
      return {
        _embedded: { shifts: result.map((shift) => presentShift(shift, request.hrefs)) },
        _links: { self: link(request.hrefs.api(shiftsPath(request.params.id), { startDate, endDate })) },
      };
    },
  );

  api.get(
    ONE,
    {
      schema: {
        tags,
        summary: 'One shift of a workplace',
        params: ShiftParams,
        response: { 200: ShiftSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const workplace = await getWorkplace(db, request.params.id);
      return presentShift(await service.getShift(db, workplace.id, request.params.shiftId), request.hrefs);
    },
  );

  api.post(
    COLLECTION,
    {
      schema: {
        tags,
        summary:
          'Add a shift (emits WORKPLACE_SHIFTS_UPDATED); it must not overlap the workplace’s other shifts',
        params: IdParams,
        body: CreateBody,
        response: { 201: ShiftSchema, ...errorResponses(404, 415) },
      },
    },
    async (request, reply) => {
      const shift = await service.createShift(db, request.params.id, toInput(request.body));
      const representation = presentShift(shift, request.hrefs);
      return reply.code(201).header('location', representation._links.self?.href).send(representation);
    },
  );

  api.put(
    ONE,
    {
      schema: {
        tags,
        summary: 'Replace a shift (emits WORKPLACE_SHIFTS_UPDATED when something changes)',
        params: ShiftParams,
        body: ReplaceBody,
        response: { 200: ShiftSchema, ...errorResponses(404, 415) },
      },
    },
    async (request) => {
      checkBodyId(request.body.id, request.params.shiftId);
      const shift = await service.replaceShift(
        db,
        request.params.id,
        request.params.shiftId,
        toInput(request.body),
      );
      return presentShift(shift, request.hrefs);
    },
  );

  api.delete(
    ONE,
    {
      schema: {
        tags,
        summary: 'Delete a shift (emits WORKPLACE_SHIFTS_UPDATED)',
        params: ShiftParams,
        response: { 204: Type.Null(), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await service.deleteShift(db, request.params.id, request.params.shiftId);
      return reply.code(204).send();
    },
  );
}
