// Every API route, mounted once per version by the server.

import type { FastifyInstance } from 'fastify';
import type { RequestTypeProvider } from '../api.ts';
import type { ServerDeps } from '../deps.ts';
import { registerCallbacks } from './callbacks.ts';
import { registerClients } from './clients.ts';
import { registerConnectors } from './connectors.ts';
import { registerDevices } from './devices.ts';
import { registerDocuments } from './documents.ts';
import { registerEntryPoint } from './entryPoint.ts';
import { registerEventStream } from './eventStream.ts';
import { registerEvents } from './events.ts';
import { registerMasterData } from './masterData.ts';
import { registerOperations } from './operations.ts';
import { registerPlanning } from './planning.ts';
import { registerPlanningScenarios } from './planningScenarios.ts';
import { registerProductionOrders } from './productionOrders.ts';
import { registerScheduledMaintenances } from './scheduledMaintenances.ts';
import { registerShifts } from './shifts.ts';
import { registerStaffMembers } from './staffMembers.ts';
import { registerSummaries } from './summaries.ts';
import { registerToolAssemblyOrders } from './toolAssemblyOrders.ts';
import { registerTools } from './tools.ts';
import { registerWorkplaceGroups } from './workplaceGroups.ts';
import { registerWorkplaces } from './workplaces.ts';

export async function registerApi(instance: FastifyInstance, deps: ServerDeps): Promise<void> {
  const api = instance.withTypeProvider<RequestTypeProvider>();
  registerEntryPoint(api);
  registerMasterData(api);
  registerWorkplaceGroups(api, deps);
  registerWorkplaces(api, deps);
  registerProductionOrders(api, deps);
  registerOperations(api, deps);
  registerShifts(api, deps);
  registerScheduledMaintenances(api, deps);
  registerCallbacks(api, deps);
  registerToolAssemblyOrders(api, deps);
  registerTools(api, deps);
  registerEvents(api, deps);
  registerEventStream(api, deps);
  registerDevices(api, deps);
  registerStaffMembers(api, deps);
  registerDocuments(api, deps);
  registerPlanning(api, deps);
  registerPlanningScenarios(api, deps);
  registerConnectors(api, deps);
  registerSummaries(api, deps);
  registerClients(api, deps);
}
