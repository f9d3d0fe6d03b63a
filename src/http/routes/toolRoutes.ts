import { Type } from 'typebox';
import * as repository from '../../db/repositories/toolRepository.ts';
import type { ToolView } from '../../domain/tools.ts';
import * as service from '../../services/toolService.ts';
import type { Api } from '../api.ts';
import type { ServerDeps } from '../deps.ts';
import { link } from '../hal.ts';
import { TOOL_ASSEMBLY_ORDERS_PATH, TOOLS_PATH, toolEdgesPath, toolLocationPath } from '../paths.ts';
import {
  presentCharacteristics,
  presentTool,
  presentToolEdge,
  presentToolLocation,
  TOOL_EMBEDS,
} from '../presenters/toolPresenter.ts';
import { resourceRoutes } from '../resourceRoutes.ts';
import { registerRoute } from '../route.ts';
import { OffsetQuery, offsetPage } from '../schemas/common.ts';
import {
  CharacteristicCollectionSchema,
  CharacteristicsBody,
  CreateToolBody,
  CreateToolEdgeBody,
  EdgeFilters,
  ReplaceToolBody,
  ReplaceToolEdgeBody,
  ToolEdgeSchema,
  ToolFilters,
  ToolLocationBody,
  ToolLocationSchema,
  ToolSchema,
  toCharacteristics,
  toEdgeInput,
  toLocation,
  toolInput,
} from '../schemas/toolSchemas.ts';
import { singletonRoutes } from '../singletonRoutes.ts';
import { embeddableWorkplaces } from './workplaceRoutes.ts';

const tags = ['tools'];
const ToolParams = Type.Object({ id: Type.String({ maxLength: 100 }) });
const EdgeParams = Type.Object({
  id: Type.String({ maxLength: 100 }),
  edgeId: Type.String({ maxLength: 100 }),
});

/** Tools: created directly or through tool assembly orders (routes/toolAssemblyOrderRoutes.ts). */
export function registerTools(api: Api, { db }: ServerDeps): void {
  const tools = resourceRoutes(api, {
    path: TOOLS_PATH,
    schema: ToolSchema,
    embeds: TOOL_EMBEDS,
    // The page's sites in one read, only when `embed` names `workplace`.
    presentPage: async (items: ToolView[], request, embed) => {
      const sites = embed.has('workplace') ? items.flatMap((tool) => tool.workplaceId ?? []) : [];
      const workplaces = await embeddableWorkplaces(db, request, sites);
      return items.map((tool) =>
        presentTool(tool, request.hrefs, tool.workplaceId ? workplaces.get(tool.workplaceId) : undefined),
      );
    },
    texts: { db, table: 'tools' },
  });
  tools.list({
    summary: 'List tools',
    filters: ToolFilters,
    load: (filter, page) => repository.listTools(db, filter, page),
    links: (request) => ({ toolAssemblyOrders: link(request.hrefs.api(TOOL_ASSEMBLY_ORDERS_PATH)) }),
  });
  tools.get({ load: (at) => service.getTool(db, at.id) });
  tools.create({
    summary:
      'Create a tool without an assembly order, with its location and characteristics (emits TOOL_CREATED)',
    body: CreateToolBody,
    run: (body) =>
      service.createTool(db, {
        ...toolInput(body, body.identifier1, null),
        location: body.location ? toLocation(body.location, body.location.workplaceId) : null,
        characteristics: toCharacteristics(body.characteristics),
      }),
  });
  tools.replace({
    summary:
      'Replace a tool (emits TOOL_UPDATED when a characteristic property changes: names, identifiers, group, class, limits)',
    body: ReplaceToolBody,
    run: (body, at) => service.replaceTool(db, at.id, toolInput(body, body.number, body.workplaceId)),
  });
  tools.remove({
    summary:
      'Delete a tool with its edges and characteristics (emits TOOL_DELETED; refused while its assembly order is unfinished)',
    run: (at) => service.deleteTool(db, at.id),
  });
  tools.command({
    summary:
      'Set a tool’s state, AVAILABLE or UNAVAILABLE (saved without an event, as a change of condition)',
    path: ':toolStateId',
    run: (_body, at) => service.setToolState(db, at.id, at.params.toolStateId ?? ''),
  });
  registerToolEdges(api, db);
  registerToolCharacteristics(api, db);
  registerToolLocation(api, db);
}

