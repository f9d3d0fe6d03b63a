// The bearer guard on the API (docs/api.md "Authentication", RFC 6750): 401 with WWW-Authenticate for missing,
// malformed, forged, unsigned, expired or foreign tokens; 403 when the scope the method needs is
// missing. Whole error bodies {status, code, message} and challenges are asserted.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { type JWTPayload, SignJWT } from 'jose';
import { addClient } from '../../src/auth/clients.ts';
import { deleteClient } from '../../src/db/repositories/clientRepository.ts';
import { describeEachBackend, json, TEST_CLIENT, type TestApp } from '../support/app.ts';
import { BACKENDS } from '../support/databases.ts';
import { type RuntimeApp, startRuntimeApp } from '../support/runtimeApp.ts';

// The app signs with this key, so the tests can make tokens that differ in one thing only.
const APP_KEY = 'bearer-auth-test-signing-key-0123456789abcdef';
const OTHER_KEY = 'some-other-signing-key-never-used-by-the-app-0123';
const URL = '/api/v2/workplaceGroups';

interface TokenOptions {
  key?: string;
  alg?: string;
  claims?: JWTPayload;
  /** Seconds from now; negative for an expired token. */
  expiresIn?: number;
}

/** A JWT like the app's own, with any one part changed by `options`. */
function sign(options: TokenOptions = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const expiresIn = options.expiresIn ?? 600;
  return new SignJWT({
    iss: 'bridge-service',
    aud: 'bridge-api',
    sub: TEST_CLIENT.id,
    scope: 'read write',
    iat: Math.min(now, now + expiresIn - 60),
    exp: now + expiresIn,
    ...options.claims,
  })
    .setProtectedHeader({ alg: options.alg ?? 'HS256', typ: 'at+jwt' })
    .sign(new TextEncoder().encode(options.key ?? APP_KEY));
}

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

const UNAUTHORIZED = {
  status: 401,
  code: 'UNAUTHORIZED',
  message: 'Authentication required: send an access token as "Authorization: Bearer <token>".',
};
const INVALID = { status: 401, code: 'INVALID_TOKEN', message: 'The access token is invalid.' };
const EXPIRED = {
  status: 401,
  code: 'EXPIRED_TOKEN',
  message: 'The access token has expired; request a new one.',
};
const CHALLENGE = {
  UNAUTHORIZED: 'Bearer realm="bridge"',
  INVALID_TOKEN:
    'Bearer realm="bridge", error="invalid_token", error_description="The access token is invalid"',
  EXPIRED_TOKEN: 'Bearer realm="bridge", error="invalid_token", error_description="The access token expired"',
};

const insufficient = (scope: string) => ({
  status: 403,
  code: 'INSUFFICIENT_SCOPE',
  message: `This request needs the scope '${scope}', which the access token does not grant.`,
});

function assertError(
  response: LightMyRequestResponse,
  body: { status: number; code: string; message: string },
  challenge: string,
) {
  assert.equal(response.statusCode, body.status, response.body);
  assert.deepEqual(json(response), body);
  assert.equal(response.headers['www-authenticate'], challenge);
}

function call(t: TestApp, authorization: string | undefined, method: 'GET' | 'HEAD' = 'GET') {
  const headers: Record<string, string> = authorization === undefined ? {} : { authorization };
  return t.app.server.inject({ method, url: URL, headers });
}

