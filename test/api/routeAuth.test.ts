// Auth checks generated over the app's route table (app.server.routeTable), so a new route gets
// them without anyone writing a test: every route outside the short public list must answer 401
// without a valid token and 403 without the scope its method needs. Covers /api/v1 and /api/v2.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { SignJWT } from 'jose';
import type { RouteEntry } from '../../src/http/server.ts';
import { describeEachBackend, json, TEST_CLIENT, type TestApp } from '../support/app.ts';
import { sweepSkip } from '../support/suite.ts';

const APP_KEY = 'route-auth-test-signing-key-0123456789abcdef';
const OTHER_KEY = 'a-key-the-app-does-not-know-0123456789abcdef';

// The only routes that may answer without a token. Anything else found without the bearer guard
// fails below: a route accidentally marked public cannot slip through.
const PUBLIC_ROUTES = [
  'GET /health/live',
  'HEAD /health/live',
  'GET /health/ready',
  'HEAD /health/ready',
  'POST /oauth/token',
  'GET /ffauth/oauth2.0/accessToken',
  'POST /ffauth/oauth2.0/accessToken',
  'GET /api/openapi.json',
  'HEAD /api/openapi.json',
];
// The interactive documentation (its sub-paths belong to @fastify/swagger-ui), read-only.
const isDocsRoute = (route: RouteEntry) =>
  (route.method === 'GET' || route.method === 'HEAD') &&
  (route.url === '/api/docs' || route.url.startsWith('/api/docs/'));
// The dashboard's page and files (docs/dashboard.md): they hold no data, the page signs in itself.
const isDashboardRoute = (route: RouteEntry) =>
  (route.method === 'GET' || route.method === 'HEAD') &&
  (route.url === '/' || route.url.startsWith('/dashboard/'));
const isPublic = (route: RouteEntry) =>
  PUBLIC_ROUTES.includes(key(route)) || isDocsRoute(route) || isDashboardRoute(route);

// docs/api.md "Search and bulk calls": a POST that only searches needs `read`. Such routes are listed here by key.
const SCOPE_EXCEPTIONS: Record<string, 'read' | 'write'> = Object.fromEntries(
  ['/api/v1', '/api/v2', '/api/v3'].flatMap((version) =>
    ['productionOrders', 'operations'].map(
      (collection) => [`POST ${version}/${collection}/search`, 'read'] as const,
    ),
  ),
);
const READ_METHODS = ['GET', 'HEAD'];
// docs/resources/clients.md: managing OAuth clients needs `admin`, whatever the method.
const isAdminRoute = (route: RouteEntry) => /^\/api\/v\d+\/clients(\/|$)/.test(route.url);

const key = (route: RouteEntry) => `${route.method} ${route.url}`;
const neededScope = (route: RouteEntry): 'read' | 'write' | 'admin' =>
  isAdminRoute(route)
    ? 'admin'
    : (SCOPE_EXCEPTIONS[key(route)] ?? (READ_METHODS.includes(route.method) ? 'read' : 'write'));

/** A concrete URL for the route: each `:param` becomes a fresh UUID (the resource need not exist). */
const concreteUrl = (route: RouteEntry) =>
  route.url.replace(/:[^/]+/g, () => randomUUID()).replace(/\*/g, 'anything');

const CHALLENGE = {
  missing: 'Bearer realm="bridge"',
  invalid: 'Bearer realm="bridge", error="invalid_token", error_description="The access token is invalid"',
  expired: 'Bearer realm="bridge", error="invalid_token", error_description="The access token expired"',
};

function sign(key: string, expiresIn: number, scope = 'read write'): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ scope })
    .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
    .setIssuer('bridge-service')
    .setAudience('bridge-api')
    .setSubject(TEST_CLIENT.id)
    .setIssuedAt(Math.min(now, now + expiresIn - 60))
    .setExpirationTime(now + expiresIn)
    .sign(new TextEncoder().encode(key));
}

function send(t: TestApp, route: RouteEntry, token?: string, query = ''): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = token === undefined ? {} : { authorization: `Bearer ${token}` };
  const withBody = route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH';
  if (withBody) headers['content-type'] = 'application/json';
  return t.app.server.inject({
    method: route.method as 'GET',
    url: `${concreteUrl(route)}${query}`,
    headers,
    payload: withBody ? '{}' : undefined,
  });
}

/** The guard's answer: status and challenge always; the whole body unless it is a HEAD. */
function assertRejected(
  route: RouteEntry,
  response: LightMyRequestResponse,
  expected: { status: number; code: string; message: string },
  challenge: string,
) {
  const where = `${key(route)} -> ${response.statusCode} ${response.body}`;
  assert.equal(response.statusCode, expected.status, where);
  assert.equal(response.headers['www-authenticate'], challenge, where);
  if (route.method === 'HEAD') assert.equal(response.body, '', where);
  else assert.deepEqual(json(response), expected, where);
}

/**
 * Runs `check` as one subtest per protected route, named after the route. The refusals are the
 * guard's, which answers before any handler or database: the fast suite sweeps them on one
 * backend, the full suite on every one (sweepSkip).
 */
async function eachProtectedRoute(
  t: () => TestApp,
  ctx: {
    test: (name: string, fn: () => Promise<void>) => Promise<void>;
    skip: (reason: string) => void;
  },
  check: (route: RouteEntry) => Promise<void>,
  options: { everyBackend?: boolean } = {},
) {
  const skip = options.everyBackend ? false : sweepSkip(t().backend);
  if (skip) return ctx.skip(skip);
  const routes = t().app.server.routeTable.filter((route) => !isPublic(route));
  assert.ok(routes.length > 20, `only ${routes.length} protected routes found`);
  for (const route of routes) await ctx.test(key(route), () => check(route));
}

