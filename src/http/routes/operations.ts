import type { FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import * as repository from '../../db/repositories/operations.ts';
import { findProductionOrders } from '../../db/repositories/productionOrders.ts';
import { findWorkplaces } from '../../db/repositories/workplaces.ts';
import { OPERATION_PHASE_IDS } from '../../domain/operationPhases.ts';
import { checkTargetProcessingTime, type Operation, type OperationFilter } from '../../domain/operations.ts';
import { checkPeriod } from '../../domain/productionOrders.ts';
import * as service from '../../services/operations.ts';
import type { Api } from '../api.ts';
import { canWrite } from '../auth.ts';
import type { ServerDeps } from '../deps.ts';
import { embedQuery, parseEmbed } from '../embed.ts';
import { type Resource as HalResource, type KeysetPosition, keysetCollection } from '../hal.ts';
import { registerHistoryRoutes } from '../historyRoutes.ts';
import type { QueryValues } from '../hrefs.ts';
import { OPERATIONS_PATH } from '../paths.ts';
import {
  OPERATION_EMBEDS,
  type OperationEmbed,
  presentOperation,
  presentRecordedOperationPhase,
} from '../presenters/operations.ts';
import { presentProductionOrder } from '../presenters/productionOrders.ts';
import { presentWorkplace } from '../presenters/workplaces.ts';
import {
  checkBodyId,
  EmbedOnly,
  EmbedQuery,
  errorResponses,
  IdParams,
  KeysetCollection,
  KeysetQuery,
  keysetPosition,
  Nullable,
  pagingAsked,
  Resource,
} from '../schemas/common.ts';

const Uuid = Type.String({ format: 'uuid' });
const DateTime = Type.String({ format: 'date-time' });
const optional = <T extends Type.TSchema>(schema: T) => Type.Optional(Nullable(schema));
const Quantity = Type.Number({ minimum: 0, maximum: 1e12 });
const Duration = Type.Integer({ minimum: 0, description: 'Milliseconds' });
const Unit = Type.String({ maxLength: 20 });
const Description = Type.String({ maxLength: 2000 });

export const MaterialSchema = Type.Object(
  { number: Type.String({ minLength: 1, maxLength: 100 }), description: optional(Description) },
  { additionalProperties: false },
);
const ComponentSchema = Type.Object(
  {
    materialNumber: Type.String({ minLength: 1, maxLength: 100 }),
    description: optional(Description),
    quantity: optional(Quantity),
    quantityUnit: optional(Unit),
  },
  { additionalProperties: false },
);
const ToolSchema = Type.Object(
  {
    type: optional(Type.String({ maxLength: 100 })),
    identifier: Type.String({ minLength: 1, maxLength: 200 }),
    description: optional(Description),
    toolId: optional(Uuid),
  },
  { additionalProperties: false },
);

/** Writable fields of an operation, also used for the operations sent with a new production order. */
export const operationFields = {
  number: Type.String({ minLength: 1, maxLength: 100 }),
  description: optional(Description),
  sequence: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 2147483647, description: 'Position in the order; default: last' }),
  ),
  material: optional(MaterialSchema),
  workplaceId: optional(Uuid),
  workplaceGroupId: optional(Uuid),
  targetQuantity: optional(Quantity),
  quantityUnit: optional(Unit),
  targetTimePerUnit: optional(Duration),
  targetProcessingTime: optional(
    Type.Integer({
      minimum: 0,
      description: 'Derived: targetQuantity x targetTimePerUnit; another value is 400',
    }),
  ),
  targetSetupTime: optional(Duration),
  targetTeardownTime: optional(Duration),
  targetMoveTime: optional(Duration),
  targetWaitTime: optional(Duration),
  components: Type.Optional(Type.Array(ComponentSchema, { maxItems: 1000 })),
  productionResourcesAndTools: Type.Optional(Type.Array(ToolSchema, { maxItems: 1000 })),
  startDate: optional(DateTime),
  endDate: optional(DateTime),
};
const OperationFieldsSchema = Type.Object(operationFields);
type OperationFields = Static<typeof OperationFieldsSchema>;

const date = (value: string | null | undefined) => (value == null ? null : new Date(value));

