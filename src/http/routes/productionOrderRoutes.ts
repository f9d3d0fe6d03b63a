import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { operationsOfOrders } from '../../db/repositories/operationRepository.ts';
import * as repository from '../../db/repositories/productionOrderRepository.ts';
import { findWorkplaces } from '../../db/repositories/workplaceRepository.ts';
import { OPERATION_PHASE_IDS } from '../../domain/operationPhases.ts';
import type { Operation } from '../../domain/operations.ts';
import type { ProductionOrder, ProductionOrderFilter } from '../../domain/productionOrders.ts';
import * as service from '../../services/productionOrderService.ts';
import type { Api } from '../api.ts';
import type { ServerDeps } from '../deps.ts';
import {
  elementsAnswer,
  OffsetPagination,
  pageOf,
  registerElementsRoute,
  registerObjectRoute,
} from '../elementRoutes.ts';
import { link, positionBy, type Resource, resource } from '../hal.ts';
import { operationViewOf } from '../operationViews.ts';
import { PRODUCTION_ORDERS_PATH } from '../paths.ts';
import { presentOperation, scheduledDatesProperties } from '../presenters/operationPresenter.ts';
import {
  orderReference,
  PRODUCTION_ORDER_EMBEDS,
  type ProductionOrderEmbed,
  presentProductionOrder,
} from '../presenters/productionOrderPresenter.ts';
import { iso } from '../presenters/properties.ts';
import { resourceRoutes } from '../resourceRoutes.ts';
import { registerRoute } from '../route.ts';
import {
  Nullable,
  nullableDate,
  OffsetQuery,
  offsetPage,
  optional,
  periodOf,
  Resource as ResourceSchema,
} from '../schemas/common.ts';
import {
  operationInput,
  ScheduledDatesBody,
  ScheduledDatesProperties,
  scheduledDatesInput,
} from '../schemas/operationSchemas.ts';
import {
  CreateProductionOrderBody,
  orderInput,
  ProductionOrderFilters,
  ProductionOrderSchema,
  ProductionOrderSearchBody,
  ReplaceProductionOrderBody,
} from '../schemas/productionOrderSchemas.ts';

export function registerProductionOrders(api: Api, { db }: ServerDeps): void {
  const presentOperations = async (
    request: FastifyRequest,
    operations: Operation[],
    orders: readonly ProductionOrder[],
  ) => {
    const view = await operationViewOf(db, request, operations, orders);
    return operations.map((operation) => presentOperation(operation, view));
  };

  /** Presents orders, loading the embedded operations in one query. */
  async function presentPage(
    orders: ProductionOrder[],
    request: FastifyRequest,
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
    if (!embed.has('operations')) return orders.map((order) => presentProductionOrder(order, request.hrefs));
    const presented = await presentOperations(request, [...byOrder.values()].flat(), orders);
    const byId = new Map(presented.map((operation) => [operation.properties.id as string, operation]));
    return orders.map((order) =>
      presentProductionOrder(
        order,
        request.hrefs,
        (byOrder.get(order.id) ?? []).map((operation) => byId.get(operation.id) as Resource),
      ),
    );
  }

  const orders = resourceRoutes(api, {
    path: PRODUCTION_ORDERS_PATH,
    schema: ProductionOrderSchema,
    embeds: PRODUCTION_ORDER_EMBEDS,
    presentPage,
    texts: { db, table: 'production_orders' },
  });
  orders.list({
    summary: 'List production orders, newest change first (timestamp pagination)',
    description:
      'startDate/endDate: orders ending (basicEndDate) before startDate or starting (basicStartDate) ' +
      'after endDate are left out.',
    position: positionBy('updatedAt'),
    filters: ProductionOrderFilters,
    filter: ({ startDate, endDate, productionOrderNumber, materialNumber }): ProductionOrderFilter => ({
      numbers: productionOrderNumber === undefined ? undefined : [productionOrderNumber],
      materialNumbers: materialNumber === undefined ? undefined : [materialNumber],
      ...periodOf({ startDate, endDate }),
    }),
    load: (filter, page) => repository.listProductionOrders(db, filter, page),
    search: {
      summary: 'Search production orders (read scope; answer as GET /productionOrders)',
      body: ProductionOrderSearchBody,
      filter: (body) => ({
        ids: body.productionOrderIds,
        numbers: body.productionOrderNumbers,
        materialNumbers: body.materialNumbers,
        ...periodOf(body),
      }),
    },
  });
  orders.get({ load: (at) => service.getProductionOrder(db, at.id) });
  orders.create({
    summary: 'Create a production order, optionally with its operations (emits PRODUCTION_ORDER_CREATED)',
    description: 'With `operations`, the answer embeds them; each emits OPERATION_CREATED.',
    body: CreateProductionOrderBody,
    run: async ({ operations: sent, ...body }) => {
      // The order's id does not exist yet: the service sets it.
      const drafts = (sent ?? []).map((fields, index) => {
        const { productionOrderId: _notYetKnown, ...draft } = operationInput(
          fields,
          '',
          `operations[${index}].`,
        );
        return draft;
      });
      return {
        sent: sent !== undefined,
        ...(await service.createProductionOrder(db, orderInput(body), drafts)),
      };
    },
    present: async ({ sent, order, operations }, request) =>
      presentProductionOrder(
        order,
        request.hrefs,
        sent ? await presentOperations(request, operations, [order]) : undefined,
      ),
  });
  orders.replace({
    summary: 'Replace a production order (emits PRODUCTION_ORDER_UPDATED when a property changes)',
    body: ReplaceProductionOrderBody,
    run: (body, at) => service.replaceProductionOrder(db, at.id, orderInput(body)),
  });
  orders.remove({
    summary:
      'Delete a production order and its operations (emits OPERATION_DELETED for each, then PRODUCTION_ORDER_DELETED)',
    run: (at) => service.deleteProductionOrder(db, at.id),
  });
  registerOrderDetails(api, db);
}