describeEachBackend(
  'route auth',
  (t) => {
    const table = () => t().app.server.routeTable;

    test('the route table holds the API under both /api/v1 and /api/v2, the same routes in each', () => {
      const under = (prefix: string) =>
        table()
          .filter((route) => route.url === prefix || route.url.startsWith(`${prefix}/`))
          .map((route) => `${route.method} ${route.url.slice(prefix.length)}`)
          .sort();
      const v1 = under('/api/v1');
      assert.ok(v1.includes('GET /workplaces') && v1.includes('POST /workplaceGroups'), v1.join('\n'));
      assert.deepEqual(under('/api/v2'), v1);
    });

    test('the route table holds the admin routes of /clients, which the sweeps below cover', () => {
      const admin = table().filter(isAdminRoute).map(key);
      for (const expected of ['GET /api/v2/clients', 'POST /api/v2/clients', 'DELETE /api/v2/clients/:id'])
        assert.ok(admin.includes(expected), `${expected} missing: ${admin.join(', ')}`);
    });

    test('the routes answering without the bearer guard are exactly the public ones', async () => {
      const unguarded: string[] = [];
      for (const route of table()) {
        const response = await send(t(), route);
        // The guard's answer is the only one with a Bearer challenge (the token endpoint's own
        // 401 carries a Basic challenge).
        const guarded =
          response.statusCode === 401 && String(response.headers['www-authenticate']).startsWith('Bearer');
        if (!guarded) unguarded.push(key(route));
        assert.ok(response.statusCode < 500, `${key(route)} -> ${response.statusCode} ${response.body}`);
      }
      const expected = table().filter(isPublic).map(key);
      assert.deepEqual(unguarded.sort(), expected.sort());
      // And the public list is not empty by accident: each named public route exists.
      for (const name of PUBLIC_ROUTES)
        assert.ok(expected.includes(name), `${name} missing from the route table`);
      assert.ok(expected.includes('GET /api/docs'), 'documentation page missing');
    });

    test('no route is flagged public in the route table beyond the expected ones', () => {
      const flagged = table()
        .filter((route) => route.public && !isPublic(route))
        .map(key);
      assert.deepEqual(flagged, []);
    });

    test('every expected public route is flagged public in the route table', () => {
      const unflagged = table()
        .filter((route) => isPublic(route) && !route.public)
        .map(key);
      assert.deepEqual(unflagged, []);
    });

    test('every protected route: no token -> 401 UNAUTHORIZED', async (ctx) => {
      await eachProtectedRoute(t, ctx, async (route) => {
        assertRejected(
          route,
          await send(t(), route),
          {
            status: 401,
            code: 'UNAUTHORIZED',
            message: 'Authentication required: send an access token as "Authorization: Bearer <token>".',
          },
          CHALLENGE.missing,
        );
      });
    });

    test('every protected route: forged token -> 401 INVALID_TOKEN', async (ctx) => {
      const forged = await sign(OTHER_KEY, 600);
      await eachProtectedRoute(t, ctx, async (route) => {
        assertRejected(
          route,
          await send(t(), route, forged),
          { status: 401, code: 'INVALID_TOKEN', message: 'The access token is invalid.' },
          CHALLENGE.invalid,
        );
      });
    });

    test('every protected route: expired token -> 401 EXPIRED_TOKEN', async (ctx) => {
      const expired = await sign(APP_KEY, -120);
      await eachProtectedRoute(t, ctx, async (route) => {
        assertRejected(
          route,
          await send(t(), route, expired),
          { status: 401, code: 'EXPIRED_TOKEN', message: 'The access token has expired; request a new one.' },
          CHALLENGE.expired,
        );
      });
    });

    test('every protected route: token without the needed scope -> 403 INSUFFICIENT_SCOPE', async (ctx) => {
      const readOnly = await t().token(['read']);
      const writeOnly = await t().token(['write']);
      // Both ordinary scopes: only admin routes refuse it.
      const readWrite = await t().token(['read', 'write']);
      await eachProtectedRoute(t, ctx, async (route) => {
        const scope = neededScope(route);
        const lacking = scope === 'admin' ? readWrite : scope === 'read' ? writeOnly : readOnly;
        assertRejected(
          route,
          await send(t(), route, lacking),
          {
            status: 403,
            code: 'INSUFFICIENT_SCOPE',
            message: `This request needs the scope '${scope}', which the access token does not grant.`,
          },
          `Bearer realm="bridge", error="insufficient_scope", scope="${scope}"`,
        );
      });
    });

    // The counterpart: the guard is not simply closed. A token with just the needed scope gets
    // past it (the answer may still be 400 or 404 for the made-up ids and empty bodies).
    test('every protected route: token with only the needed scope passes the guard', async (ctx) => {
      const tokens = {
        read: await t().token(['read']),
        write: await t().token(['write']),
        admin: await t().token(['admin']),
      };
      await eachProtectedRoute(
        t,
        ctx,
        async (route) => {
          // A stream that passes the guard stays open, which inject() cannot end: a query the
          // route refuses after the guard (400) shows the guard let it through.
          const stream = route.url.endsWith('/events/stream') ? '?lastEventId=x' : '';
          const token = tokens[neededScope(route)];
          const response = await send(t(), route, token, stream);
          const where = `${key(route)} -> ${response.statusCode} ${response.body}`;
          assert.ok(![401, 403].includes(response.statusCode) && response.statusCode < 500, where);
          assert.equal(response.headers['www-authenticate'], undefined, where);
        },
        { everyBackend: true },
      ); // past the guard, the handlers read and write each backend
    });
  },
  { BRIDGE_TOKEN_SECRET: APP_KEY },
);
