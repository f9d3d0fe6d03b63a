// The token endpoint's FORCE Bridge aliases (GET and POST /ffauth/oauth2.0/accessToken, at the root
// and under the base path, parameters also in the query string) and refresh tokens (single use,
// rotated, reuse revokes the chain, bound to the client, removed with it): docs/api.md,
// "Authentication".
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { decodeJwt } from 'jose';
import { addClient } from '../../src/auth/clients.ts';
import { deleteClient } from '../../src/db/repositories/clientRepository.ts';
import { countRefreshTokens } from '../../src/db/repositories/refreshTokenRepository.ts';
import { describeEachBackend, json, TEST_CLIENT, type TestApp } from '../support/app.ts';

const FORM = 'application/x-www-form-urlencoded';
const BASE = '/ffwebservices';
const ALIAS = '/ffauth/oauth2.0/accessToken';
const query = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

function token(
  t: TestApp,
  method: 'GET' | 'POST',
  url: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return t.app.server.inject({
    method,
    url,
    headers: body === undefined ? headers : { 'content-type': FORM, ...headers },
    ...(body === undefined ? {} : { payload: body }),
  });
}

/** A token answer whose access token works on the API with the scopes it names. */
async function assertWorkingToken(t: TestApp, response: LightMyRequestResponse, scope: string) {
  assert.equal(response.statusCode, 200, response.body);
  const body = json(response);
  assert.deepEqual(Object.keys(body).sort(), [
    'access_token',
    'expires_in',
    'refresh_token',
    'scope',
    'token_type',
  ]);
  assert.equal(body.scope, scope);
  assert.equal(decodeJwt(body.access_token).scope, scope);
  assert.match(body.refresh_token, /^[A-Za-z0-9_-]{43}$/);
  assert.equal(response.headers['cache-control'], 'no-store');
  const api = await t.app.server.inject({
    method: 'GET',
    url: `${BASE}/api/v2/workplaces`,
    headers: { authorization: `Bearer ${body.access_token}` },
  });
  assert.equal(api.statusCode, 200, api.body);
  return body as { access_token: string; refresh_token: string; expires_in: number };
}

function assertOAuthError(response: LightMyRequestResponse, status: number, error: string) {
  assert.equal(response.statusCode, status, response.body);
  assert.equal(json(response).error, error);
  assert.equal(response.headers['cache-control'], 'no-store');
}

const credentials = {
  client_id: TEST_CLIENT.id,
  client_secret: TEST_CLIENT.secret,
  grant_type: 'client_credentials',
};

