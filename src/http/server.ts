// The HTTP server: parsing, validation, auth, content negotiation, errors, documentation, and the
// API mounted under /api/v1, /api/v2 and /api/v3, which answer identically (docs/api.md,
// "Addresses and versions").
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import FindMyWay from 'find-my-way';
import { Type } from 'typebox';
import { ClientAuthenticator } from '../auth/clientAuthenticator.ts';
import { RefreshTokenService } from '../auth/refreshTokens.ts';
import { registerTokenEndpoint } from '../auth/tokenEndpoint.ts';
import type { Config } from '../config.ts';
import { AppError } from '../domain/errors.ts';
import { negotiateLocale } from '../i18n/locales.ts';
import { IdempotentWrites } from '../services/idempotency.ts';
import type { RequestTypeProvider } from './api.ts';
import { bearerGuard } from './auth.ts';
import { routeConfigOf } from './context.ts';
import { API_VERSIONS, CURRENT_VERSION, type RouteEntry, type ServerDeps } from './deps.ts';
import { handleError, sendError } from './errors.ts';
import { Hrefs, hrefRoot, requestRoot } from './hrefs.ts';
import { registerIdempotency } from './idempotency.ts';
import { fallbackOperationId } from './operationIds.ts';
import { refuseContentEncoding, strictJsonParser } from './requestBody.ts';
import { ByteBudget, budgetLargeResponses } from './responseBudget.ts';
import { registerDashboard } from './routes/dashboardRoutes.ts';
import { registerHealth } from './routes/healthRoutes.ts';
import { registerApi } from './routes/index.ts';
import { registerMetrics } from './routes/metricsRoutes.ts';
import { ErrorBody } from './schemas/common.ts';
import { buildSerializer } from './serialization.ts';
import { cutConnectionsAfterGrace, loggerOptions, RequestLog, serverOptions } from './serverOptions.ts';
import { refuseUndecodableQuery, validatorCompiler } from './validation.ts';

const NO_QUERY = Type.Object({}, { additionalProperties: false });
const FORCE_TOKEN_PATH = '/ffauth/oauth2.0/accessToken';
const SUB_PATH_CATCH_ALL = /\/:[^/]+\/:[^/]+$/;
const EVENT_LOG_PAGE = /\/api\/v\d+\/events$/;

// Re-exported for the composition root (src/app.ts) and the tests that walk the route table.
export { CURRENT_VERSION, type RouteEntry, type ServerDeps };

const JSON_TYPES = /^application\/([\w.-]+\+)?json\s*(;.*)?$/i;
const HAL_ACCEPTED = /application\/hal\+json/i;
const HAL_JSON = 'application/hal+json; charset=utf-8';
const PLAIN_JSON = 'application/json; charset=utf-8';
const API_CSP = "default-src 'none'; frame-ancestors 'none'";

