import type { FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import { operationsOfOrders } from '../../db/repositories/operations.ts';
import * as repository from '../../db/repositories/productionOrders.ts';
import type { Operation } from '../../domain/operations.ts';
import {
  checkPeriod,
  type ProductionOrder,
  type ProductionOrderFilter,
  type ProductionOrderInput,
} from '../../domain/productionOrders.ts';
import * as service from '../../services/productionOrders.ts';
import type { Api } from '../api.ts';
import { canWrite } from '../auth.ts';
import type { ServerDeps } from '../deps.ts';
import { embedQuery, parseEmbed } from '../embed.ts';
import { keysetCollection } from '../hal.ts';
import type { QueryValues } from '../hrefs.ts';
import { PRODUCTION_ORDERS_PATH } from '../paths.ts';
import { presentOperation } from '../presenters/operations.ts';
import {
  PRODUCTION_ORDER_EMBEDS,
  type ProductionOrderEmbed,
  presentProductionOrder,
} from '../presenters/productionOrders.ts';
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
import { MaterialSchema, operationFields, operationInput } from './operations.ts';

const Uuid = Type.String({ format: 'uuid' });
const DateTime = Type.String({ format: 'date-time' });
const optional = <T extends Type.TSchema>(schema: T) => Type.Optional(Nullable(schema));

const Properties = Type.Object({
  id: Uuid,
  number: Type.String(),
  description: Nullable(Type.String()),
  material: Nullable(Type.Object({ number: Type.String(), description: Nullable(Type.String()) })),
  targetQuantity: Nullable(Type.Number()),
  quantityUnit: Nullable(Type.String()),
  basicStartDate: Nullable(DateTime),
  basicEndDate: Nullable(DateTime),
  deliveryDate: Nullable(DateTime),
});
const ProductionOrderSchema = Resource(
  Properties,
  'Production order; embed=operations embeds its operations in sequence order',
);

const writable = {
  number: Type.String({ minLength: 1, maxLength: 100 }),
  description: optional(Type.String({ maxLength: 2000 })),
  material: optional(MaterialSchema),
  targetQuantity: optional(Type.Number({ minimum: 0, maximum: 1e12 })),
  quantityUnit: optional(Type.String({ maxLength: 20 })),
  basicStartDate: optional(DateTime),
  basicEndDate: optional(DateTime),
  deliveryDate: optional(DateTime),
};
const CreateBody = Type.Object(
  {
    ...writable,
    operations: Type.Optional(
      Type.Array(Type.Object(operationFields, { additionalProperties: false }), {
        maxItems: 1000,
        description: 'Operations created with the order, in one transaction',
      }),
    ),
  },
  { additionalProperties: false },
);
const ReplaceBody = Type.Object(
  {
    id: Type.Optional(Type.String({ maxLength: 100, description: 'Must equal the path id when sent' })),
    ...writable,
  },
  { additionalProperties: false },
);
const ListQuery = Type.Object(
  {
    ...KeysetQuery,
    startDate: Type.Optional(DateTime),
    endDate: Type.Optional(DateTime),
    productionOrderNumber: Type.Optional(Type.String({ maxLength: 100 })),
    materialNumber: Type.Optional(Type.String({ maxLength: 100 })),
    embed: EmbedQuery,
  },
  { additionalProperties: false },
);
const List = <T extends Type.TSchema>(item: T) => Type.Optional(Type.Array(item, { maxItems: 1000 }));
const SearchBody = Type.Object(
  {
    productionOrderNumbers: List(Type.String({ maxLength: 100 })),
    productionOrderIds: List(Uuid),
    materialNumbers: List(Type.String({ maxLength: 100 })),
    startDate: Type.Optional(DateTime),
    endDate: Type.Optional(DateTime),
  },
  { additionalProperties: false, description: 'Each list matches any of its values; lists combine with AND' },
);
const SearchQuery = Type.Object({ ...KeysetQuery, embed: EmbedQuery }, { additionalProperties: false });
const Collection = KeysetCollection('productionOrders', ProductionOrderSchema);
const tags = ['productionOrders'];

const date = (value: string | null | undefined) => (value == null ? null : new Date(value));
const maybeDate = (value: string | undefined) => (value === undefined ? undefined : new Date(value));

function orderInput(body: Static<typeof ReplaceBody>): ProductionOrderInput {
  const input: ProductionOrderInput = {
    number: body.number,
    description: body.description ?? null,
    material: body.material
      ? { number: body.material.number, description: body.material.description ?? null }
      : null,
    targetQuantity: body.targetQuantity ?? null,
    quantityUnit: body.quantityUnit ?? null,
    basicStartDate: date(body.basicStartDate),
    basicEndDate: date(body.basicEndDate),
    deliveryDate: date(body.deliveryDate),
  };
  checkPeriod(input.basicStartDate, input.basicEndDate ?? input.deliveryDate, 'basicEndDate');
  return input;
}

export function registerProductionOrders(api: Api, { db }: ServerDeps): void {
  const presentOperations = (request: FastifyRequest, operations: Operation[]) =>
    operations.map((operation) =>
      presentOperation(operation, { hrefs: request.hrefs, canWrite: canWrite(request) }),
    );

  /** Presents orders, loading the embedded operations in one query. */
  async function present(
    request: FastifyRequest,
    orders: ProductionOrder[],
    embed: ReadonlySet<ProductionOrderEmbed>,
  ) {
    const byOrder = new Map<string, Operation[]>(orders.map((order) => [order.id, []]));
    if (embed.has('operations')) {
      const operations = await operationsOfOrders(
        db,
        orders.map((order) => order.id),
      );
      for (const operation of operations) byOrder.get(operation.productionOrderId)?.push(operation);
    }
    return orders.map((order) =>
      presentProductionOrder(
        order,
        request.hrefs,
        embed.has('operations') ? presentOperations(request, byOrder.get(order.id) ?? []) : undefined,
      ),
    );
  }

  /** One page of orders, for GET /productionOrders and its search. */
  async function page(
    request: FastifyRequest,
    query: Static<typeof SearchQuery>,
    filter: ProductionOrderFilter,
    path: string,
    filterQuery: QueryValues,
  ) {
    const position = keysetPosition(query);
    const embed = parseEmbed(query.embed, PRODUCTION_ORDER_EMBEDS);
    const result = await repository.listProductionOrders(db, filter, position);
    return keysetCollection(
      {
        hrefs: request.hrefs,
        path,
        name: 'productionOrders',
        query: { ...filterQuery, embed: embedQuery(embed) },
        pagingMethod: path === PRODUCTION_ORDERS_PATH ? undefined : 'POST',
        create:
          canWrite(request) && path === PRODUCTION_ORDERS_PATH
            ? { rel: 'createProductionOrder', href: request.hrefs.api(PRODUCTION_ORDERS_PATH) }
            : undefined,
      },
      await present(request, result.items, embed),
      result,
      pagingAsked(query),
      (order) => ({ paginationTimestamp: order.updatedAt.toISOString(), paginationIdentifier: order.id }),
    );
  }

  api.get(
    PRODUCTION_ORDERS_PATH,
    {
      schema: {
        tags,
        summary: 'List production orders, newest change first (timestamp pagination)',
        description:
          'startDate/endDate: orders ending (basicEndDate) before startDate or starting (basicStartDate) ' +
          'after endDate are left out.',
        querystring: ListQuery,
        response: { 200: Collection, ...errorResponses() },
      },
    },
    async (request) => {
      const { startDate, endDate, productionOrderNumber, materialNumber } = request.query;
      return page(
        request,
        request.query,
        {
          numbers: productionOrderNumber === undefined ? undefined : [productionOrderNumber],
          materialNumbers: materialNumber === undefined ? undefined : [materialNumber],
          startDate: maybeDate(startDate),
          endDate: maybeDate(endDate),
        },
        PRODUCTION_ORDERS_PATH,
        { startDate, endDate, productionOrderNumber, materialNumber },
      );
    },
  );

  api.post(
    `${PRODUCTION_ORDERS_PATH}/search`,
    {
      config: { scope: 'read' },
      schema: {
        tags,
        summary: 'Search production orders (read scope; answer as GET /productionOrders)',
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
        {
          ids: body.productionOrderIds,
          numbers: body.productionOrderNumbers,
          materialNumbers: body.materialNumbers,
          startDate: maybeDate(body.startDate),
          endDate: maybeDate(body.endDate),
        },
        `${PRODUCTION_ORDERS_PATH}/search`,
        {},
      );
    },
  );

  api.get(
    `${PRODUCTION_ORDERS_PATH}/:id`,
    {
      schema: {
        tags,
        summary: 'One production order',
        params: IdParams,
        querystring: EmbedOnly,
        response: { 200: ProductionOrderSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const embed = parseEmbed(request.query.embed, PRODUCTION_ORDER_EMBEDS);
      const [representation] = await present(
        request,
        [await service.getProductionOrder(db, request.params.id)],
        embed,
      );
      return representation;
    },
  );

  api.post(
    PRODUCTION_ORDERS_PATH,
    {
      schema: {
        tags,
        summary: 'Create a production order, optionally with its operations (emits PRODUCTION_ORDER_CREATED)',
        description: 'With `operations`, the answer embeds them; each emits OPERATION_CREATED.',
        body: CreateBody,
        response: { 201: ProductionOrderSchema, ...errorResponses(415) },
      },
    },
    async (request, reply) => {
      const { operations: sent, ...body } = request.body;
      // The order's id does not exist yet: the service sets it.
      const drafts = (sent ?? []).map((fields, index) => {
        const { productionOrderId: _notYetKnown, ...draft } = operationInput(
          fields,
          '',
          `operations[${index}].`,
        );
        return draft;
      });
      const { order, operations } = await service.createProductionOrder(db, orderInput(body), drafts);
      const representation = presentProductionOrder(
        order,
        request.hrefs,
        sent === undefined ? undefined : presentOperations(request, operations),
      );
      return reply.code(201).header('location', representation._links.self?.href).send(representation);
    },
  );

  api.put(
    `${PRODUCTION_ORDERS_PATH}/:id`,
    {
      schema: {
        tags,
        summary: 'Replace a production order (emits PRODUCTION_ORDER_UPDATED when a property changes)',
        params: IdParams,
        body: ReplaceBody,
        response: { 200: ProductionOrderSchema, ...errorResponses(404, 415) },
      },
    },
    async (request) => {
      checkBodyId(request.body.id, request.params.id);
      const order = await service.replaceProductionOrder(db, request.params.id, orderInput(request.body));
      return presentProductionOrder(order, request.hrefs);
    },
  );

  api.delete(
    `${PRODUCTION_ORDERS_PATH}/:id`,
    {
      schema: {
        tags,
        summary:
          'Delete a production order and its operations (emits OPERATION_DELETED for each, then PRODUCTION_ORDER_DELETED)',
        params: IdParams,
        response: { 204: Type.Null(), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await service.deleteProductionOrder(db, request.params.id);
      return reply.code(204).send();
    },
  );
}