describeEachBackend(
  'token endpoint aliases and refresh tokens',
  (t) => {
    for (const path of [ALIAS, `${BASE}${ALIAS}`]) {
      test(`GET ${path} with the credentials in the query string`, async () => {
        const response = await token(t(), 'GET', `${path}?${query({ ...credentials, scope: 'read write' })}`);
        await assertWorkingToken(t(), response, 'read write');
      });

      test(`POST ${path} with a form body`, async () => {
        const response = await token(t(), 'POST', path, query({ ...credentials, scope: 'read' }));
        await assertWorkingToken(t(), response, 'read');
      });

      test(`POST ${path} with HTTP Basic and grant_type in the query string, no body`, async () => {
        const response = await token(t(), 'POST', `${path}?grant_type=client_credentials`, undefined, {
          authorization: basic(TEST_CLIENT.id, TEST_CLIENT.secret),
        });
        await assertWorkingToken(t(), response, 'read write');
      });
    }

    test('the aliases check credentials like the standard path: wrong secret -> 401 invalid_client', async () => {
      const response = await token(
        t(),
        'GET',
        `${ALIAS}?${query({ ...credentials, client_secret: 'wrong' })}`,
      );
      assertOAuthError(response, 401, 'invalid_client');
      // The credentials came in the query, not in Basic: no Basic challenge (RFC 6749 5.2).
      assert.equal(response.headers['www-authenticate'], undefined);
    });

    test('a parameter in both query and body, or twice in the query -> 400 invalid_request', async () => {
      assertOAuthError(
        await token(t(), 'POST', `${ALIAS}?grant_type=client_credentials`, query(credentials)),
        400,
        'invalid_request',
      );
      assertOAuthError(
        await token(t(), 'GET', `${ALIAS}?${query(credentials)}&scope=read&scope=write`),
        400,
        'invalid_request',
      );
    });

    test('the standard path keeps reading the form only: credentials in its query string are not read', async () => {
      const response = await token(t(), 'POST', `${BASE}/oauth/token?${query(credentials)}`, '');
      assertOAuthError(response, 401, 'invalid_client');
    });

    test('HEAD on an alias issues nothing', async () => {
      const response = await t().app.server.inject({ method: 'HEAD', url: `${ALIAS}?${query(credentials)}` });
      assert.notEqual(response.statusCode, 200);
    });

    test('a refresh token gives a new access token and a new refresh token, on every token path', async () => {
      const client = await addClient(t().app.db, { name: 'refresher', scopes: ['read', 'write'] });
      const own = { client_id: client.clientId, client_secret: client.clientSecret };
      let current = await assertWorkingToken(
        t(),
        await token(
          t(),
          'POST',
          `${BASE}/oauth/token`,
          query({ ...own, grant_type: 'client_credentials', scope: 'read' }),
        ),
        'read',
      );
      const paths: ['GET' | 'POST', string, boolean][] = [
        ['POST', `${BASE}/oauth/token`, false],
        ['GET', ALIAS, true],
        ['POST', `${BASE}${ALIAS}`, false],
      ];
      for (const [method, path, inQuery] of paths) {
        const fields = query({ ...own, grant_type: 'refresh_token', refresh_token: current.refresh_token });
        const response = inQuery
          ? await token(t(), method, `${path}?${fields}`)
          : await token(t(), method, path, fields);
        const next = await assertWorkingToken(t(), response, 'read');
        assert.notEqual(next.refresh_token, current.refresh_token);
        assert.notEqual(next.access_token, current.access_token);
        current = next;
      }
    });

    test('a refresh may narrow the scopes but not widen them', async () => {
      const first = json(await token(t(), 'POST', ALIAS, query({ ...credentials, scope: 'read' })));
      const wider = await token(
        t(),
        'POST',
        ALIAS,
        query({
          ...credentials,
          grant_type: 'refresh_token',
          refresh_token: first.refresh_token,
          scope: 'write',
        }),
      );
      assertOAuthError(wider, 400, 'invalid_scope');
      // The refused refresh spent nothing: the same token still works.
      const same = await token(
        t(),
        'POST',
        ALIAS,
        query({ ...credentials, grant_type: 'refresh_token', refresh_token: first.refresh_token }),
      );
      await assertWorkingToken(t(), same, 'read');
    });

    test('reusing a spent refresh token -> invalid_grant, and the chain it belongs to is revoked', async () => {
      const refresh = (refreshToken: string) =>
        token(
          t(),
          'POST',
          ALIAS,
          query({ ...credentials, grant_type: 'refresh_token', refresh_token: refreshToken }),
        );
      const first = json(await token(t(), 'POST', ALIAS, query(credentials)));
      const second = await assertWorkingToken(t(), await refresh(first.refresh_token), 'read write');
      // The first one again: a copy is in use somewhere.
      assertOAuthError(await refresh(first.refresh_token), 400, 'invalid_grant');
      // The token issued from it is revoked with it.
      assertOAuthError(await refresh(second.refresh_token), 400, 'invalid_grant');
      // Other chains of the same client are untouched.
      const other = json(await token(t(), 'POST', ALIAS, query(credentials)));
      await assertWorkingToken(t(), await refresh(other.refresh_token), 'read write');
    });

    test("a refresh token is bound to its client: another client's -> invalid_grant, and it stays usable", async () => {
      const other = await addClient(t().app.db, { name: 'other', scopes: ['read', 'write'] });
      const mine = json(await token(t(), 'POST', ALIAS, query(credentials)));
      const stolen = await token(
        t(),
        'POST',
        ALIAS,
        query({
          client_id: other.clientId,
          client_secret: other.clientSecret,
          grant_type: 'refresh_token',
          refresh_token: mine.refresh_token,
        }),
      );
      assertOAuthError(stolen, 400, 'invalid_grant');
      const own = await token(
        t(),
        'POST',
        ALIAS,
        query({ ...credentials, grant_type: 'refresh_token', refresh_token: mine.refresh_token }),
      );
      await assertWorkingToken(t(), own, 'read write');
    });

    test('a refresh needs the client credentials, a refresh_token, and a token of ours', async () => {
      const issued = json(await token(t(), 'POST', ALIAS, query(credentials)));
      assertOAuthError(
        await token(
          t(),
          'POST',
          ALIAS,
          query({ grant_type: 'refresh_token', refresh_token: issued.refresh_token }),
        ),
        401,
        'invalid_client',
      );
      assertOAuthError(
        await token(t(), 'POST', ALIAS, query({ ...credentials, grant_type: 'refresh_token' })),
        400,
        'invalid_request',
      );
      for (const bogus of ['x', 'A'.repeat(43), `${issued.refresh_token}\u0000`]) {
        assertOAuthError(
          await token(
            t(),
            'POST',
            ALIAS,
            query({ ...credentials, grant_type: 'refresh_token', refresh_token: bogus }),
          ),
          400,
          'invalid_grant',
        );
      }
    });

    test('removing a client removes its refresh tokens', async () => {
      const client = await addClient(t().app.db, { name: 'leaving', scopes: ['read'] });
      const own = { client_id: client.clientId, client_secret: client.clientSecret };
      const issued = json(
        await token(t(), 'POST', ALIAS, query({ ...own, grant_type: 'client_credentials' })),
      );
      assert.equal(await countRefreshTokens(t().app.db, client.clientId), 1);
      assert.equal(await deleteClient(t().app.db, client.clientId), true);
      assert.equal(await countRefreshTokens(t().app.db, client.clientId), 0);
      assert.match(issued.refresh_token, /^[A-Za-z0-9_-]{43}$/);
    });
  },
  { BRIDGE_BASE_PATH: BASE },
);

describeEachBackend(
  'refresh token lifetime',
  (t) => {
    test('a refresh token past its lifetime (BRIDGE_REFRESH_TOKEN_TTL_SECONDS) -> invalid_grant', async () => {
      const issued = json(await token(t(), 'POST', ALIAS, query(credentials)));
      // Age the stored token instead of waiting: its expiry is moved into the past.
      await t().database.db.query(
        "UPDATE refresh_tokens SET expires_at = now() - interval '1 second' WHERE client_id = $1",
        [TEST_CLIENT.id],
      );
      const response = await token(
        t(),
        'POST',
        ALIAS,
        query({ ...credentials, grant_type: 'refresh_token', refresh_token: issued.refresh_token }),
      );
      assertOAuthError(response, 400, 'invalid_grant');
    });

    test('the lifetime is the setting', async () => {
      await token(t(), 'POST', ALIAS, query(credentials));
      const [row] = await t().database.db.query<{ seconds: number }>(
        'SELECT max(extract(epoch FROM expires_at - created_at))::int AS seconds FROM refresh_tokens',
      );
      assert.equal(row?.seconds, 120);
    });
  },
  { BRIDGE_REFRESH_TOKEN_TTL_SECONDS: '120' },
);