const OrderScheduledDatesSchema = Type.Object({
  scheduledStartDate: Nullable(Type.String({ format: 'date-time' })),
  scheduledEndDate: Nullable(Type.String({ format: 'date-time' })),
  elements: Type.Array(Type.Object({ operationId: Type.String(), scheduledDates: ScheduledDatesProperties })),
});
const SchedulingResultBody = Type.Object(
  {
    scheduledStartDate: optional(Type.String({ format: 'date-time' })),
    scheduledEndDate: optional(Type.String({ format: 'date-time' })),
    elements: Type.Optional(
      Type.Array(
        Type.Object(
          { operationId: Type.String({ format: 'uuid' }), scheduledDates: ScheduledDatesBody },
          { additionalProperties: false },
        ),
        { maxItems: 1000 },
      ),
    ),
  },
  { additionalProperties: false },
);
const SequenceFilters = {
  operationNumber: Type.Optional(Type.String({ maxLength: 100 })),
  operationSplit: Type.Optional(Type.String({ maxLength: 100 })),
  materialNumber: Type.Optional(Type.String({ maxLength: 100 })),
  workplaceNumber: Type.Optional(Type.String({ maxLength: 100 })),
  operationPhaseId: Type.Optional(Type.Enum([...OPERATION_PHASE_IDS])),
};
const OperationInSequence = Type.Object({
  id: Type.String(),
  number: Type.String(),
  split: Nullable(Type.String()),
  description: Nullable(Type.String()),
  productionOrder: Type.Unknown(),
  material: Type.Unknown(),
  erpContextId: Nullable(Type.String()),
  sequenceNumber: Type.Integer(),
});