export async function buildServer(deps: ServerDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    logger: loggerOptions(config, deps.runtime),
    logController: new RequestLog(config.logRequests),
    ...httpsOptions(config),
    ...serverOptions(config),
    bodyLimit: config.bodyLimitBytes,
    // A caller's x-request-id is kept when it is a sane token; anything else gets a fresh id.
    requestIdHeader: false,
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.:-]{1,100}$/.test(given) ? given : randomUUID();
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    return503OnClosing: true,
    schemaController: { compilersFactory: { buildSerializer } },
    // A URL the router cannot read (bad percent-encoding, an over-long id) is an invalid URI:
    // 404 with the error body (docs/api.md "Errors"), not Fastify's own answer.
    frameworkErrors: (_error, request, reply) =>
      sendError(
        reply,
        new AppError('ROUTE_NOT_FOUND', { method: request.method, path: request.url.split('?')[0] ?? '/' }),
      ),
  }).withTypeProvider<RequestTypeProvider>();

  cutConnectionsAfterGrace(app, config.http.shutdownGraceMs);
  app.setValidatorCompiler(validatorCompiler);
  // Bodies are JSON only (+json types included); everything else is 415.
  app.removeAllContentTypeParsers();
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser(JSON_TYPES, { parseAs: 'buffer' }, strictJsonParser(parseJson));
  app.addHook('preParsing', refuseContentEncoding);
  app.addSchema(ErrorBody);

  app.decorateRequest('locale', 'en-GB');
  app.decorateRequest('hrefs', null as unknown as Hrefs);
  app.decorateRequest('client', undefined);
  app.decorateRequest('routeConfig', null);
  // Hooks that never wait take `done` instead of being async: no promise and no microtask for
  // each of them on every request.
  app.addHook('onRequest', (request, reply, done) => {
    request.routeConfig = request.routeOptions.config;
    request.locale = negotiateLocale(request.headers['accept-language']);
    // Absolute hrefs from the request's own address (docs/api.md, "Addresses and versions").
    request.hrefs = new Hrefs(requestRoot(config, request), CURRENT_VERSION);
    reply.header('x-request-id', request.id);
    done();
  });
  app.addHook('onRequest', bearerGuard(deps.tokens));
  // Pages of the event log can be megabytes each: they run under a memory budget (responseBudget.ts).
  const { largeResponseBytes, largeResponseQueue, largeResponseWaitMs } = config.memory;
  budgetLargeResponses(
    app,
    new ByteBudget(largeResponseBytes, largeResponseQueue, largeResponseWaitMs),
    (request) => request.method === 'GET' && EVENT_LOG_PAGE.test(request.routeOptions.url ?? ''),
    config.pageMaxBytes,
  );
  if (deps.metrics) registerMetrics(app, deps.metrics, deps.db, config.basePath);
  app.addHook('onSend', (request, reply, payload, done) => {
    // No answer is to be sniffed into another type or framed by another site; pages that load
    // scripts (the documentation, the dashboard) set a policy of their own.
    if (!reply.hasHeader('x-content-type-options')) reply.header('x-content-type-options', 'nosniff');
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', API_CSP);
    const type = String(reply.getHeader('content-type') ?? '');
    // Raw bytes (a document's file) keep the type they were stored with.
    if (type.startsWith('application/json') && !Buffer.isBuffer(payload)) {
      const hal = HAL_ACCEPTED.test(request.headers.accept ?? '');
      reply.header('content-type', hal ? HAL_JSON : PLAIN_JSON);
      reply.header('content-language', request.locale);
    }
    done(null, payload);
  });
  app.setErrorHandler(handleError);
  // The documentation page is public, like the OpenAPI document it shows.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith(`${config.basePath}/api/docs`))
      route.config = { ...route.config, auth: 'public' };
  });
  registerMethodNotAllowed(app);
  // Every operation has an operationId for client generators (docs/clients.md): the
  // resource-route helper names its own; any other route gets one from its method and path.
  app.addHook('onRoute', (route) => {
    if (route.schema && route.schema.operationId === undefined && !route.schema.hide) {
      route.schema = {
        ...route.schema,
        operationId: fallbackOperationId(route.method, route.url, config.basePath),
      };
    }
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Bridge API',
        version: `${CURRENT_VERSION}`,
        description:
          'Live digital image of a production plant (HAL+JSON). /api/v1 and /api/v3 answer identically to /api/v2; ' +
          'only v2 is listed here. Get a token at the token endpoint with OAuth 2.0 client credentials.',
      },
      components: {
        securitySchemes: {
          oauth2: {
            type: 'oauth2',
            flows: {
              clientCredentials: {
                tokenUrl: `${hrefRoot(config)}/oauth/token`,
                scopes: { read: 'HTTP GET', write: 'HTTP POST, PUT, DELETE' },
              },
            },
          },
          basicAuth: { type: 'http', scheme: 'basic' },
        },
      },
      security: [{ oauth2: [] }],
      // The paths carry the base path and /api/v2, so the server is the origin (or where the
      // public URL says the service is reached, without the base path its paths repeat).
      servers: [{ url: serverUrl(config), description: 'This service' }],
    },
  });
  await app.register(swaggerUi, {
    routePrefix: `${config.basePath}/api/docs`,
    uiConfig: { deepLinking: true },
    // The page's own policy (its scripts by hash), not to be framed, and on plain http too.
    staticCSP: true,
    transformStaticCSP: (policy) =>
      policy
        .replace("frame-ancestors 'self'", "frame-ancestors 'none'")
        .replace(/\s*upgrade-insecure-requests;/, ''),
    logLevel: 'warn',
  });
  app.get(
    `${config.basePath}/api/openapi.json`,
    { config: { auth: 'public' }, schema: { hide: true } },
    async () => app.swagger(),
  );

  registerHealth(app, deps.db, config.basePath, deps.metrics);
  if (config.dashboard) registerDashboard(app, config.basePath);
  const authenticator = new ClientAuthenticator(
    deps.db,
    config.tokenEndpoint,
    deps.runtime?.now,
    deps.metrics?.registry,
  );
  const refreshTokens = new RefreshTokenService(deps.db, config.refreshTokenTtlSeconds, deps.runtime?.now);
  // FORCE Bridge clients ask for tokens at /ffauth/oauth2.0/accessToken, at the server root and
  // under the base path (docs/api.md, "Authentication").
  const tokenPaths = {
    standard: `${config.basePath}/oauth/token`,
    aliases: [FORCE_TOKEN_PATH, `${config.basePath}${FORCE_TOKEN_PATH}`],
  };
  registerTokenEndpoint(app, tokenPaths, deps.tokens, refreshTokens, authenticator);
  // The API's writes can span a request (Idempotency-Key): its routes get the database that allows it.
  const idempotentWrites = new IdempotentWrites(
    deps.db,
    Math.max(30_000, 3 * config.dbTimeoutMs),
    deps.runtime?.now,
  );
  const apiDeps: ServerDeps = { ...deps, db: idempotentWrites.database };
  for (const version of API_VERSIONS) {
    await app.register(
      async (api) => {
        api.addHook('onRoute', (route) => {
          // Unknown query parameters are a 400 on every route (docs/api.md, "Collections"),
          // also those without any.
          route.schema = { querystring: NO_QUERY, ...route.schema };
          if (version !== CURRENT_VERSION) route.schema = { ...route.schema, hide: true };
        });
        // The root hook's hrefs are already in the current version.
        if (version !== CURRENT_VERSION) {
          api.addHook('onRequest', (request, _reply, done) => {
            request.hrefs = new Hrefs(request.hrefs.root(''), version);
            done();
          });
        }
        api.addHook('preValidation', (request, _reply, done) => {
          refuseUnexpectedBody(request);
          refuseUndecodableQuery(request);
          done();
        });
        registerIdempotency(api, idempotentWrites);
        await registerApi(api, apiDeps);
      },
      { prefix: `${config.basePath}/api/v${version}` },
    );
  }
  return app;
}