/** The service input from a body; `prefix` names the operation in bulk bodies (`operations[2].`). */
export function operationInput(
  body: OperationFields,
  productionOrderId: string,
  prefix = '',
): service.NewOperation {
  const input: service.NewOperation = {
    productionOrderId,
    number: body.number,
    description: body.description ?? null,
    sequence: body.sequence,
    // Objects are built in a fixed key order: changes are detected on their JSON text.
    material: body.material
      ? { number: body.material.number, description: body.material.description ?? null }
      : null,
    workplaceId: body.workplaceId ?? null,
    workplaceGroupId: body.workplaceGroupId ?? null,
    targetQuantity: body.targetQuantity ?? null,
    quantityUnit: body.quantityUnit ?? null,
    targetTimePerUnit: body.targetTimePerUnit ?? null,
    targetSetupTime: body.targetSetupTime ?? null,
    targetTeardownTime: body.targetTeardownTime ?? null,
    targetMoveTime: body.targetMoveTime ?? null,
    targetWaitTime: body.targetWaitTime ?? null,
    components: (body.components ?? []).map((component) => ({
      materialNumber: component.materialNumber,
      description: component.description ?? null,
      quantity: component.quantity ?? null,
      quantityUnit: component.quantityUnit ?? null,
    })),
    productionResourcesAndTools: (body.productionResourcesAndTools ?? []).map((tool) => ({
      type: tool.type ?? null,
      identifier: tool.identifier,
      description: tool.description ?? null,
      toolId: tool.toolId ?? null,
    })),
    startDate: date(body.startDate),
    endDate: date(body.endDate),
  };
  checkTargetProcessingTime(input, body.targetProcessingTime, `${prefix}targetProcessingTime`);
  checkPeriod(input.startDate, input.endDate, `${prefix}endDate`);
  return input;
}

const MaterialProperty = Nullable(
  Type.Object({ number: Type.String(), description: Nullable(Type.String()) }),
);
const Properties = Type.Object({
  id: Uuid,
  number: Type.String(),
  description: Nullable(Type.String()),
  productionOrderId: Uuid,
  sequence: Type.Integer(),
  material: MaterialProperty,
  operationPhaseId: Type.Enum([...OPERATION_PHASE_IDS]),
  workplaceId: Nullable(Uuid),
  workplaceGroupId: Nullable(Uuid),
  targetQuantity: Nullable(Type.Number()),
  quantityUnit: Nullable(Type.String()),
  targetTimePerUnit: Nullable(Type.Integer()),
  targetProcessingTime: Nullable(Type.Number({ description: 'targetQuantity x targetTimePerUnit, ms' })),
  targetSetupTime: Nullable(Type.Integer()),
  targetTeardownTime: Nullable(Type.Integer()),
  targetMoveTime: Nullable(Type.Integer()),
  targetWaitTime: Nullable(Type.Integer()),
  components: Type.Array(
    Type.Object({
      materialNumber: Type.String(),
      description: Nullable(Type.String()),
      quantity: Nullable(Type.Number()),
      quantityUnit: Nullable(Type.String()),
    }),
  ),
  productionResourcesAndTools: Type.Array(
    Type.Object({
      type: Nullable(Type.String()),
      identifier: Type.String(),
      description: Nullable(Type.String()),
      toolId: Nullable(Uuid),
    }),
  ),
  startDate: Nullable(DateTime),
  endDate: Nullable(DateTime),
});
const OperationSchema = Resource(
  Properties,
  'Operation: one step of a production order. Action links changeOperationPhaseTo<PHASE> (POST) for each phase allowed next',
);
const RecordedOperationPhaseSchema = Resource(
  Type.Object({
    id: Uuid,
    operationId: Uuid,
    operationPhaseId: Type.Enum([...OPERATION_PHASE_IDS]),
    workplaceId: Nullable(Uuid),
    staffMemberId: Nullable(Uuid),
    startDate: DateTime,
    endDate: Nullable(DateTime),
  }),
  'A period in one operation phase',
);

