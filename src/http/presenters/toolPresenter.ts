import type { OffsetPage } from '../../db/paging.ts';
import { canChangeToolAssemblyOrderState } from '../../domain/toolAssemblyOrderStates.ts';
import {
  type Characteristic,
  nextToolAssemblyOrderState,
  type ToolAssemblyOrder,
  type ToolEdge,
  type ToolView,
} from '../../domain/tools.ts';
import type { ToolLocation } from '../../services/toolService.ts';
import { link, offsetCollection, type Resource, resource } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';
import {
  OPERATIONS_PATH,
  TOOL_ASSEMBLY_ORDER_STATES_PATH,
  TOOL_ASSEMBLY_ORDERS_PATH,
  TOOLS_PATH,
  toolEdgesPath,
  toolLocationPath,
  WORKPLACES_PATH,
} from '../paths.ts';
import { textLinks } from './texts.ts';

/** A tool embeds its description literal and the workplace it is at. */
export const TOOL_EMBEDS = ['description', 'workplace'] as const;

/** A tool; `workplace`: its site as the workplace resource, when that is to be embedded. */
export function presentTool(tool: ToolView, hrefs: Hrefs, workplace?: Resource): Resource {
  return resource(
    {
      id: tool.id,
      number: tool.number,
      description: tool.description,
      storageLocation: tool.storageLocation,
      workplaceId: tool.workplaceId,
      lifespan: tool.lifespan,
      toolStateId: tool.toolStateId,
      name: tool.name,
      identifier1: tool.number,
      identifier2: tool.identifier2,
      identifier3: tool.identifier3,
      documentUrl: tool.documentUrl,
      group: tool.group,
      class: tool.toolClass,
      lifeTime: tool.lifeTime,
    },
    {
      self: link(hrefs.api(`${TOOLS_PATH}/${tool.id}`)),
      ...textLinks(hrefs, 'tools', tool),
      workplace: tool.workplaceId
        ? link(hrefs.api(`${WORKPLACES_PATH}/${tool.workplaceId}`), { embeddable: true })
        : undefined,
      toolAssemblyOrder: tool.toolAssemblyOrderId
        ? link(hrefs.api(`${TOOL_ASSEMBLY_ORDERS_PATH}/${tool.toolAssemblyOrderId}`))
        : undefined,
      edges: link(hrefs.api(toolEdgesPath(tool.id))),
      location: link(hrefs.api(toolLocationPath(tool.id))),
    },
    workplace ? { workplace } : {},
  );
}

export function presentToolEdge(edge: ToolEdge, hrefs: Hrefs): Resource {
  const self = `${toolEdgesPath(edge.toolId)}/${edge.id}`;
  return resource(
    { id: edge.id, identifier: edge.identifier, lifeTime: edge.lifeTime },
    {
      self: link(hrefs.api(self)),
      characteristics: link(hrefs.api(`${self}/characteristics`)),
      tool: link(hrefs.api(`${TOOLS_PATH}/${edge.toolId}`)),
    },
  );
}

export function presentToolLocation(location: ToolLocation, hrefs: Hrefs): Resource {
  const { workplace, place } = location;
  const geo = place.geoCoordinates;
  return resource(
    {
      workplace: {
        id: workplace.id,
        number: workplace.number,
        description: workplace.description,
        erpContextId: workplace.erpContextId,
      },
      magazineNumber: place.magazineNumber,
      magazinePlace: place.magazinePlace,
      geoCoordinates:
        geo === null ? null : { latitude: geo.latitude ?? null, longitude: geo.longitude ?? null },
    },
    {
      self: link(hrefs.api(toolLocationPath(location.toolId))),
      tool: link(hrefs.api(`${TOOLS_PATH}/${location.toolId}`)),
      workplace: link(hrefs.api(`${WORKPLACES_PATH}/${workplace.id}`)),
    },
  );
}

/** The SDK's characteristic collection: the page as `properties.elements`, offset paging links. */
export function presentCharacteristics(
  path: string,
  page: OffsetPage<Characteristic>,
  asked: { limit: number; offset: number },
  hrefs: Hrefs,
) {
  // offsetCollection counts the items it is given and links the pages; the elements are no resources.
  const collection = offsetCollection({ hrefs, path, name: 'characteristics', query: {} }, [], page, asked);
  const count = page.items.length;
  const { self, first, last, previous } = collection._links;
  const next =
    asked.offset + count < page.total
      ? link(hrefs.api(path, { limit: asked.limit, offset: asked.offset + asked.limit }))
      : undefined;
  return {
    properties: { elements: page.items },
    pagination: { ...collection.pagination, count, lastIdentifier: null, firstIdentifier: null },
    _links: { self, first, last, ...(previous ? { previous } : {}), ...(next ? { next } : {}) },
  };
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
