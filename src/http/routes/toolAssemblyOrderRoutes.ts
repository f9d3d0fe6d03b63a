import * as repository from '../../db/repositories/toolAssemblyOrderRepository.ts';
import * as service from '../../services/toolAssemblyOrderService.ts';
import type { Api } from '../api.ts';
import type { ServerDeps } from '../deps.ts';
import { TOOL_ASSEMBLY_ORDERS_PATH } from '../paths.ts';
import { presentToolAssemblyOrder } from '../presenters/toolPresenter.ts';
import { resourceRoutes } from '../resourceRoutes.ts';
import {
  CreateToolAssemblyOrderBody,
  ToolAssemblyOrderFilters,
  ToolAssemblyOrderSchema,
  toLifespan,
} from '../schemas/toolSchemas.ts';

/** Tool assembly orders: `/tools/assemblyOrders` is a static path, so it wins over `/tools/:id`. */
export function registerToolAssemblyOrders(api: Api, { db }: ServerDeps): void {
  const orders = resourceRoutes(api, {
    path: TOOL_ASSEMBLY_ORDERS_PATH,
    name: 'toolAssemblyOrders',
    schema: ToolAssemblyOrderSchema,
    present: presentToolAssemblyOrder,
  });
  orders.list({
    summary: 'List tool assembly orders',
    filters: ToolAssemblyOrderFilters,
    load: (filter, page) => repository.listToolAssemblyOrders(db, filter, page),
  });
  orders.items(db, {
    input: (body) => ({
      toolNumber: body.toolNumber ?? null,
      toolDescription: body.toolDescription,
      targetWorkplaceId: body.targetWorkplaceId ?? null,
      operationId: body.operationId ?? null,
      storageLocation: body.storageLocation ?? null,
      lifespan: toLifespan(body.lifespan),
    }),
    get: { summary: 'One tool assembly order', run: service.getToolAssemblyOrder },
    create: {
      summary: 'Create a tool assembly order and its new tool (emits TOOL_CREATED)',
      description: 'The answer announces the new tool: properties.toolId and the `tool` link.',
      body: CreateToolAssemblyOrderBody,
      run: service.createToolAssemblyOrder,
    },
  });
  orders.command({
    path: ':toolAssemblyOrderStateId',
    summary: 'Set the state of a tool assembly order (emits TOOL_ASSEMBLY_ORDER_STATE_CHANGED)',
    description:
      'REQUESTED -> INITIATED -> ASSEMBLED -> PRESETTING -> AVAILABLE; UNAVAILABLE from any ' +
      'non-final state. Any other change: 400 INVALID_TRANSITION. Unknown state: 404.',
    run: (_body, at) =>
      service.changeToolAssemblyOrderState(db, at.id, at.params.toolAssemblyOrderStateId ?? ''),
  });
}
