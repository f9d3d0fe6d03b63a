import type { FastifyRequest } from 'fastify';
import { operationsOfOrders } from '../../db/repositories/operationRepository.ts';
import * as repository from '../../db/repositories/productionOrderRepository.ts';
import type { Operation } from '../../domain/operations.ts';
import type { ProductionOrder, ProductionOrderFilter } from '../../domain/productionOrders.ts';
import * as service from '../../services/productionOrderService.ts';
import type { Api } from '../api.ts';
import { canWrite } from '../auth.ts';
import type { ServerDeps } from '../deps.ts';
import { PRODUCTION_ORDERS_PATH } from '../paths.ts';
import { presentOperation } from '../presenters/operationPresenter.ts';
import {
  PRODUCTION_ORDER_EMBEDS,
  type ProductionOrderEmbed,
  presentProductionOrder,
} from '../presenters/productionOrderPresenter.ts';
import { resourceRoutes } from '../resourceRoutes.ts';
import { dateOf } from '../schemas/common.ts';
import { operationInput } from '../schemas/operationSchemas.ts';
import {
  CreateProductionOrderBody,
  orderInput,
  ProductionOrderFilters,
  ProductionOrderSchema,
  ProductionOrderSearchBody,
  ReplaceProductionOrderBody,
} from '../schemas/productionOrderSchemas.ts';

export function registerProductionOrders(api: Api, { db }: ServerDeps): void {
  const presentOperations = (request: FastifyRequest, operations: Operation[], order: ProductionOrder) =>
    operations.map((operation) =>
      presentOperation(operation, {
        hrefs: request.hrefs,
        canWrite: canWrite(request),
        orders: new Map([[order.id, order]]),
      }),
    );

  /** Presents orders, loading the embedded operations in one query. */
  async function present(
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
    return orders.map((order) =>
      presentProductionOrder(
        order,
        request.hrefs,
        embed.has('operations') ? presentOperations(request, byOrder.get(order.id) ?? [], order) : undefined,
      ),
    );
  }

  const orders = resourceRoutes(api, {
    tags: ['productionOrders'],
    path: PRODUCTION_ORDERS_PATH,
    name: 'productionOrders',
    schema: ProductionOrderSchema,
    embeds: PRODUCTION_ORDER_EMBEDS,
    present,
  });
  orders.list({
    summary: 'List production orders, newest change first (timestamp pagination)',
    description:
      'startDate/endDate: orders ending (basicEndDate) before startDate or starting (basicStartDate) ' +
      'after endDate are left out.',
    paging: 'keyset',
    position: (order) => ({
      paginationTimestamp: order.updatedAt.toISOString(),
      paginationIdentifier: order.id,
    }),
    filters: ProductionOrderFilters,
    filter: ({ startDate, endDate, productionOrderNumber, materialNumber }): ProductionOrderFilter => ({
      numbers: productionOrderNumber === undefined ? undefined : [productionOrderNumber],
      materialNumbers: materialNumber === undefined ? undefined : [materialNumber],
      startDate: dateOf(startDate),
      endDate: dateOf(endDate),
    }),
    load: (filter, page) => repository.listProductionOrders(db, filter, page),
    createRel: 'createProductionOrder',
    search: {
      summary: 'Search production orders (read scope; answer as GET /productionOrders)',
      body: ProductionOrderSearchBody,
      filter: (body) => ({
        ids: body.productionOrderIds,
        numbers: body.productionOrderNumbers,
        materialNumbers: body.materialNumbers,
        startDate: dateOf(body.startDate),
        endDate: dateOf(body.endDate),
      }),
    },
  });
  orders.get({ summary: 'One production order', load: (at) => service.getProductionOrder(db, at.id) });
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
    present: ({ sent, order, operations }, request) =>
      presentProductionOrder(
        order,
        request.hrefs,
        sent ? presentOperations(request, operations, order) : undefined,
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
}
