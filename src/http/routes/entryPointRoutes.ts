import { readFileSync } from 'node:fs';
import { Type } from 'typebox';
import type { Api } from '../api.ts';
import { link, resource } from '../hal.ts';
import { CLIENTS_PATH, COLLECTIONS, COMMANDS_PATH, MACHINES_PATH } from '../paths.ts';
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
          ...Object.fromEntries(
            Object.entries(COLLECTIONS).map(([rel, path]) => [rel, link(hrefs.api(path))]),
          ),
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
