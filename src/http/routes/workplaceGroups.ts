import { Type } from 'typebox';
import * as repository from '../../db/repositories/workplaceGroups.ts';
import { WORKPLACE_GROUP_TYPES } from '../../domain/workplaces.ts';
import * as service from '../../services/workplaceGroups.ts';
import type { Api } from '../api.ts';
import { canWrite } from '../auth.ts';
import type { ServerDeps } from '../deps.ts';
import { parseEmbed } from '../embed.ts';
import { offsetCollection } from '../hal.ts';
import { WORKPLACE_GROUPS_PATH } from '../paths.ts';
import { presentWorkplaceGroup } from '../presenters/workplaceGroups.ts';
import {
  checkBodyId,
  EmbedQuery,
  errorResponses,
  IdParams,
  Nullable,
  OffsetCollection,
  OffsetQuery,
  offsetPage,
  Resource,
} from '../schemas/common.ts';

const GroupType = Type.Enum([...WORKPLACE_GROUP_TYPES], {
  description: 'CAPACITY_GROUP (same production procedure) or PRODUCTION_LINE (complete process)',
});

const Properties = Type.Object({
  id: Type.String({ format: 'uuid' }),
  number: Type.String(),
  description: Nullable(Type.String()),
  type: GroupType,
});
const WorkplaceGroup = Resource(Properties, 'Workplace group (capacity group or production line)');

const Body = Type.Object(
  {
    id: Type.Optional(
      Type.String({ description: 'Ignored on create; on replace it must equal the path id' }),
    ),
    number: Type.String({ minLength: 1, maxLength: 100 }),
    description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
    type: GroupType,
  },
  { additionalProperties: false },
);

const tags = ['workplace groups'];

export function registerWorkplaceGroups(api: Api, { db }: ServerDeps): void {
  api.get(
    WORKPLACE_GROUPS_PATH,
    {
      schema: {
        tags,
        summary: 'List workplace groups',
        querystring: Type.Object(
          { ...OffsetQuery, type: Type.Optional(GroupType), embed: EmbedQuery },
          { additionalProperties: false },
        ),
        response: { 200: OffsetCollection('workplaceGroups', WorkplaceGroup), ...errorResponses() },
      },
    },
    async (request) => {
      const { type, embed } = request.query;
      const { limit, offset } = offsetPage(request.query);
      parseEmbed(embed, []);
      const page = await repository.listWorkplaceGroups(db, { type }, { limit, offset });
      return offsetCollection(
        {
          hrefs: request.hrefs,
          path: WORKPLACE_GROUPS_PATH,
          name: 'workplaceGroups',
          query: { type },
          create: canWrite(request)
            ? { rel: 'createWorkplaceGroup', href: request.hrefs.api(WORKPLACE_GROUPS_PATH) }
            : undefined,
        },
        page.items.map((group) => presentWorkplaceGroup(group, request.hrefs)),
        page,
        { limit, offset },
      );
    },
  );

  api.get(
    `${WORKPLACE_GROUPS_PATH}/:id`,
    {
      schema: {
        tags,
        summary: 'One workplace group',
        params: IdParams,
        querystring: Type.Object({ embed: EmbedQuery }, { additionalProperties: false }),
        response: { 200: WorkplaceGroup, ...errorResponses(404) },
      },
    },
    async (request) => {
      parseEmbed(request.query.embed, []);
      return presentWorkplaceGroup(await service.getWorkplaceGroup(db, request.params.id), request.hrefs);
    },
  );

  api.post(
    WORKPLACE_GROUPS_PATH,
    {
      schema: {
        tags,
        summary: 'Create a workplace group',
        body: Body,
        response: { 201: WorkplaceGroup, ...errorResponses(415) },
      },
    },
    async (request, reply) => {
      const { id: _ignored, ...input } = request.body;
      const group = await service.createWorkplaceGroup(db, {
        ...input,
        description: input.description ?? null,
      });
      const representation = presentWorkplaceGroup(group, request.hrefs);
      return reply.code(201).header('location', representation._links.self?.href).send(representation);
    },
  );

  api.put(
    `${WORKPLACE_GROUPS_PATH}/:id`,
    {
      schema: {
        tags,
        summary: 'Replace a workplace group',
        params: IdParams,
        body: Body,
        response: { 200: WorkplaceGroup, ...errorResponses(404, 415) },
      },
    },
    async (request) => {
      const { id, ...input } = request.body;
      checkBodyId(id, request.params.id);
      const group = await service.replaceWorkplaceGroup(db, request.params.id, {
        ...input,
        description: input.description ?? null,
      });
      return presentWorkplaceGroup(group, request.hrefs);
    },
  );

  api.delete(
    `${WORKPLACE_GROUPS_PATH}/:id`,
    {
      schema: {
        tags,
        summary: 'Delete a workplace group (400 RESOURCE_IN_USE while workplaces belong to it)',
        params: IdParams,
        response: { 204: Type.Null(), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await service.deleteWorkplaceGroup(db, request.params.id);
      return reply.code(204).send();
    },
  );
}
