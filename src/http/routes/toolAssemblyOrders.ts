import { Type } from 'typebox';
import * as repository from '../../db/repositories/toolAssemblyOrders.ts';
import { TOOL_ASSEMBLY_ORDER_STATE_IDS } from '../../domain/toolAssemblyOrderStates.ts';
import type { Lifespan } from '../../domain/tools.ts';
import * as service from '../../services/toolAssemblyOrders.ts';
import type { Api } from '../api.ts';
import { canWrite } from '../auth.ts';
import type { ServerDeps } from '../deps.ts';
import { offsetCollection } from '../hal.ts';
import { TOOL_ASSEMBLY_ORDERS_PATH } from '../paths.ts';
import { presentToolAssemblyOrder } from '../presenters/tools.ts';
import {
  errorResponses,
  IdParams,
  Nullable,
  OffsetCollection,
  OffsetQuery,
  offsetPage,
  Resource,
} from '../schemas/common.ts';

const Uuid = Type.String({ format: 'uuid' });
const StateId = Type.Enum([...TOOL_ASSEMBLY_ORDER_STATE_IDS]);
export const Milliseconds = Nullable(Type.Integer({ minimum: 0, description: 'Milliseconds' }));

/** Lifespan in a request body (creation here, replacement in tools.ts): each part optional, a missing one is null. */
export const LifespanBody = Type.Optional(
  Nullable(
    Type.Object(
      {
        remaining: Type.Optional(Milliseconds),
        maximum: Type.Optional(Milliseconds),
        warningLimit: Type.Optional(Milliseconds),
      },
      { additionalProperties: false, description: 'Service life in milliseconds' },
    ),
  ),
);

export const toLifespan = (body: Partial<Record<keyof Lifespan, number | null>> | null | undefined) => ({
  remaining: body?.remaining ?? null,
  maximum: body?.maximum ?? null,
  warningLimit: body?.warningLimit ?? null,
});

const OrderSchema = Resource(
  Type.Object({
    id: Uuid,
    toolId: Nullable(Uuid),
    toolDescription: Type.String(),
    targetWorkplaceId: Nullable(Uuid),
    operationId: Nullable(Uuid),
    toolAssemblyOrderStateId: StateId,
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  }),
  'Tool assembly order; toolId is the tool it creates (null once that tool is deleted)',
);

const CreateBody = Type.Object(
  {
    toolNumber: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 100 }))),
    toolDescription: Type.String({ minLength: 1, maxLength: 2000 }),
    targetWorkplaceId: Type.Optional(Nullable(Uuid)),
    operationId: Type.Optional(Nullable(Uuid)),
    storageLocation: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
    lifespan: LifespanBody,
  },
  { additionalProperties: false },
);
const tags = ['tools'];

export function registerToolAssemblyOrders(api: Api, { db }: ServerDeps): void {
  api.get(
    TOOL_ASSEMBLY_ORDERS_PATH,
    {
      schema: {
        tags,
        summary: 'List tool assembly orders',
        querystring: Type.Object(
          { ...OffsetQuery, toolAssemblyOrderStateId: Type.Optional(StateId), toolId: Type.Optional(Uuid) },
          { additionalProperties: false },
        ),
        response: { 200: OffsetCollection('toolAssemblyOrders', OrderSchema), ...errorResponses() },
      },
    },
    async (request) => {
      const { toolAssemblyOrderStateId, toolId } = request.query;
      const { limit, offset } = offsetPage(request.query);
      const page = await repository.listToolAssemblyOrders(
        db,
        { toolAssemblyOrderStateId, toolId },
        { limit, offset },
      );
      const writer = canWrite(request);
      return offsetCollection(
        {
          hrefs: request.hrefs,
          path: TOOL_ASSEMBLY_ORDERS_PATH,
          name: 'toolAssemblyOrders',
          query: { toolAssemblyOrderStateId, toolId },
          create: writer
            ? { rel: 'createToolAssemblyOrder', href: request.hrefs.api(TOOL_ASSEMBLY_ORDERS_PATH) }
            : undefined,
        },
        page.items.map((order) => presentToolAssemblyOrder(order, request.hrefs, writer)),
        page,
        { limit, offset },
      );
    },
  );

  api.get(
    `${TOOL_ASSEMBLY_ORDERS_PATH}/:id`,
    {
      schema: {
        tags,
        summary: 'One tool assembly order',
        params: IdParams,
        response: { 200: OrderSchema, ...errorResponses(404) },
      },
    },
    async (request) =>
      presentToolAssemblyOrder(
        await service.getToolAssemblyOrder(db, request.params.id),
        request.hrefs,
        canWrite(request),
      ),
  );

  api.post(
    TOOL_ASSEMBLY_ORDERS_PATH,
    {
      schema: {
        tags,
        summary: 'Create a tool assembly order and its new tool (emits TOOL_CREATED)',
        description: 'The answer announces the new tool: properties.toolId and the `tool` link.',
        body: CreateBody,
        response: { 201: OrderSchema, ...errorResponses(415) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const order = await service.createToolAssemblyOrder(db, {
        toolNumber: body.toolNumber ?? null,
        toolDescription: body.toolDescription,
        targetWorkplaceId: body.targetWorkplaceId ?? null,
        operationId: body.operationId ?? null,
        storageLocation: body.storageLocation ?? null,
        lifespan: toLifespan(body.lifespan),
      });
      const representation = presentToolAssemblyOrder(order, request.hrefs, canWrite(request));
      return reply.code(201).header('location', representation._links.self?.href).send(representation);
    },
  );

  api.post(
    `${TOOL_ASSEMBLY_ORDERS_PATH}/:id/:toolAssemblyOrderStateId`,
    {
      schema: {
        tags,
        summary: 'Set the state of a tool assembly order (emits TOOL_ASSEMBLY_ORDER_STATE_CHANGED)',
        description:
          'REQUESTED -> INITIATED -> ASSEMBLED -> PRESETTING -> AVAILABLE; UNAVAILABLE from any ' +
          'non-final state. Any other change: 400 INVALID_TRANSITION. Unknown state: 404.',
        params: Type.Object({
          id: Type.String({ maxLength: 100 }),
          toolAssemblyOrderStateId: Type.String({ maxLength: 100 }),
        }),
        response: { 200: OrderSchema, ...errorResponses(404) },
      },
    },
    async (request) =>
      presentToolAssemblyOrder(
        await service.changeToolAssemblyOrderState(
          db,
          request.params.id,
          request.params.toolAssemblyOrderStateId,
        ),
        request.hrefs,
        canWrite(request),
      ),
  );
}
