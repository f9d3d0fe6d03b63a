import * as repository from '../../db/repositories/toolRepository.ts';
import type { ToolView } from '../../domain/tools.ts';
import * as service from '../../services/toolService.ts';
import type { Api } from '../api.ts';
import type { ServerDeps } from '../deps.ts';
import { link } from '../hal.ts';
import { TOOL_ASSEMBLY_ORDERS_PATH, TOOLS_PATH } from '../paths.ts';
import { presentTool } from '../presenters/toolPresenter.ts';
import { each, resourceRoutes } from '../resourceRoutes.ts';
import { ReplaceToolBody, ToolFilters, ToolSchema, toLifespan } from '../schemas/toolSchemas.ts';

/** Tools: created through tool assembly orders (routes/toolAssemblyOrderRoutes.ts), then read, replaced, deleted. */
export function registerTools(api: Api, { db }: ServerDeps): void {
  const tools = resourceRoutes(api, {
    tags: ['tools'],
    path: TOOLS_PATH,
    name: 'tools',
    schema: ToolSchema,
    present: each((tool: ToolView, request) => presentTool(tool, request.hrefs)),
  });
  tools.list({
    summary: 'List tools (no creation here: tools come from tool assembly orders)',
    paging: 'offset',
    filters: ToolFilters,
    load: (filter, page) => repository.listTools(db, filter, page),
    // Tools are created through their assembly orders, which are reached from here.
    links: (request) => ({ toolAssemblyOrders: link(request.hrefs.api(TOOL_ASSEMBLY_ORDERS_PATH)) }),
  });
  tools.get({ summary: 'One tool', load: (at) => service.getTool(db, at.id) });
  tools.replace({
    summary:
      'Replace a tool (emits TOOL_UPDATED when number, description or lifespan maximum/warningLimit change)',
    body: ReplaceToolBody,
    run: (body, at) =>
      service.replaceTool(db, at.id, {
        number: body.number ?? null,
        description: body.description ?? null,
        storageLocation: body.storageLocation ?? null,
        workplaceId: body.workplaceId ?? null,
        lifespan: toLifespan(body.lifespan),
      }),
  });
  tools.remove({
    summary: 'Delete a tool (emits TOOL_DELETED; refused while its assembly order is unfinished)',
    run: (at) => service.deleteTool(db, at.id),
  });
}
