import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { findWorkplaceGroups } from '../../db/repositories/workplaceGroups.ts';
import * as repository from '../../db/repositories/workplaces.ts';
import type { Workplace } from '../../domain/workplaces.ts';
import * as service from '../../services/workplaces.ts';
import type { Api } from '../api.ts';
import { canWrite } from '../auth.ts';
import type { ServerDeps } from '../deps.ts';
import { embedQuery, parseEmbed } from '../embed.ts';
import { offsetCollection } from '../hal.ts';
import { registerHistoryRoutes } from '../historyRoutes.ts';
import { WORKPLACES_PATH } from '../paths.ts';
import {
  presentRecordedOperatingState,
  presentWorkplace,
  WORKPLACE_EMBEDS,
  type WorkplaceEmbed,
} from '../presenters/workplaces.ts';
import {
  checkBodyId,
  EmbedOnly,
  EmbedQuery,
  errorResponses,
  IdParams,
  Nullable,
  OffsetCollection,
  OffsetQuery,
  OperatingStateProperty,
  offsetPage,
  Resource,
} from '../schemas/common.ts';

const Properties = Type.Object({
  id: Type.String({ format: 'uuid' }),
  number: Type.String(),
  description: Nullable(Type.String()),
  isManualWorkplace: Type.Boolean(),
  operatingState: OperatingStateProperty,
  capacityGroupId: Type.String({ format: 'uuid' }),
  productionLineId: Nullable(Type.String({ format: 'uuid' })),
});
const WorkplaceSchema = Resource(Properties, 'Workplace (machine or manual workplace)');

const RecordedOperatingStateSchema = Resource(
  Type.Object({
    id: Type.String({ format: 'uuid' }),
    workplaceId: Type.String({ format: 'uuid' }),
    operatingState: OperatingStateProperty,
    startDate: Type.String({ format: 'date-time' }),
    endDate: Nullable(Type.String({ format: 'date-time' })),
  }),
  'A period in one operating state',
);

const Uuid = Type.String({ format: 'uuid' });
const writable = {
  number: Type.String({ minLength: 1, maxLength: 100 }),
  description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  isManualWorkplace: Type.Optional(Type.Boolean({ default: false })),
  capacityGroupId: Uuid,
  productionLineId: Type.Optional(Nullable(Uuid)),
};
const CreateBody = Type.Object(
  {
    ...writable,
    operatingStateId: Type.Optional(
      Type.String({ maxLength: 100, description: 'Initial operating state (id or code); default 999' }),
    ),
  },
  { additionalProperties: false },
);
const ReplaceBody = Type.Object(
  { id: Type.Optional(Type.String({ description: 'Must equal the path id when sent' })), ...writable },
  { additionalProperties: false },
);
const tags = ['workplaces'];

