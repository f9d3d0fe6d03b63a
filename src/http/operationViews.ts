// What every answer that shows operations loads for them, one query each for the whole page:
// their production orders and the workplaces they run at now (docs/resources/production-orders.md).
import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../db/database.ts';
import { findProductionOrders } from '../db/repositories/productionOrderRepository.ts';
import { findWorkplaces } from '../db/repositories/workplaceRepository.ts';
import type { Operation } from '../domain/operations.ts';
import type { ProductionOrder } from '../domain/productionOrders.ts';
import { canWrite } from './auth.ts';
import { currentWorkplaceId, type OperationView } from './presenters/operationPresenter.ts';

/** The view of these operations; `orders` when the caller has read them already. */
export async function operationViewOf(
  db: Queryable,
  request: FastifyRequest,
  operations: readonly Operation[],
  orders?: readonly ProductionOrder[],
): Promise<OperationView> {
  const orderIds = [...new Set(operations.map((operation) => operation.productionOrderId))];
  const workplaceIds = [...new Set(operations.flatMap((operation) => currentWorkplaceId(operation) ?? []))];
  const [foundOrders, workplaces] = await Promise.all([
    orders ?? findProductionOrders(db, orderIds),
    findWorkplaces(db, workplaceIds),
  ]);
  return {
    hrefs: request.hrefs,
    canWrite: canWrite(request),
    orders: new Map(foundOrders.map((order) => [order.id, order])),
    workplaces: new Map(workplaces.map((workplace) => [workplace.id, workplace])),
  };
}