/** The order's sub-resources (docs/resources/production-orders.md, "Sub-resources"). */
function registerOrderDetails(api: Api, db: ServerDeps['db']): void {
  const tags = ['productionOrders'];
  const below = (name: string) => `${PRODUCTION_ORDERS_PATH}/:id/${name}`;

  registerObjectRoute(api, {
    tags,
    path: below('specification'),
    operationId: 'getProductionOrderSpecification',
    summary: "The order's target quantity and basic dates, as stored",
    description: 'priority and degreeOfParallelization: null, as the bridge does not keep them.',
    properties: Type.Object({
      targetQuantity: Nullable(Type.Number()),
      quantityUnit: Nullable(Type.String()),
      basicStartDate: Nullable(Type.String({ format: 'date-time' })),
      basicEndDate: Nullable(Type.String({ format: 'date-time' })),
      priority: Type.Null(),
      degreeOfParallelization: Type.Null(),
    }),
    load: async (id, _query, request) => {
      const order = await service.getProductionOrder(db, id);
      return {
        properties: {
          targetQuantity: order.targetQuantity,
          quantityUnit: order.quantityUnit,
          basicStartDate: iso(order.basicStartDate),
          basicEndDate: iso(order.basicEndDate),
          priority: null,
          degreeOfParallelization: null,
        },
        links: { productionOrder: link(request.hrefs.api(`${PRODUCTION_ORDERS_PATH}/${order.id}`)) },
      };
    },
  });

  registerElementsRoute(api, {
    tags,
    path: below('operationSequence'),
    operationId: 'getProductionOrderOperationSequence',
    summary: "The order's operations in sequence, each with its predecessor and successor",
    description:
      'The sequence is the operations in their position order. successors: the next operation, with this ' +
      "operation's targetWaitTime and targetMoveTime; predecessors: the previous one (its queue, send-ahead, " +
      'offset and overlap times are null: not kept). Filters pick elements; neighbours stay those of the whole sequence.',
    filters: SequenceFilters,
    element: Type.Object({
      operation: OperationInSequence,
      predecessors: Type.Array(Type.Unknown()),
      successors: Type.Array(Type.Unknown()),
    }),
    load: async (id, filters, page) => {
      const order = await service.getProductionOrder(db, id);
      const operations = await operationsOfOrders(db, [order.id]);
      const workplaces = new Map(
        (
          await findWorkplaces(db, [
            ...new Set(operations.flatMap((operation) => operation.workplaceId ?? [])),
          ])
        ).map((workplace) => [workplace.id, workplace.number]),
      );
      const elements = operations.map((operation, index) => ({
        operation,
        order,
        previous: operations[index - 1],
        next: operations[index + 1],
      }));
      const picked = elements.filter(
        ({ operation }) =>
          (filters.operationNumber === undefined || operation.number === filters.operationNumber) &&
          (filters.operationSplit === undefined || operation.split === filters.operationSplit) &&
          (filters.materialNumber === undefined ||
            (operation.material ?? order.material)?.number === filters.materialNumber) &&
          (filters.workplaceNumber === undefined ||
            (operation.workplaceId !== null &&
              workplaces.get(operation.workplaceId) === filters.workplaceNumber)) &&
          (filters.operationPhaseId === undefined || operation.operationPhaseId === filters.operationPhaseId),
      );
      return pageOf(picked, page);
    },
    present: ({ operation, order, previous, next }) => ({
      operation: {
        id: operation.id,
        number: operation.number,
        split: operation.split,
        description: operation.description,
        productionOrder: orderReference(order),
        material: operation.material ?? order.material,
        erpContextId: operation.erpContextId,
        sequenceNumber: operation.sequence,
      },
      predecessors: previous
        ? [
            {
              operationId: previous.id,
              targetQueueTime: null,
              minimumSendAheadQuantity: null,
              minimumOffsetTime: null,
              minimumOverlapTime: null,
            },
          ]
        : [],
      successors: next
        ? [
            {
              operationId: next.id,
              targetWaitTime: operation.targetWaitTime,
              targetMoveTime: operation.targetMoveTime,
            },
          ]
        : [],
    }),
    links: (id, request) => ({ productionOrder: link(request.hrefs.api(`${PRODUCTION_ORDERS_PATH}/${id}`)) }),
  });

  const presentScheduling = (order: ProductionOrder, operations: Operation[], request: FastifyRequest) =>
    resource(
      {
        scheduledStartDate: iso(order.scheduledStartDate),
        scheduledEndDate: iso(order.scheduledEndDate),
        elements: operations.map((operation) => ({
          operationId: operation.id,
          scheduledDates: scheduledDatesProperties(operation.scheduledDates),
        })),
      },
      {
        self: link(request.hrefs.api(`${PRODUCTION_ORDERS_PATH}/${order.id}/scheduledDates`)),
        productionOrder: link(request.hrefs.api(`${PRODUCTION_ORDERS_PATH}/${order.id}`)),
      },
    );
  const schedulingSchema = ResourceSchema(OrderScheduledDatesSchema, 'The scheduling result of an order');
  registerRoute(api, {
    method: 'GET',
    path: below('scheduledDates'),
    tags,
    operationId: 'getProductionOrderSchedulingResults',
    summary: 'The scheduled dates of the order and of each of its operations, as stored (offset pages)',
    description: "A page holds the order's dates and those of its operations in sequence order.",
    querystring: Type.Object(OffsetQuery, { additionalProperties: false }),
    response: {
      200: Type.Object({
        properties: OrderScheduledDatesSchema,
        pagination: OffsetPagination,
        _links: Type.Record(Type.String(), Type.Unknown()),
      }),
    },
    errors: [404],
    handler: async (request) => {
      const order = await service.getProductionOrder(db, request.params.id);
      const asked = offsetPage(request.query);
      const page = pageOf(await operationsOfOrders(db, [order.id]), asked);
      const answer = presentScheduling(order, page.items, request);
      const path = `${PRODUCTION_ORDERS_PATH}/${order.id}/scheduledDates`;
      const paged = elementsAnswer(request, path, {}, page, asked, () => null);
      return {
        properties: answer.properties,
        pagination: paged.pagination,
        _links: { ...answer._links, ...paged._links },
      };
    },
  });
  registerRoute(api, {
    method: 'PUT',
    path: below('scheduledDates'),
    tags,
    operationId: 'updateProductionOrderSchedulingResults',
    summary:
      'Store a scheduling result: the order’s dates and those of the operations named ' +
      '(emits PRODUCTION_ORDER_UPDATED and OPERATION_UPDATED for what changes)',
    description:
      'Dates left out are null; operations not named keep theirs. An operation of another order is 400.',
    body: SchedulingResultBody,
    response: { 200: schedulingSchema },
    errors: [404, 415],
    handler: async (request) => {
      const body = request.body;
      const { order, operations } = await service.replaceScheduledDates(db, request.params.id, {
        scheduledStartDate: nullableDate(body.scheduledStartDate),
        scheduledEndDate: nullableDate(body.scheduledEndDate),
        elements: (body.elements ?? []).map((element, index) => ({
          operationId: element.operationId,
          scheduledDates: scheduledDatesInput(element.scheduledDates, `elements[${index}].scheduledDates.`),
        })),
      });
      return presentScheduling(order, operations, request);
    },
  });
}
