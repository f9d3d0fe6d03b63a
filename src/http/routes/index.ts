// Every API route, mounted once per version by the server.

import type { FastifyInstance } from 'fastify';
import type { RequestTypeProvider } from '../api.ts';
import type { ServerDeps } from '../server.ts';
import { registerCallbacks } from './callbacks.ts';
import { registerEntryPoint } from './entryPoint.ts';
import { registerEvents } from './events.ts';
import { registerMasterData } from './masterData.ts';
import { registerWorkplaceGroups } from './workplaceGroups.ts';
import { registerWorkplaces } from './workplaces.ts';

export async function registerApi(instance: FastifyInstance, deps: ServerDeps): Promise<void> {
  const api = instance.withTypeProvider<RequestTypeProvider>();
  registerEntryPoint(api);
  registerMasterData(api);
  registerWorkplaceGroups(api, deps);
  registerWorkplaces(api, deps);
  registerCallbacks(api, deps);
  registerEvents(api, deps);
}