const List = <T extends Type.TSchema>(item: T) => Type.Optional(Type.Array(item, { maxItems: 1000 }));
const PhaseIdSchema = Type.Enum([...OPERATION_PHASE_IDS]);
const ListQuery = Type.Object(
  {
    ...KeysetQuery,
    productionOrderId: Type.Optional(Uuid),
    workplaceId: Type.Optional(Uuid),
    operationPhaseId: Type.Optional(PhaseIdSchema),
    startDate: Type.Optional(DateTime),
    endDate: Type.Optional(DateTime),
    embed: EmbedQuery,
  },
  { additionalProperties: false },
);
const SearchBody = Type.Object(
  {
    productionOrderNumbers: List(Type.String({ maxLength: 100 })),
    productionOrderIds: List(Uuid),
    operationPhaseIds: List(PhaseIdSchema),
    workplaceIds: List(Uuid),
    materialNumbers: List(Type.String({ maxLength: 100 })),
    startDate: Type.Optional(DateTime),
    endDate: Type.Optional(DateTime),
  },
  { additionalProperties: false, description: 'Each list matches any of its values; lists combine with AND' },
);
const SearchQuery = Type.Object({ ...KeysetQuery, embed: EmbedQuery }, { additionalProperties: false });
const CreateBody = Type.Object(
  { productionOrderId: Uuid, ...operationFields },
  { additionalProperties: false },
);
const ReplaceBody = Type.Object(
  {
    id: Type.Optional(Type.String({ maxLength: 100, description: 'Must equal the path id when sent' })),
    productionOrderId: Uuid,
    ...operationFields,
  },
  { additionalProperties: false },
);
const PhaseBody = Type.Object(
  { workplaceId: Type.Optional(Uuid), staffMemberId: Type.Optional(Uuid) },
  { additionalProperties: false },
);
const Collection = KeysetCollection('operations', OperationSchema);
const tags = ['operations'];

const positionOf = (operation: Operation): KeysetPosition => ({
  paginationTimestamp: operation.updatedAt.toISOString(),
  paginationIdentifier: operation.id,
});

