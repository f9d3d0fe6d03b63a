import { canChangeToolAssemblyOrderState } from '../../domain/toolAssemblyOrderStates.ts';
import { nextToolAssemblyOrderState, type ToolAssemblyOrder, type ToolView } from '../../domain/tools.ts';
import { link, type Resource, resource } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';
import {
  OPERATIONS_PATH,
  TOOL_ASSEMBLY_ORDER_STATES_PATH,
  TOOL_ASSEMBLY_ORDERS_PATH,
  TOOLS_PATH,
  WORKPLACES_PATH,
} from '../paths.ts';

export function presentTool(tool: ToolView, hrefs: Hrefs): Resource {
  return resource(
    {
      id: tool.id,
      number: tool.number,
      description: tool.description,
      storageLocation: tool.storageLocation,
      workplaceId: tool.workplaceId,
      lifespan: tool.lifespan,
      toolStateId: tool.toolStateId,
    },
    {
      self: link(hrefs.api(`${TOOLS_PATH}/${tool.id}`)),
      workplace: tool.workplaceId ? link(hrefs.api(`${WORKPLACES_PATH}/${tool.workplaceId}`)) : undefined,
      toolAssemblyOrder: link(hrefs.api(`${TOOL_ASSEMBLY_ORDERS_PATH}/${tool.toolAssemblyOrderId}`)),
    },
  );
}

/**
 * An order with its state actions (docs/api.md, "States and transitions"), offered to writers and only when allowed now:
 * `updateToolAssemblyOrderState` to the next state of the main lifecycle, and
 * `setToolAssemblyOrderStateUnavailable` for the exit to UNAVAILABLE.
 */
export function presentToolAssemblyOrder(
  order: ToolAssemblyOrder,
  hrefs: Hrefs,
  canWrite: boolean,
): Resource {
  const self = `${TOOL_ASSEMBLY_ORDERS_PATH}/${order.id}`;
  const state = order.toolAssemblyOrderStateId;
  const next = canWrite ? nextToolAssemblyOrderState(state) : undefined;
  const action = (target: string) => link(hrefs.api(`${self}/${target}`), { method: 'POST' });
  return resource(
    {
      id: order.id,
      toolId: order.toolId,
      toolDescription: order.toolDescription,
      targetWorkplaceId: order.targetWorkplaceId,
      operationId: order.operationId,
      toolAssemblyOrderStateId: state,
      createdAt: order.createdAt.toISOString(),
      updatedAt: order.updatedAt.toISOString(),
    },
    {
      self: link(hrefs.api(self)),
      tool: order.toolId ? link(hrefs.api(`${TOOLS_PATH}/${order.toolId}`)) : undefined,
      targetWorkplace: order.targetWorkplaceId
        ? link(hrefs.api(`${WORKPLACES_PATH}/${order.targetWorkplaceId}`))
        : undefined,
      operation: order.operationId ? link(hrefs.api(`${OPERATIONS_PATH}/${order.operationId}`)) : undefined,
      toolAssemblyOrderState: link(hrefs.api(`${TOOL_ASSEMBLY_ORDER_STATES_PATH}/${state}`)),
      updateToolAssemblyOrderState: next ? action(next) : undefined,
      setToolAssemblyOrderStateUnavailable:
        canWrite && canChangeToolAssemblyOrderState(state, 'UNAVAILABLE') ? action('UNAVAILABLE') : undefined,
    },
  );
}