describeEachBackend(
  'bearer authentication',
  (t) => {
    // A control first: a token made by `sign` with the app's key is accepted, so every rejection
    // below is caused by the one thing that test changes.
    test('a token signed like the app signs it is accepted', async () => {
      const response = await call(t(), `Bearer ${await sign()}`);
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.headers['www-authenticate'], undefined);
    });

    test('no Authorization header -> 401 UNAUTHORIZED', async () => {
      assertError(await call(t(), undefined), UNAUTHORIZED, CHALLENGE.UNAUTHORIZED);
    });

    test('an empty Authorization header -> 401 UNAUTHORIZED', async () => {
      assertError(await call(t(), ''), UNAUTHORIZED, CHALLENGE.UNAUTHORIZED);
    });

    test('HEAD without a token -> 401 with the challenge and no body', async () => {
      const response = await call(t(), undefined, 'HEAD');
      assert.equal(response.statusCode, 401);
      assert.equal(response.headers['www-authenticate'], CHALLENGE.UNAUTHORIZED);
      assert.equal(response.body, '');
    });

    test('the 401 message follows Accept-Language', async () => {
      const response = await t().app.server.inject({
        method: 'GET',
        url: URL,
        headers: { 'accept-language': 'de-DE' },
      });
      assertError(
        response,
        {
          status: 401,
          code: 'UNAUTHORIZED',
          message: 'Anmeldung erforderlich: Senden Sie ein Access-Token als "Authorization: Bearer <token>".',
        },
        CHALLENGE.UNAUTHORIZED,
      );
      assert.equal(response.headers['content-language'], 'de-DE');
    });

    for (const [name, authorization] of [
      ['"Bearer" alone', 'Bearer'],
      ['"Bearer " with nothing after it', 'Bearer '],
      [
        'Basic credentials',
        `Basic ${Buffer.from(`${TEST_CLIENT.id}:${TEST_CLIENT.secret}`).toString('base64')}`,
      ],
      ['"Basic xyz"', 'Basic xyz'],
      ['garbage', 'garbage'],
      ['two tokens', 'Bearer abc def'],
      ['a token that is not a JWT', 'Bearer not-a-jwt'],
      ['a JWT with an undecodable payload', 'Bearer eyJhbGciOiJIUzI1NiJ9.%%%.abc'],
    ] as const) {
      test(`malformed: ${name} -> 401 INVALID_TOKEN`, async () => {
        assertError(await call(t(), authorization), INVALID, CHALLENGE.INVALID_TOKEN);
      });
    }

    test('forged: signed with another key -> 401 INVALID_TOKEN', async () => {
      assertError(
        await call(t(), `Bearer ${await sign({ key: OTHER_KEY })}`),
        INVALID,
        CHALLENGE.INVALID_TOKEN,
      );
    });

    test('forged: the payload changed after signing -> 401 INVALID_TOKEN', async () => {
      const [header, , signature] = (await sign({ claims: { scope: 'read' } })).split('.');
      const payload = b64url({
        iss: 'bridge-service',
        aud: 'bridge-api',
        sub: TEST_CLIENT.id,
        scope: 'read write',
        exp: Math.floor(Date.now() / 1000) + 600,
      });
      assertError(
        await call(t(), `Bearer ${header}.${payload}.${signature}`),
        INVALID,
        CHALLENGE.INVALID_TOKEN,
      );
    });

    test('alg "none" (unsigned token) -> 401 INVALID_TOKEN', async () => {
      const header = b64url({ alg: 'none', typ: 'JWT' });
      const payload = b64url({
        iss: 'bridge-service',
        aud: 'bridge-api',
        sub: TEST_CLIENT.id,
        scope: 'read write',
        iat: Math.floor(Date.now() / 1000),
        exp: Math.floor(Date.now() / 1000) + 600,
      });
      assertError(await call(t(), `Bearer ${header}.${payload}.`), INVALID, CHALLENGE.INVALID_TOKEN);
    });

    test('another HMAC algorithm with the right key -> 401 INVALID_TOKEN (algorithm is pinned)', async () => {
      assertError(
        await call(t(), `Bearer ${await sign({ alg: 'HS512' })}`),
        INVALID,
        CHALLENGE.INVALID_TOKEN,
      );
    });

    test('expired (right key, right claims, exp in the past) -> 401 EXPIRED_TOKEN', async () => {
      assertError(
        await call(t(), `Bearer ${await sign({ expiresIn: -120 })}`),
        EXPIRED,
        CHALLENGE.EXPIRED_TOKEN,
      );
    });

    for (const [name, claims] of [
      ['wrong issuer', { iss: 'someone-else' }],
      ['wrong audience', { aud: 'another-api' }],
      ['unknown client (sub)', { sub: 'no-such-client' }],
      ['no scope claim', { scope: undefined }],
      ['no exp claim', { exp: undefined }],
    ] as const) {
      test(`${name} -> 401 INVALID_TOKEN`, async () => {
        assertError(await call(t(), `Bearer ${await sign({ claims })}`), INVALID, CHALLENGE.INVALID_TOKEN);
      });
    }

    for (const scheme of ['bearer', 'BEARER', 'BeArEr']) {
      test(`scheme "${scheme}" is accepted (case-insensitive)`, async () => {
        const response = await call(t(), `${scheme} ${await t().token(['read'])}`);
        assert.equal(response.statusCode, 200, response.body);
      });
    }

    test('a token of a removed client is rejected', async () => {
      const client = await addClient(t().app.db, { name: 'to be removed', scopes: ['read', 'write'] });
      const token = await t().app.tokens.issue(client.clientId, ['read', 'write']);
      // Removed before the token is first used, so no cached verification can hide the removal.
      assert.equal(await deleteClient(t().app.db, client.clientId), true);
      assertError(await call(t(), `Bearer ${token}`), INVALID, CHALLENGE.INVALID_TOKEN);
    });

    test('a read-only token on POST -> 403 INSUFFICIENT_SCOPE (write)', async () => {
      const response = await t().request({
        method: 'POST',
        url: URL,
        body: { number: 'G-denied', type: 'CAPACITY_GROUP' },
        scopes: ['read'],
      });
      assertError(
        response,
        insufficient('write'),
        'Bearer realm="bridge", error="insufficient_scope", scope="write"',
      );
    });

    test('a write-only token on GET -> 403 INSUFFICIENT_SCOPE (read)', async () => {
      const response = await t().request({ url: URL, scopes: ['write'] });
      assertError(
        response,
        insufficient('read'),
        'Bearer realm="bridge", error="insufficient_scope", scope="read"',
      );
    });

    const now = () => Math.floor(Date.now() / 1000);
    test('issued in the future beyond the clock skew (iat = now + 1 h) -> 401 INVALID_TOKEN', async () => {
      const token = await sign({ claims: { iat: now() + 3600, exp: now() + 7200 } });
      assertError(await call(t(), `Bearer ${token}`), INVALID, CHALLENGE.INVALID_TOKEN);
    });

    test('issued just beyond the clock skew (iat = now + 90 s) -> 401 INVALID_TOKEN', async () => {
      const token = await sign({ claims: { iat: now() + 90 } });
      assertError(await call(t(), `Bearer ${token}`), INVALID, CHALLENGE.INVALID_TOKEN);
    });

    test('issued within the clock skew (iat = now + 20 s, another instance ahead) is accepted', async () => {
      const response = await call(t(), `Bearer ${await sign({ claims: { iat: now() + 20 } })}`);
      assert.equal(response.statusCode, 200, response.body);
    });

    test('no iat claim -> 401 INVALID_TOKEN', async () => {
      assertError(
        await call(t(), `Bearer ${await sign({ claims: { iat: undefined } })}`),
        INVALID,
        CHALLENGE.INVALID_TOKEN,
      );
    });

    methodScopeTests(t);
  },
  { BRIDGE_TOKEN_SECRET: APP_KEY },
);