function registerToolEdges(api: Api, db: ServerDeps['db']): void {
  const edges = resourceRoutes(api, {
    path: toolEdgesPath(':id'),
    itemParam: 'edgeId',
    schema: ToolEdgeSchema,
    present: presentToolEdge,
  });
  edges.list({
    summary: 'The cutting edges of a tool, oldest first',
    filters: EdgeFilters,
    owner: async (at) => (await service.getTool(db, at.id)).id,
    filter: (filters, at) => ({ toolId: at.owner, identifier: filters.identifier }),
    load: (filter, page) => repository.listToolEdges(db, filter, page),
    createRel: 'createToolEdge',
  });
  edges.get({
    summary: 'One cutting edge of a tool',
    load: (at) => service.getToolEdge(db, at.id, at.itemId),
  });
  edges.create({
    summary: 'Add a cutting edge with its characteristics (emits TOOL_UPDATED naming edges)',
    body: CreateToolEdgeBody,
    run: (body, at) =>
      service.createToolEdge(db, at.id, {
        ...toEdgeInput(body),
        characteristics: toCharacteristics(body.characteristics),
      }),
  });
  edges.replace({
    summary: 'Replace a cutting edge (emits TOOL_UPDATED naming edges when its identifier or limits change)',
    body: ReplaceToolEdgeBody,
    run: (body, at) => service.replaceToolEdge(db, at.id, at.itemId, toEdgeInput(body)),
  });
}

/** The characteristics of a tool and of each edge: the SDK's collection with `properties.elements`. */
function registerToolCharacteristics(api: Api, db: ServerDeps['db']): void {
  const owners = [
    { url: `${TOOLS_PATH}/:id/characteristics`, params: ToolParams, name: 'Tool' },
    { url: `${toolEdgesPath(':id')}/:edgeId/characteristics`, params: EdgeParams, name: 'ToolEdge' },
  ];
  for (const { url, params, name } of owners) {
    const ownerOf = (request: { params: unknown }) => {
      const { id, edgeId } = request.params as { id: string; edgeId?: string };
      return { toolId: id, edgeId: edgeId ?? null };
    };
    const answer = async (request: {
      params: unknown;
      query: unknown;
      hrefs: Parameters<typeof presentCharacteristics>[3];
      url: string;
    }) => {
      const owner = ownerOf(request);
      await service.checkCharacteristicsOwner(db, owner);
      const asked = offsetPage(request.query as { limit?: number; offset?: number });
      const page = await repository.listCharacteristics(db, owner, asked);
      const path =
        owner.edgeId === null
          ? `${TOOLS_PATH}/${owner.toolId}/characteristics`
          : `${toolEdgesPath(owner.toolId)}/${owner.edgeId}/characteristics`;
      return presentCharacteristics(path, page, asked, request.hrefs);
    };
    const response = { 200: CharacteristicCollectionSchema };
    registerRoute(api, {
      method: 'GET',
      path: url,
      tags,
      operationId: `get${name}Characteristics`,
      summary: `The characteristics of a ${name === 'Tool' ? 'tool' : 'cutting edge'}, in the order written`,
      params,
      querystring: Type.Object(OffsetQuery, { additionalProperties: false }),
      response,
      errors: [404],
      handler: answer,
    });
    registerRoute(api, {
      method: 'PUT',
      path: url,
      tags,
      operationId: `replace${name}Characteristics`,
      summary: 'Replace the characteristics with this list (emits TOOL_UPDATED naming them when they change)',
      params,
      body: CharacteristicsBody,
      response,
      errors: [404, 415],
      handler: async (request) => {
        await service.replaceToolCharacteristics(db, ownerOf(request), toCharacteristics(request.body));
        return answer({ ...request, query: {} });
      },
    });
  }
}

/** A tool's location: a singular sub-resource. */
function registerToolLocation(api: Api, db: ServerDeps['db']): void {
  const location = singletonRoutes(api, {
    tags,
    path: toolLocationPath(':id'),
    schema: ToolLocationSchema,
    present: (item: service.ToolLocation, request) => presentToolLocation(item, request.hrefs),
  });
  location.get({
    operationId: 'getToolLocation',
    summary: 'Where a tool is (404 when it has no location)',
    load: (id) => service.getToolLocation(db, id),
  });
  location.put({
    operationId: 'replaceToolLocation',
    summary: 'Put a tool in a workplace’s magazine (saved without an event, as a move)',
    body: ToolLocationBody,
    run: (body, id) => service.putToolLocation(db, id, toLocation(body, body.workplaceId ?? null)),
  });
  location.remove({
    operationId: 'deleteToolLocation',
    summary: 'The tool is in no workplace any more (saved without an event)',
    run: (id) => service.deleteToolLocation(db, id),
  });
}