export function registerWorkplaces(api: Api, { db }: ServerDeps): void {
  /** Presents workplaces, loading the groups to embed in one query. */
  async function present(
    request: FastifyRequest,
    workplaces: Workplace[],
    embed: ReadonlySet<WorkplaceEmbed>,
  ) {
    const groupIds = new Set<string>();
    for (const workplace of workplaces) {
      if (embed.has('capacityGroup')) groupIds.add(workplace.capacityGroupId);
      if (embed.has('productionLine') && workplace.productionLineId) groupIds.add(workplace.productionLineId);
    }
    const groups = new Map((await findWorkplaceGroups(db, [...groupIds])).map((group) => [group.id, group]));
    const view = { hrefs: request.hrefs, locale: request.locale, canWrite: canWrite(request), embed, groups };
    return workplaces.map((workplace) => presentWorkplace(workplace, view));
  }

  const presentOne = async (
    request: FastifyRequest,
    workplace: Workplace,
    embed = new Set<WorkplaceEmbed>(),
  ) => (await present(request, [workplace], embed))[0];

  api.get(
    WORKPLACES_PATH,
    {
      schema: {
        tags,
        summary: 'List workplaces',
        querystring: Type.Object(
          {
            ...OffsetQuery,
            workplaceGroupNumber: Type.Optional(
              Type.String({ maxLength: 100, description: 'Capacity group or line' }),
            ),
            workplaceNumber: Type.Optional(Type.String({ maxLength: 100 })),
            embed: EmbedQuery,
          },
          { additionalProperties: false },
        ),
        response: { 200: OffsetCollection('workplaces', WorkplaceSchema), ...errorResponses() },
      },
    },
    async (request) => {
      const { workplaceGroupNumber, workplaceNumber } = request.query;
      const { limit, offset } = offsetPage(request.query);
      const embed = parseEmbed(request.query.embed, WORKPLACE_EMBEDS);
      const page = await repository.listWorkplaces(
        db,
        { workplaceGroupNumber, workplaceNumber },
        { limit, offset },
      );
      return offsetCollection(
        {
          hrefs: request.hrefs,
          path: WORKPLACES_PATH,
          name: 'workplaces',
          query: { workplaceGroupNumber, workplaceNumber, embed: embedQuery(embed) },
          create: canWrite(request)
            ? { rel: 'createWorkplace', href: request.hrefs.api(WORKPLACES_PATH) }
            : undefined,
        },
        await present(request, page.items, embed),
        page,
        { limit, offset },
      );
    },
  );

  api.get(
    `${WORKPLACES_PATH}/:id`,
    {
      schema: {
        tags,
        summary: 'One workplace',
        params: IdParams,
        querystring: EmbedOnly,
        response: { 200: WorkplaceSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const embed = parseEmbed(request.query.embed, WORKPLACE_EMBEDS);
      return presentOne(request, await service.getWorkplace(db, request.params.id), embed);
    },
  );

  api.post(
    WORKPLACES_PATH,
    {
      schema: {
        tags,
        summary: 'Create a workplace (emits WORKPLACE_CREATED)',
        body: CreateBody,
        response: { 201: WorkplaceSchema, ...errorResponses(415) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const workplace = await service.createWorkplace(db, {
        number: body.number,
        description: body.description ?? null,
        isManualWorkplace: body.isManualWorkplace ?? false,
        capacityGroupId: body.capacityGroupId,
        productionLineId: body.productionLineId ?? null,
        operatingStateId: body.operatingStateId,
      });
      const representation = await presentOne(request, workplace);
      return reply.code(201).header('location', representation?._links.self?.href).send(representation);
    },
  );

  api.put(
    `${WORKPLACES_PATH}/:id`,
    {
      schema: {
        tags,
        summary: 'Replace a workplace (emits WORKPLACE_UPDATED when a characteristic property changes)',
        params: IdParams,
        body: ReplaceBody,
        response: { 200: WorkplaceSchema, ...errorResponses(404, 415) },
      },
    },
    async (request) => {
      const body = request.body;
      checkBodyId(body.id, request.params.id);
      const workplace = await service.replaceWorkplace(db, request.params.id, {
        number: body.number,
        description: body.description ?? null,
        isManualWorkplace: body.isManualWorkplace ?? false,
        capacityGroupId: body.capacityGroupId,
        productionLineId: body.productionLineId ?? null,
      });
      return presentOne(request, workplace);
    },
  );

  api.delete(
    `${WORKPLACES_PATH}/:id`,
    {
      schema: {
        tags,
        summary: 'Delete a workplace (emits WORKPLACE_DELETED)',
        params: IdParams,
        response: { 204: Type.Null(), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await service.deleteWorkplace(db, request.params.id);
      return reply.code(204).send();
    },
  );

  api.post(
    `${WORKPLACES_PATH}/:id/operatingState/:operatingStateId`,
    {
      schema: {
        tags,
        summary: 'Change the operating state (emits WORKPLACE_OPERATING_STATE_CHANGED)',
        description:
          'operatingStateId is the id or the code of an operating state (see /masterData/operatingStates).',
        params: Type.Object({
          id: Type.String({ maxLength: 100 }),
          operatingStateId: Type.String({ maxLength: 100 }),
        }),
        response: { 200: WorkplaceSchema, ...errorResponses(404) },
      },
    },
    async (request) =>
      presentOne(
        request,
        await service.changeOperatingState(db, request.params.id, request.params.operatingStateId),
      ),
  );

  registerHistoryRoutes(api, db, {
    tags,
    ownerPath: WORKPLACES_PATH,
    name: 'recordedOperatingStates',
    singular: 'recordedOperatingState',
    summary: 'History of operating states, newest first (timestamp pagination)',
    schema: RecordedOperatingStateSchema,
    ownerId: async (tx, id) => (await service.getWorkplace(tx, id)).id,
    history: { list: repository.listRecordedOperatingStates, find: repository.findRecordedOperatingState },
    present: (record, request) => presentRecordedOperatingState(record, request.hrefs, request.locale),
  });
}
