// Every API route, mounted once per version by the server.

import type { FastifyInstance } from 'fastify';
import type { RequestTypeProvider } from '../api.ts';
import type { ServerDeps } from '../deps.ts';
import { registerCallbacks } from './callbackRoutes.ts';
import { registerClients } from './clientRoutes.ts';
import { registerConnectors } from './connectorRoutes.ts';
import { registerDevices } from './deviceRoutes.ts';
import { registerDocuments } from './documentRoutes.ts';
import { registerEntryPoint } from './entryPointRoutes.ts';
import { registerEvents } from './eventRoutes.ts';
import { registerEventStream } from './eventStreamRoutes.ts';
import { registerMasterData } from './masterDataRoutes.ts';
import { registerOperations } from './operationRoutes.ts';
import { registerPlanning } from './planningResultRoutes.ts';
import { registerPlanningScenarios } from './planningScenarioRoutes.ts';
import { registerProductionOrders } from './productionOrderRoutes.ts';
import { registerReports } from './reportRoutes.ts';
import { registerScheduledMaintenances } from './scheduledMaintenanceRoutes.ts';
import { registerShifts } from './shiftRoutes.ts';
import { registerStaffMembers } from './staffMemberRoutes.ts';
import { registerSummaries } from './summaryRoutes.ts';
import { registerToolAssemblyOrders } from './toolAssemblyOrderRoutes.ts';
import { registerTools } from './toolRoutes.ts';
import { registerWorkplaceGroups } from './workplaceGroupRoutes.ts';
import { registerWorkplaces } from './workplaceRoutes.ts';

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
  registerReports(api, deps);
  registerClients(api, deps);
}