/** The cached verification reads the client again every recheck interval (the app's clock). */
for (const backend of BACKENDS) {
  describe(`bearer authentication: client recheck [${backend}]`, () => {
    let r: RuntimeApp;
    before(async () => {
      r = await startRuntimeApp(backend, { BRIDGE_TOKEN_RECHECK_SECONDS: '30' });
    });
    after(async () => {
      await r?.close();
    });
    const post = (token: string, number: string) =>
      r.app.server.inject({
        method: 'POST',
        url: URL,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        payload: JSON.stringify({ number, type: 'CAPACITY_GROUP' }),
      });
    const setScopes = (clientId: string, scopes: string[]) =>
      r.app.db.query('UPDATE oauth_clients SET scopes = $2 WHERE client_id = $1', [clientId, scopes]);

    test('a scope taken from the client stops working within the recheck interval', async () => {
      const client = await addClient(r.app.db, { name: 'loses write', scopes: ['read', 'write'] });
      const token = await r.app.tokens.issue(client.clientId, ['read', 'write']);
      assert.equal((await post(token, 'G-before')).statusCode, 201);
      await setScopes(client.clientId, ['read']);
      // Still cached: the change is seen at the next recheck, not on every request.
      r.clock.advance(29_000);
      assert.equal((await post(token, 'G-cached')).statusCode, 201);
      r.clock.advance(1_000);
      const refused = await post(token, 'G-after');
      assertError(
        refused,
        insufficient('write'),
        'Bearer realm="bridge", error="insufficient_scope", scope="write"',
      );
      // Reading still works: only the removed scope is gone.
      const read = await r.app.server.inject({ url: URL, headers: { authorization: `Bearer ${token}` } });
      assert.equal(read.statusCode, 200, read.body);
    });

    test('a scope given back later does not widen a token beyond what it was issued with', async () => {
      const client = await addClient(r.app.db, { name: 'read token', scopes: ['read'] });
      const token = await r.app.tokens.issue(client.clientId, ['read']);
      await setScopes(client.clientId, ['read', 'write']);
      r.clock.advance(30_000);
      assert.equal((await post(token, 'G-never')).statusCode, 403);
    });
  });
}

