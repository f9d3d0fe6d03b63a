import { readFileSync } from 'node:fs';
import { Type } from 'typebox';
import type { Api } from '../api.ts';
import { link, resource } from '../hal.ts';
import {
  CALLBACKS_PATH,
  CLIENTS_PATH,
  COMMANDS_PATH,
  CONNECTORS_PATH,
  DEVICES_PATH,
  DOCUMENTS_PATH,
  ERP_CONTEXTS_PATH,
  EVENTS_PATH,
  FILE_REPOSITORY_PATH,
  LITERALS_PATH,
  MACHINES_PATH,
  MALFUNCTION_SCENARIOS_PATH,
  MASTER_DATA_PATH,
  MATERIALS_PATH,
  OPERATING_STATES_PATH,
  OPERATION_PHASES_PATH,
  OPERATION_PLANNING_SCENARIOS_PATH,
  OPERATIONS_PATH,
  PRODUCTION_ORDERS_PATH,
  STAFF_MEMBER_PLANNING_SCENARIOS_PATH,
  STAFF_MEMBERS_PATH,
  TICKETS_PATH,
  TOOL_ASSEMBLY_ORDER_STATES_PATH,
  TOOL_ASSEMBLY_ORDERS_PATH,
  TOOLS_PATH,
  WORKPLACE_GROUPS_PATH,
  WORKPLACE_STATES_PATH,
  WORKPLACES_PATH,
} from '../paths.ts';
import { registerRoute } from '../route.ts';
import { Resource } from '../schemas/common.ts';

/**
 * The licence the service is offered under, read from its package (`license` in package.json)
 * so the entry point states what is true of this build; the real API names its own there.
 */
const LICENSE = (
  JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { license: string }
).license;

/** GET /api/v{n}: where a client starts; every collection is reachable from its links. */
export function registerEntryPoint(api: Api): void {
  registerRoute(api, {
    method: 'GET',
    path: '/',
    tags: ['entry point'],
    summary: 'Entry point with links to every collection',
    response: {
      200: Resource(
        Type.Object({
          version: Type.Integer(),
          title: Type.String(),
          license: Type.String({ description: 'The licence of the service, as its package.json states it' }),
        }),
        'Entry point',
      ),
    },
    handler: async (request) => {
      const { hrefs } = request;
      return resource(
        // Every version answers identically (docs/api.md, "Addresses and versions"); `version` is the one asked.
        { version: hrefs.version, title: 'Bridge API', license: LICENSE },
        {
          self: link(hrefs.api('')),
          productionOrders: link(hrefs.api(PRODUCTION_ORDERS_PATH)),
          operations: link(hrefs.api(OPERATIONS_PATH)),
          workplaces: link(hrefs.api(WORKPLACES_PATH)),
          workplaceGroups: link(hrefs.api(WORKPLACE_GROUPS_PATH)),
          staffMembers: link(hrefs.api(STAFF_MEMBERS_PATH)),
          tools: link(hrefs.api(TOOLS_PATH)),
          toolAssemblyOrders: link(hrefs.api(TOOL_ASSEMBLY_ORDERS_PATH)),
          documents: link(hrefs.api(DOCUMENTS_PATH)),
          fileRepository: link(hrefs.api(FILE_REPOSITORY_PATH)),
          devices: link(hrefs.api(DEVICES_PATH)),
          operationPlanningScenarios: link(hrefs.api(OPERATION_PLANNING_SCENARIOS_PATH)),
          staffMemberPlanningScenarios: link(hrefs.api(STAFF_MEMBER_PLANNING_SCENARIOS_PATH)),
          predictedMalfunctionScenarios: link(hrefs.api(MALFUNCTION_SCENARIOS_PATH)),
          masterData: link(hrefs.api(MASTER_DATA_PATH)),
          literals: link(hrefs.api(LITERALS_PATH)),
          erpContexts: link(hrefs.api(ERP_CONTEXTS_PATH)),
          materials: link(hrefs.api(MATERIALS_PATH)),
          operatingStates: link(hrefs.api(OPERATING_STATES_PATH)),
          workplaceStates: link(hrefs.api(WORKPLACE_STATES_PATH)),
          operationPhases: link(hrefs.api(OPERATION_PHASES_PATH)),
          toolAssemblyOrderStates: link(hrefs.api(TOOL_ASSEMBLY_ORDER_STATES_PATH)),
          callbacks: link(hrefs.api(CALLBACKS_PATH)),
          events: link(hrefs.api(EVENTS_PATH)),
          connectors: link(hrefs.api(CONNECTORS_PATH)),
          tickets: link(hrefs.api(TICKETS_PATH)),
          // Commands are sent, not listed (docs/resources/commands.md).
          commands: link(hrefs.api(COMMANDS_PATH), { method: 'POST' }),
          machines: link(hrefs.api(MACHINES_PATH)),
          // Offered to the clients that may use it (admin scope), like write links to writers.
          ...(request.client?.scopes.includes('admin') ? { clients: link(hrefs.api(CLIENTS_PATH)) } : {}),
          token: link(hrefs.root('/oauth/token'), { method: 'POST' }),
          openapi: link(hrefs.root('/api/openapi.json')),
          documentation: link(hrefs.root('/api/docs')),
        },
      );
    },
  });
}