export function registerOperations(api: Api, { db }: ServerDeps): void {
  /** Presents operations, loading what they embed once per distinct id. */
  async function present(
    request: FastifyRequest,
    operations: Operation[],
    embed: ReadonlySet<OperationEmbed>,
  ) {
    const orders = new Map<string, HalResource>();
    if (embed.has('productionOrder')) {
      const ids = [...new Set(operations.map((operation) => operation.productionOrderId))];
      for (const order of await findProductionOrders(db, ids))
        orders.set(order.id, presentProductionOrder(order, request.hrefs));
    }
    const workplaces = new Map<string, HalResource>();
    if (embed.has('workplace')) {
      const view = {
        hrefs: request.hrefs,
        locale: request.locale,
        canWrite: canWrite(request),
        embed: new Set<never>(),
        groups: new Map(),
      };
      const ids = [
        ...new Set(operations.flatMap((operation) => (operation.workplaceId ? [operation.workplaceId] : []))),
      ];
      for (const workplace of await findWorkplaces(db, ids))
        workplaces.set(workplace.id, presentWorkplace(workplace, view));
    }
    return operations.map((operation) =>
      presentOperation(operation, {
        hrefs: request.hrefs,
        canWrite: canWrite(request),
        embedded: {
          productionOrder: orders.get(operation.productionOrderId),
          workplace: operation.workplaceId ? workplaces.get(operation.workplaceId) : undefined,
        },
      }),
    );
  }

  const presentOne = async (
    request: FastifyRequest,
    operation: Operation,
    embed = new Set<OperationEmbed>(),
  ) => (await present(request, [operation], embed))[0];

  /** One page of operations, for GET /operations and its search. */
  async function page(
    request: FastifyRequest,
    query: Static<typeof SearchQuery>,
    filter: OperationFilter,
    path: string,
    filterQuery: QueryValues,
  ) {
    const position = keysetPosition(query);
    const embed = parseEmbed(query.embed, OPERATION_EMBEDS);
    const result = await repository.listOperations(db, filter, position);
    return keysetCollection(
      {
        hrefs: request.hrefs,
        path,
        name: 'operations',
        query: { ...filterQuery, embed: embedQuery(embed) },
        pagingMethod: path === OPERATIONS_PATH ? undefined : 'POST',
        create:
          canWrite(request) && path === OPERATIONS_PATH
            ? { rel: 'createOperation', href: request.hrefs.api(OPERATIONS_PATH) }
            : undefined,
      },
      await present(request, result.items, embed),
      result,
      pagingAsked(query),
      positionOf,
    );
  }

  api.get(
    OPERATIONS_PATH,
    {
      schema: {
        tags,
        summary: 'List operations, newest change first (timestamp pagination)',
        description:
          'startDate/endDate: operations planned to end before startDate or start after endDate are left out.',
        querystring: ListQuery,
        response: { 200: Collection, ...errorResponses() },
      },
    },
    async (request) => {
      const { productionOrderId, workplaceId, operationPhaseId, startDate, endDate } = request.query;
      return page(
        request,
        request.query,
        {
          productionOrderIds: productionOrderId ? [productionOrderId] : undefined,
          workplaceIds: workplaceId ? [workplaceId] : undefined,
          operationPhaseIds: operationPhaseId ? [operationPhaseId] : undefined,
          startDate: date(startDate) ?? undefined,
          endDate: date(endDate) ?? undefined,
        },
        OPERATIONS_PATH,
        { productionOrderId, workplaceId, operationPhaseId, startDate, endDate },
      );
    },
  );

  api.post(
    `${OPERATIONS_PATH}/search`,
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'Search operations (read scope; answer as GET /operations)',
        description: 'Paging links are POSTs to this URL: send the same body again.',
        querystring: SearchQuery,
        body: SearchBody,
        response: { 200: Collection, ...errorResponses(415) },
      },
    },
    async (request) => {
      const body = request.body;
      return page(
        request,
        request.query,
        { ...body, startDate: date(body.startDate) ?? undefined, endDate: date(body.endDate) ?? undefined },
        `${OPERATIONS_PATH}/search`,
        {},
      );
    },
  );

  api.get(
    `${OPERATIONS_PATH}/:id`,
    {
      schema: {
        tags,
        summary: 'One operation',
        params: IdParams,
        querystring: EmbedOnly,
        response: { 200: OperationSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const embed = parseEmbed(request.query.embed, OPERATION_EMBEDS);
      return presentOne(request, await service.getOperation(db, request.params.id), embed);
    },
  );

  api.post(
    OPERATIONS_PATH,
    {
      schema: {
        tags,
        summary: 'Create an operation, RELEASED (emits OPERATION_CREATED)',
        body: CreateBody,
        response: { 201: OperationSchema, ...errorResponses(415) },
      },
    },
    async (request, reply) => {
      const operation = await service.createOperation(
        db,
        operationInput(request.body, request.body.productionOrderId),
      );
      const representation = await presentOne(request, operation);
      return reply.code(201).header('location', representation?._links.self?.href).send(representation);
    },
  );

  api.put(
    `${OPERATIONS_PATH}/:id`,
    {
      schema: {
        tags,
        summary: 'Replace an operation (emits OPERATION_UPDATED when a characteristic property changes)',
        description: 'The phase is changed by its command only; a missing sequence keeps the position.',
        params: IdParams,
        body: ReplaceBody,
        response: { 200: OperationSchema, ...errorResponses(404, 415) },
      },
    },
    async (request) => {
      checkBodyId(request.body.id, request.params.id);
      const operation = await service.replaceOperation(
        db,
        request.params.id,
        operationInput(request.body, request.body.productionOrderId),
      );
      return presentOne(request, operation);
    },
  );

  api.delete(
    `${OPERATIONS_PATH}/:id`,
    {
      schema: {
        tags,
        summary: 'Delete an operation (emits OPERATION_DELETED)',
        params: IdParams,
        response: { 204: Type.Null(), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await service.deleteOperation(db, request.params.id);
      return reply.code(204).send();
    },
  );

  api.post(
    `${OPERATIONS_PATH}/:id/:operationPhaseId`,
    {
      schema: {
        tags,
        summary: 'Change the operation phase (emits OPERATION_PHASE_CHANGED)',
        description:
          'Transitions: see docs. SETUP, TRAINING and PROCESSING need a workplace: the body one (which becomes ' +
          "the operation's workplace) or the planned one. The body may be left out.",
        params: Type.Object({
          id: Type.String({ maxLength: 100 }),
          operationPhaseId: Type.String({ maxLength: 100 }),
        }),
        body: PhaseBody,
        response: { 200: OperationSchema, ...errorResponses(404, 415) },
      },
      // The body may be left out: no body means {}. (JSON null is still refused as not an object.)
      preValidation: async (request) => {
        if (request.body === undefined) request.body = {};
      },
    },
    async (request) =>
      presentOne(
        request,
        await service.changeOperationPhase(
          db,
          request.params.id,
          request.params.operationPhaseId,
          request.body,
        ),
      ),
  );

  registerHistoryRoutes(api, db, {
    tags,
    ownerPath: OPERATIONS_PATH,
    name: 'recordedOperationPhases',
    singular: 'recordedOperationPhase',
    summary: 'History of operation phases, newest first (timestamp pagination)',
    schema: RecordedOperationPhaseSchema,
    ownerId: async (tx, id) => (await service.getOperation(tx, id)).id,
    history: { list: repository.listRecordedOperationPhases, find: repository.findRecordedOperationPhase },
    present: (record, request) => presentRecordedOperationPhase(record, request.hrefs),
  });
}