/** Which scope each method needs, on a real resource: GET/HEAD read; POST, PUT, DELETE write. */
function methodScopeTests(t: () => TestApp) {
  let groupUrl = '';
  before(async () => {
    const created = await t().request({
      method: 'POST',
      url: URL,
      body: { number: 'G-scopes', type: 'CAPACITY_GROUP' },
    });
    assert.equal(created.statusCode, 201, created.body);
    groupUrl = `${URL}/${json(created).properties.id}`;
  });

  test('read-only token: GET and HEAD pass; POST, PUT, DELETE are 403', async () => {
    const read = ['read'];
    assert.equal((await t().request({ url: URL, scopes: read })).statusCode, 200);
    assert.equal((await t().request({ url: groupUrl, scopes: read })).statusCode, 200);
    assert.equal((await t().request({ method: 'HEAD', url: groupUrl, scopes: read })).statusCode, 200);
    const body = { number: 'G-scopes', type: 'PRODUCTION_LINE' };
    for (const [method, url] of [
      ['POST', URL],
      ['PUT', groupUrl],
      ['DELETE', groupUrl],
    ] as const) {
      const response = await t().request({
        method,
        url,
        body: method === 'DELETE' ? undefined : body,
        scopes: read,
      });
      assert.deepEqual([method, response.statusCode, json(response)], [method, 403, insufficient('write')]);
    }
  });

  test('write-only token: GET and HEAD are 403; POST, PUT, DELETE pass', async () => {
    const write = ['write'];
    const get = await t().request({ url: groupUrl, scopes: write });
    assert.deepEqual([get.statusCode, json(get)], [403, insufficient('read')]);
    const head = await t().request({ method: 'HEAD', url: groupUrl, scopes: write });
    assert.equal(head.statusCode, 403);
    assert.equal(
      head.headers['www-authenticate'],
      'Bearer realm="bridge", error="insufficient_scope", scope="read"',
    );

    const posted = await t().request({
      method: 'POST',
      url: URL,
      body: { number: 'G-write-only', type: 'CAPACITY_GROUP' },
      scopes: write,
    });
    assert.equal(posted.statusCode, 201, posted.body);
    const id = json(posted).properties.id;
    const put = await t().request({
      method: 'PUT',
      url: `${URL}/${id}`,
      body: { number: 'G-write-only', type: 'PRODUCTION_LINE' },
      scopes: write,
    });
    assert.equal(put.statusCode, 200, put.body);
    const deleted = await t().request({ method: 'DELETE', url: `${URL}/${id}`, scopes: write });
    assert.equal(deleted.statusCode, 204, deleted.body);
  });
}
