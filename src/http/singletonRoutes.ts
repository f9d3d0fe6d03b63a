// A one-object sub-resource of an owner (a tool's location, an operation's planning result): GET,
// PUT and DELETE at the same path below the owner's `:id`, through registerRoute. A PUT takes back
// what the GET shows but the body cannot set, as resourceRoutes' replace does (docs/api.md, "Errors").
import type { FastifyRequest } from 'fastify';
import { type Static, type TSchema, Type } from 'typebox';
import type { Api } from './api.ts';
import type { Resource } from './hal.ts';
import { checkEchoed, echoingBody, readOnlyNames, representedProperties } from './readOnly.ts';
import { type RouteDoc, registerRoute } from './route.ts';

export interface SingletonDefinition<Item> {
  tags: string[];
  /** Below the owner, e.g. `/tools/:id/location`. */
  path: string;
  /** The representation. */
  schema: TSchema;
  present: (item: Item, request: FastifyRequest) => Resource;
}

export function singletonRoutes<Item>(api: Api, singleton: SingletonDefinition<Item>) {
  const { tags, path, schema, present } = singleton;
  const ownerOf = (request: FastifyRequest) => (request.params as { id: string }).id;
  /** What every route of the object shares: its path and tags, with the route's words. */
  const at = (method: 'GET' | 'PUT' | 'DELETE', doc: RouteDoc) => ({ method, path, tags, ...doc });
  /** The loader, once `get` is declared: a PUT compares echoed read-only properties with it. */
  let loadItem: ((id: string) => Promise<Item>) | undefined;
  return {
    /** The object; 404 when the owner or the object is not there. */
    get(route: RouteDoc & { load: (id: string) => Promise<Item> }): void {
      const { load, ...doc } = route;
      loadItem = load;
      registerRoute(api, {
        ...at('GET', doc),
        response: { 200: schema },
        errors: [404],
        handler: async (request) => present(await load(ownerOf(request)), request),
      });
    },

    /**
     * Sets the object. An echoed read-only property is compared with the object as GET shows it;
     * with nothing while it is not there yet.
     */
    put<B extends TSchema>(
      route: RouteDoc & { body: B; run: (body: Static<B>, id: string) => Promise<Item> },
    ): void {
      const { body, run, ...doc } = route;
      const readOnly = readOnlyNames(body, representedProperties(schema));
      registerRoute(api, {
        ...at('PUT', doc),
        body: echoingBody(body, readOnly),
        response: { 200: schema },
        errors: [404, 415],
        handler: async (request) => {
          const id = ownerOf(request);
          await checkEchoed(request.body as Record<string, unknown>, readOnly, [], async () => {
            const item = await loadItem?.(id).catch(() => undefined);
            return item === undefined ? {} : (present(item, request).properties as Record<string, unknown>);
          });
          return present(await run(request.body as Static<B>, id), request);
        },
      });
    },

    remove(route: RouteDoc & { run: (id: string) => Promise<unknown> }): void {
      const { run, ...doc } = route;
      registerRoute(api, {
        ...at('DELETE', doc),
        response: { 204: Type.Null() },
        errors: [404],
        handler: async (request, reply) => {
          await run(ownerOf(request));
          return reply.code(204).send();
        },
      });
    },
  };
}
