import { type Static, Type } from 'typebox';
import * as repository from '../../db/repositories/scheduledMaintenances.ts';
import * as service from '../../services/scheduledMaintenances.ts';
import { getWorkplace } from '../../services/workplaces.ts';
import type { Api } from '../api.ts';
import { canWrite } from '../auth.ts';
import type { ServerDeps } from '../deps.ts';
import { offsetCollection } from '../hal.ts';
import { scheduledMaintenancesPath } from '../paths.ts';
import { presentScheduledMaintenance } from '../presenters/scheduledMaintenances.ts';
import {
  checkBodyId,
  errorResponses,
  IdParams,
  Nullable,
  OffsetCollection,
  OffsetQuery,
  offsetPage,
  Resource,
} from '../schemas/common.ts';

const DateTime = Type.String({ format: 'date-time' });

const ScheduledMaintenanceSchema = Resource(
  Type.Object({
    id: Type.String({ format: 'uuid' }),
    workplaceId: Type.String({ format: 'uuid' }),
    description: Type.String(),
    maintenanceType: Nullable(Type.String()),
    startDate: DateTime,
    endDate: DateTime,
  }),
  'A maintenance task planned for a workplace',
);

const writable = {
  description: Type.String({ minLength: 1, maxLength: 2000 }),
  maintenanceType: Type.Optional(
    Nullable(Type.String({ maxLength: 100, description: 'Free text of the planning system' })),
  ),
  startDate: DateTime,
  endDate: Type.String({ format: 'date-time', description: 'After startDate' }),
};
const CreateBody = Type.Object(writable, { additionalProperties: false });
const ReplaceBody = Type.Object(
  { id: Type.Optional(Type.String({ description: 'Must equal the path id when sent' })), ...writable },
  { additionalProperties: false },
);
const MaintenanceParams = Type.Object({
  id: Type.String({ maxLength: 100 }),
  scheduledMaintenanceId: Type.String({ maxLength: 100 }),
});
const COLLECTION = scheduledMaintenancesPath(':id');
const ONE = `${COLLECTION}/:scheduledMaintenanceId`;
const tags = ['workplaces'];

const toInput = (body: Static<typeof CreateBody>) => ({
  description: body.description,
  maintenanceType: body.maintenanceType ?? null,
  startDate: new Date(body.startDate),
  endDate: new Date(body.endDate),
});

export function registerScheduledMaintenances(api: Api, { db }: ServerDeps): void {
  api.get(
    COLLECTION,
    {
      schema: {
        tags,
        summary: 'Scheduled maintenance of a workplace, by start date (offset pagination)',
        description: 'Tasks ending before startDate or starting after endDate are left out.',
        params: IdParams,
        querystring: Type.Object(
          { ...OffsetQuery, startDate: Type.Optional(DateTime), endDate: Type.Optional(DateTime) },
          { additionalProperties: false },
        ),
        response: {
          200: OffsetCollection('scheduledMaintenances', ScheduledMaintenanceSchema),
          ...errorResponses(404),
        },
      },
    },
    async (request) => {
      const { startDate, endDate } = request.query;
      const { limit, offset } = offsetPage(request.query);
      const workplace = await getWorkplace(db, request.params.id);
      const page = await repository.listScheduledMaintenances(
        db,
        workplace.id,
        {
          startDate: startDate === undefined ? undefined : new Date(startDate),
          endDate: endDate === undefined ? undefined : new Date(endDate),
        },
        { limit, offset },
      );
      const path = scheduledMaintenancesPath(workplace.id);
      return offsetCollection(
        {
          hrefs: request.hrefs,
          path,
          name: 'scheduledMaintenances',
          query: { startDate, endDate },
          create: canWrite(request)
            ? { rel: 'createScheduledMaintenance', href: request.hrefs.api(path) }
            : undefined,
        },
        page.items.map((task) => presentScheduledMaintenance(task, request.hrefs)),
        page,
        { limit, offset },
      );
    },
  );

  api.get(
    ONE,
    {
      schema: {
        tags,
        summary: 'One scheduled maintenance task',
        params: MaintenanceParams,
        response: { 200: ScheduledMaintenanceSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const workplace = await getWorkplace(db, request.params.id);
      const task = await service.getScheduledMaintenance(
        db,
        workplace.id,
        request.params.scheduledMaintenanceId,
      );
      return presentScheduledMaintenance(task, request.hrefs);
    },
  );

  api.post(
    COLLECTION,
    {
      schema: {
        tags,
        summary: 'Plan a maintenance task (emits SCHEDULED_MAINTENANCE_CREATED)',
        params: IdParams,
        body: CreateBody,
        response: { 201: ScheduledMaintenanceSchema, ...errorResponses(404, 415) },
      },
    },
    async (request, reply) => {
      const task = await service.createScheduledMaintenance(db, request.params.id, toInput(request.body));
      const representation = presentScheduledMaintenance(task, request.hrefs);
      return reply.code(201).header('location', representation._links.self?.href).send(representation);
    },
  );

  api.put(
    ONE,
    {
      schema: {
        tags,
        summary: 'Replace a maintenance task (emits SCHEDULED_MAINTENANCE_UPDATED when something changes)',
        params: MaintenanceParams,
        body: ReplaceBody,
        response: { 200: ScheduledMaintenanceSchema, ...errorResponses(404, 415) },
      },
    },
    async (request) => {
      const { id, scheduledMaintenanceId } = request.params;
      checkBodyId(request.body.id, scheduledMaintenanceId);
      const task = await service.replaceScheduledMaintenance(
        db,
        id,
        scheduledMaintenanceId,
        toInput(request.body),
      );
      return presentScheduledMaintenance(task, request.hrefs);
    },
  );

  api.delete(
    ONE,
    {
      schema: {
        tags,
        summary: 'Delete a maintenance task (emits SCHEDULED_MAINTENANCE_DELETED)',
        params: MaintenanceParams,
        response: { 204: Type.Null(), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await service.deleteScheduledMaintenance(db, request.params.id, request.params.scheduledMaintenanceId);
      return reply.code(204).send();
    },
  );
}