/** Where the paths of the OpenAPI document are relative to. */
function serverUrl(config: Config): string {
  if (config.publicUrl === undefined) return '/';
  const { publicUrl, basePath } = config;
  return basePath !== '' && publicUrl.endsWith(basePath) ? publicUrl.slice(0, -basePath.length) : publicUrl;
}

/** The path of a request URL without its query and a trailing slash (`/a/b/?x=1` -> `/a/b`). */
function pathOf(url: string): string {
  const question = url.indexOf('?');
  const path = question < 0 ? url : url.slice(0, question);
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/** A route that takes no body refuses one, as routes with bodies refuse unknown fields. */
function refuseUnexpectedBody(request: FastifyRequest): void {
  const { body } = request;
  if (body === undefined || request.routeOptions.schema?.body !== undefined) return;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new AppError('VALIDATION_FAILED', { rule: 'body', field: '' });
  }
  const [field] = Object.keys(body);
  if (field !== undefined) throw new AppError('UNKNOWN_FIELD', { field });
}

function httpsOptions(
  config: Config,
): Partial<FastifyServerOptions> & { https?: { cert: Buffer; key: Buffer } } {
  if (!config.tlsCertFile || !config.tlsKeyFile) return {};
  return { https: { cert: readFileSync(config.tlsCertFile), key: readFileSync(config.tlsKeyFile) } };
}

/**
 * 405 with Allow for a known path asked with a method it does not have; 404 for unknown paths.
 * The routes seen are also kept in `routeTable`, which the auth and bad-input tests walk.
 */
function registerMethodNotAllowed(app: FastifyInstance) {
  const router = FindMyWay({ ignoreTrailingSlash: true, maxParamLength: 200 });
  const methods = new Set<string>();
  const routeTable: RouteEntry[] = [];
  // Methods of each path without parameters (`/tools/assemblyOrders`).
  const staticPaths = new Map<string, Set<string>>();
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      methods.add(method);
      router.on(method as 'GET', route.url, () => {}, { url: route.url });
      routeTable.push({ method, url: route.url, public: route.config?.auth === 'public' });
      if (!/[:*]/.test(route.url)) {
        const owned = staticPaths.get(route.url) ?? new Set<string>();
        staticPaths.set(route.url, owned.add(method));
      }
    }
  });
  // A path that names a static resource is that resource for every method: `PUT /tools/assemblyOrders`
  // is 405, not "no tool with id assemblyOrders" from the `/tools/:id` route that also matches it.
  app.addHook('onRequest', (request, reply, done) => {
    if (!routeConfigOf(request).url?.includes(':')) return done();
    const owned = staticPaths.get(pathOf(request.url));
    if (!owned || owned.has(request.method)) return done();
    const allowed = [...owned].join(', ');
    // Answered here: `done` is not called, so the request goes no further.
    sendError(reply, new AppError('METHOD_NOT_ALLOWED', { method: request.method, allowed }), {
      allow: allowed,
    });
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    // A route ending in two parameters (`/operations/:id/:operationPhaseId`, a command) matches any
    // sub-path of an id; for other methods such a path is an unknown sub-resource: 404, not 405
    // (docs/api.md, "Errors").
    const allowed = [...methods].filter((method) => {
      const found = router.find(method as 'GET', path);
      return found !== null && !SUB_PATH_CATCH_ALL.test((found.store as { url: string }).url);
    });
    // A route of this very method matched but found nothing (e.g. a missing static file): 404.
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      return sendError(
        reply,
        new AppError('METHOD_NOT_ALLOWED', { method: request.method, allowed: allowed.join(', ') }),
        {
          allow: allowed.join(', '),
        },
      );
    }
    return sendError(reply, new AppError('ROUTE_NOT_FOUND', { method: request.method, path }));
  });
}
