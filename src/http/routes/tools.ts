import { Type } from 'typebox';
import * as repository from '../../db/repositories/tools.ts';
import { TOOL_STATE_IDS } from '../../domain/tools.ts';
import * as service from '../../services/tools.ts';
import type { Api } from '../api.ts';
import type { ServerDeps } from '../deps.ts';
import { link, offsetCollection } from '../hal.ts';
import { TOOL_ASSEMBLY_ORDERS_PATH, TOOLS_PATH } from '../paths.ts';
import { presentTool } from '../presenters/tools.ts';
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
import { LifespanBody, Milliseconds, registerToolAssemblyOrders, toLifespan } from './toolAssemblyOrders.ts';

const Uuid = Type.String({ format: 'uuid' });

const ToolSchema = Resource(
  Type.Object({
    id: Uuid,
    number: Nullable(Type.String()),
    description: Nullable(Type.String()),
    storageLocation: Nullable(Type.String()),
    workplaceId: Nullable(Uuid),
    lifespan: Type.Object({ remaining: Milliseconds, maximum: Milliseconds, warningLimit: Milliseconds }),
    toolStateId: Type.Enum([...TOOL_STATE_IDS]),
  }),
  'Tool (created through a tool assembly order; its state follows the order)',
);

const ReplaceBody = Type.Object(
  {
    id: Type.Optional(Type.String({ description: 'Must equal the path id when sent' })),
    number: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
    description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
    storageLocation: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    workplaceId: Type.Optional(Nullable(Uuid)),
    lifespan: LifespanBody,
  },
  { additionalProperties: false },
);
const tags = ['tools'];

/** Tools and their sub-collection tools/assemblyOrders (a static path, so it wins over /tools/:id). */
export function registerTools(api: Api, deps: ServerDeps): void {
  const { db } = deps;
  registerToolAssemblyOrders(api, deps);
  api.get(
    TOOLS_PATH,
    {
      schema: {
        tags,
        summary: 'List tools (no creation here: tools come from tool assembly orders)',
        querystring: Type.Object(
          {
            ...OffsetQuery,
            workplaceId: Type.Optional(Uuid),
            toolStateId: Type.Optional(Type.Enum([...TOOL_STATE_IDS])),
            number: Type.Optional(Type.String({ maxLength: 100 })),
          },
          { additionalProperties: false },
        ),
        response: { 200: OffsetCollection('tools', ToolSchema), ...errorResponses() },
      },
    },
    async (request) => {
      const { workplaceId, toolStateId, number } = request.query;
      const { limit, offset } = offsetPage(request.query);
      const page = await repository.listTools(db, { workplaceId, toolStateId, number }, { limit, offset });
      const collection = offsetCollection(
        {
          hrefs: request.hrefs,
          path: TOOLS_PATH,
          name: 'tools',
          query: { workplaceId, toolStateId, number },
        },
        page.items.map((tool) => presentTool(tool, request.hrefs)),
        page,
        { limit, offset },
      );
      // Tools are created through their assembly orders, which are reached from here.
      collection._links.toolAssemblyOrders = link(request.hrefs.api(TOOL_ASSEMBLY_ORDERS_PATH));
      return collection;
    },
  );

  api.get(
    `${TOOLS_PATH}/:id`,
    {
      schema: {
        tags,
        summary: 'One tool',
        params: IdParams,
        response: { 200: ToolSchema, ...errorResponses(404) },
      },
    },
    async (request) => presentTool(await service.getTool(db, request.params.id), request.hrefs),
  );

  api.put(
    `${TOOLS_PATH}/:id`,
    {
      schema: {
        tags,
        summary:
          'Replace a tool (emits TOOL_UPDATED when number, description or lifespan maximum/warningLimit change)',
        params: IdParams,
        body: ReplaceBody,
        response: { 200: ToolSchema, ...errorResponses(404, 415) },
      },
    },
    async (request) => {
      const body = request.body;
      checkBodyId(body.id, request.params.id);
      const tool = await service.replaceTool(db, request.params.id, {
        number: body.number ?? null,
        description: body.description ?? null,
        storageLocation: body.storageLocation ?? null,
        workplaceId: body.workplaceId ?? null,
        lifespan: toLifespan(body.lifespan),
      });
      return presentTool(tool, request.hrefs);
    },
  );

  api.delete(
    `${TOOLS_PATH}/:id`,
    {
      schema: {
        tags,
        summary: 'Delete a tool (emits TOOL_DELETED; refused while its assembly order is unfinished)',
        params: IdParams,
        response: { 204: Type.Null(), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await service.deleteTool(db, request.params.id);
      return reply.code(204).send();
    },
  );
}
