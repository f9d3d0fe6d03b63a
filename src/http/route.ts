// The one shape every route is registered in (docs/architecture.md, "Where things live"): its
// words for the OpenAPI document, the path parameters read from the path, the error answers
// every route can give, and the scope it needs. Families of routes (resourceRoutes.ts,
// elementRoutes.ts, singletonRoutes.ts, fileTransfer.ts) build on it.
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { type Static, type TSchema, Type } from 'typebox';
import type { Scope } from '../config.ts';
import type { Api } from './api.ts';
import { errorResponses, type IdParams } from './schemas/common.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** The words of a route in the OpenAPI document. */
export interface RouteDoc {
  summary: string;
  description?: string;
  /** The scope the route needs instead of its method's (docs/api.md, "Authentication"). */
  scope?: Scope;
  /** The OpenAPI operationId; without one, server.ts derives it from the method and path. */
  operationId?: string;
}

export interface RouteDefinition<P extends TSchema, Q extends TSchema, B extends TSchema> extends RouteDoc {
  method: Method;
  path: string;
  tags: string[];
  /**
   * Default: each `:name` of the path, a string of up to 100 characters like an id (typed as
   * `{ id }`; a handler that reads other parameters names them here).
   */
  params?: P;
  querystring?: Q;
  body?: B;
  /** The answers besides the errors, by status. */
  response: Record<number, TSchema>;
  /** The error statuses besides 400, 401 and 403 (which every route can answer). */
  errors?: number[];
  /** Route options read by the server's hooks besides `scope` (e.g. `tokenInQuery`). */
  config?: Record<string, unknown>;
  bodyLimit?: number;
  preValidation?: RouteOptions['preValidation'];
  handler: (
    request: FastifyRequest<{ Params: Static<P>; Querystring: Static<Q>; Body: Static<B> }>,
    reply: FastifyReply,
  ) => unknown;
}

/** The path's parameters (`:id`, `:shiftId`, ...): strings of up to 100 characters, like ids. */
export const paramsOf = (path: string) => {
  const names = [...path.matchAll(/:(\w+)/g)].map((match) => match[1] as string);
  return names.length === 0
    ? undefined
    : Type.Object(Object.fromEntries(names.map((name) => [name, Type.String({ maxLength: 100 })])));
};

export function registerRoute<
  P extends TSchema = typeof IdParams,
  Q extends TSchema = TSchema,
  B extends TSchema = TSchema,
>(api: Api, route: RouteDefinition<P, Q, B>): void {
  const params = route.params ?? paramsOf(route.path);
  api.route({
    method: route.method,
    url: route.path,
    ...(route.scope === undefined && route.config === undefined
      ? {}
      : { config: { ...route.config, ...(route.scope === undefined ? {} : { scope: route.scope }) } }),
    ...(route.bodyLimit === undefined ? {} : { bodyLimit: route.bodyLimit }),
    ...(route.preValidation === undefined ? {} : { preValidation: route.preValidation }),
    schema: {
      tags: route.tags,
      ...(route.operationId === undefined ? {} : { operationId: route.operationId }),
      summary: route.summary,
      ...(route.description === undefined ? {} : { description: route.description }),
      ...(params === undefined ? {} : { params }),
      ...(route.querystring === undefined ? {} : { querystring: route.querystring }),
      ...(route.body === undefined ? {} : { body: route.body }),
      response: { ...route.response, ...errorResponses(...(route.errors ?? [])) },
    },
    handler: route.handler as unknown as RouteOptions['handler'],
  });
}
