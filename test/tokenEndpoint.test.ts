// POST /oauth/token: OAuth 2.0 client credentials exactly as contract 9 and RFC 6749 (4.4, 2.3.1,
// 5.1, 5.2). Whole response bodies are asserted; access tokens are checked by decoding them and by
// using them on the API.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { decodeJwt } from 'jose';
import { addClient } from '../src/auth/clients.ts';
import { hashSecret } from '../src/auth/secrets.ts';
import { insertClient } from '../src/db/repositories/clients.ts';
import { describeEachBackend, json, TEST_CLIENT, type TestApp } from './support/app.ts';

const TTL_SECONDS = 900;
const FORM = 'application/x-www-form-urlencoded';
const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

// Id and secret hold characters that must be URL-encoded inside the Basic value (space, ':', '/',
// '+', '%', '&', '=', non-ASCII): a server that skips the decoding step cannot authenticate them.
const ODD_CLIENT = { id: 'plant app:1/ü', secret: 'pa ss:w/rd+%&=ü-0123456789' };
// RFC 6749 2.3.1 names application/x-www-form-urlencoded (space as '+'); RFC 1738-style
// percent-encoding (space as %20) is what spec 5.2 describes. Both must decode to the same value.
const formEncode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
const basic = (id: string, secret: string, encode: (value: string) => string = encodeURIComponent) =>
  `Basic ${Buffer.from(`${encode(id)}:${encode(secret)}`).toString('base64')}`;

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

function postToken(
  t: TestApp,
  body: string,
  headers: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  return t.app.server.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: { 'content-type': FORM, ...headers },
    payload: body,
  });
}

/** A successful token answer: whole body, no-store headers, and the claims inside the token. */
function assertToken(response: LightMyRequestResponse, clientId: string, scope: string): string {
  assert.equal(response.statusCode, 200, response.body);
  const body = json(response);
  assert.match(body.access_token, JWT);
  assert.deepEqual(body, {
    access_token: body.access_token,
    token_type: 'bearer',
    expires_in: TTL_SECONDS,
    scope,
  });
  assert.equal(response.headers['cache-control'], 'no-store');
  assert.equal(response.headers.pragma, 'no-cache');
  assert.match(String(response.headers['content-type']), /^application\/json/);
  const claims = decodeJwt(body.access_token);
  assert.equal(claims.sub, clientId);
  assert.equal(claims.scope, scope);
  assert.equal(claims.iss, 'bridge-service');
  assert.equal(claims.aud, 'bridge-api');
  // expires_in is in seconds and matches the token's own lifetime.
  assert.equal(Number(claims.exp) - Number(claims.iat), TTL_SECONDS);
  return body.access_token;
}

/** An RFC 6749 5.2 error: exactly {error, error_description}, never cached. */
function assertOAuthError(
  response: LightMyRequestResponse,
  status: number,
  error: string,
  description: string,
) {
  assert.equal(response.statusCode, status, response.body);
  assert.deepEqual(json(response), { error, error_description: description });
  assert.equal(response.headers['cache-control'], 'no-store');
  if (status === 401) {
    assert.equal(response.headers['www-authenticate'], 'Basic realm="bridge", charset="UTF-8"');
  } else {
    assert.equal(response.headers['www-authenticate'], undefined);
  }
}

const CLIENT_FAILED = 'Client authentication failed.';

describeEachBackend(
  'token endpoint',
  (t) => {
    let reader: { clientId: string; clientSecret: string };

    before(async () => {
      // insertClient with a chosen secret, because addClient generates URL-safe secrets only.
      await insertClient(t().app.db, {
        clientId: ODD_CLIENT.id,
        name: 'odd characters',
        secretHash: await hashSecret(ODD_CLIENT.secret),
        scopes: ['read', 'write'],
        createdAt: new Date(),
      });
      reader = await addClient(t().app.db, { name: 'reader', scopes: ['read'] });
    });

    test('Basic with percent-encoded id and secret (spec 5.2) gives a token for every client scope', async () => {
      const response = await postToken(t(), 'grant_type=client_credentials', {
        authorization: basic(ODD_CLIENT.id, ODD_CLIENT.secret),
      });
      assertToken(response, ODD_CLIENT.id, 'read write');
    });

    test('Basic with form-encoded id and secret (space as +, RFC 6749 2.3.1) works too', async () => {
      const response = await postToken(t(), 'grant_type=client_credentials', {
        authorization: basic(ODD_CLIENT.id, ODD_CLIENT.secret, formEncode),
      });
      assertToken(response, ODD_CLIENT.id, 'read write');
    });

    test('Basic with a client id made by addClient (the CLI path)', async () => {
      const created = await addClient(t().app.db, { clientId: 'plant app:2/ü', scopes: ['read'] });
      const response = await postToken(t(), 'grant_type=client_credentials', {
        authorization: basic(created.clientId, created.clientSecret),
      });
      assertToken(response, 'plant app:2/ü', 'read');
    });

    test('the Basic scheme name is case-insensitive', async () => {
      const response = await postToken(t(), 'grant_type=client_credentials', {
        authorization: basic(TEST_CLIENT.id, TEST_CLIENT.secret).replace('Basic', 'bAsIc'),
      });
      assertToken(response, TEST_CLIENT.id, 'read write');
    });

    test('form fields client_id and client_secret (decoded by the form, not twice)', async () => {
      const response = await postToken(
        t(),
        form({
          grant_type: 'client_credentials',
          client_id: ODD_CLIENT.id,
          client_secret: ODD_CLIENT.secret,
        }),
      );
      assertToken(response, ODD_CLIENT.id, 'read write');
    });

    test('Basic and form fields at once -> 400 invalid_request', async () => {
      const response = await postToken(
        t(),
        form({
          grant_type: 'client_credentials',
          client_id: TEST_CLIENT.id,
          client_secret: TEST_CLIENT.secret,
        }),
        { authorization: basic(TEST_CLIENT.id, TEST_CLIENT.secret) },
      );
      assertOAuthError(
        response,
        400,
        'invalid_request',
        'Use either HTTP Basic or form fields for the client, not both.',
      );
    });

    test('missing grant_type -> 400 invalid_request', async () => {
      const response = await postToken(t(), 'scope=read', {
        authorization: basic(TEST_CLIENT.id, TEST_CLIENT.secret),
      });
      assertOAuthError(response, 400, 'invalid_request', "Parameter 'grant_type' is required.");
    });

    test('a repeated parameter -> 400 invalid_request (RFC 6749 3.2)', async () => {
      const response = await postToken(t(), 'grant_type=client_credentials&scope=read&scope=write', {
        authorization: basic(TEST_CLIENT.id, TEST_CLIENT.secret),
      });
      assertOAuthError(response, 400, 'invalid_request', "Parameter 'scope' must not be repeated.");
    });

    for (const grantType of ['password', 'authorization_code', 'refresh_token', 'CLIENT_CREDENTIALS']) {
      test(`grant_type=${grantType} -> 400 unsupported_grant_type`, async () => {
        const response = await postToken(t(), form({ grant_type: grantType }), {
          authorization: basic(TEST_CLIENT.id, TEST_CLIENT.secret),
        });
        assertOAuthError(
          response,
          400,
          'unsupported_grant_type',
          'Only the grant type client_credentials is supported.',
        );
      });
    }

    test('wrong secret (Basic) -> 401 invalid_client with WWW-Authenticate', async () => {
      const response = await postToken(t(), 'grant_type=client_credentials', {
        authorization: basic(TEST_CLIENT.id, `${TEST_CLIENT.secret}x`),
      });
      assertOAuthError(response, 401, 'invalid_client', CLIENT_FAILED);
    });

    test('wrong secret (form fields) -> 401 invalid_client', async () => {
      const response = await postToken(
        t(),
        form({ grant_type: 'client_credentials', client_id: TEST_CLIENT.id, client_secret: 'wrong' }),
      );
      assertOAuthError(response, 401, 'invalid_client', CLIENT_FAILED);
    });

    test('unknown client -> the same 401 invalid_client (ids are not revealed)', async () => {
      const response = await postToken(t(), 'grant_type=client_credentials', {
        authorization: basic('no-such-client', TEST_CLIENT.secret),
      });
      assertOAuthError(response, 401, 'invalid_client', CLIENT_FAILED);
    });

    test('the undecoded id of an odd client is not accepted (the server decodes exactly once)', async () => {
      // Percent-encoding twice means the server would have to decode twice to find the client.
      const twice = (value: string) => encodeURIComponent(encodeURIComponent(value));
      const response = await postToken(t(), 'grant_type=client_credentials', {
        authorization: basic(ODD_CLIENT.id, ODD_CLIENT.secret, twice),
      });
      assertOAuthError(response, 401, 'invalid_client', CLIENT_FAILED);
    });

    test('no client authentication at all -> 401 invalid_client', async () => {
      const response = await postToken(t(), 'grant_type=client_credentials');
      assertOAuthError(
        response,
        401,
        'invalid_client',
        'Client authentication is missing: use HTTP Basic or client_id and client_secret.',
      );
    });

    for (const [name, authorization] of [
      ['Basic without a colon', `Basic ${Buffer.from('just-an-id').toString('base64')}`],
      ['Basic with an empty id', `Basic ${Buffer.from(':secret').toString('base64')}`],
      ['Basic with a bad value', 'Basic !!!'],
      ['another scheme', `Bearer ${Buffer.from('a:b').toString('base64')}`],
    ] as const) {
      test(`malformed Authorization (${name}) -> 401 invalid_client`, async () => {
        const response = await postToken(t(), 'grant_type=client_credentials', { authorization });
        assertOAuthError(
          response,
          401,
          'invalid_client',
          'The Authorization header is not valid HTTP Basic.',
        );
      });
    }

    test('scope omitted -> every scope the client holds', async () => {
      const response = await postToken(t(), 'grant_type=client_credentials', {
        authorization: basic(reader.clientId, reader.clientSecret),
      });
      assertToken(response, reader.clientId, 'read');
    });

    test('empty scope -> every scope the client holds', async () => {
      const response = await postToken(t(), 'grant_type=client_credentials&scope=', {
        authorization: basic(TEST_CLIENT.id, TEST_CLIENT.secret),
      });
      assertToken(response, TEST_CLIENT.id, 'read write');
    });

    test('a subset of the scopes -> a token with only that subset', async () => {
      const response = await postToken(t(), form({ grant_type: 'client_credentials', scope: 'read' }), {
        authorization: basic(TEST_CLIENT.id, TEST_CLIENT.secret),
      });
      const token = assertToken(response, TEST_CLIENT.id, 'read');
      // The narrowed token really is read-only on the API.
      const write = await t().request({
        method: 'POST',
        url: '/api/v2/workplaceGroups',
        body: { number: 'G-1', type: 'CAPACITY_GROUP' },
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(write.statusCode, 403);
      assert.equal(json(write).code, 'INSUFFICIENT_SCOPE');
    });

    test('space-delimited scopes, repeats collapsed', async () => {
      const response = await postToken(
        t(),
        form({ grant_type: 'client_credentials', scope: 'write  read write' }),
        { authorization: basic(TEST_CLIENT.id, TEST_CLIENT.secret) },
      );
      assertToken(response, TEST_CLIENT.id, 'write read');
    });

    test('a scope the client does not hold -> 400 invalid_scope', async () => {
      const response = await postToken(t(), form({ grant_type: 'client_credentials', scope: 'read write' }), {
        authorization: basic(reader.clientId, reader.clientSecret),
      });
      assertOAuthError(response, 400, 'invalid_scope', 'Scope not granted to this client: write.');
    });

    test('an unknown scope -> 400 invalid_scope', async () => {
      const response = await postToken(t(), form({ grant_type: 'client_credentials', scope: 'admin' }), {
        authorization: basic(TEST_CLIENT.id, TEST_CLIENT.secret),
      });
      assertOAuthError(response, 400, 'invalid_scope', 'Scope not granted to this client: admin.');
    });

    // Contract 9: the standard form type and the spec's spelling, each with or without a charset.
    for (const contentType of [
      'application/x-www-form-urlencoded',
      'application/x-www-form-urlencoded; charset=utf-8',
      'application/x-www-urlencode',
      'application/x-www-urlencode; charset=utf-8',
      'Application/X-WWW-Form-URLEncoded;charset=UTF-8',
    ]) {
      test(`content type "${contentType}" is accepted`, async () => {
        const response = await postToken(
          t(),
          form({
            grant_type: 'client_credentials',
            client_id: ODD_CLIENT.id,
            client_secret: ODD_CLIENT.secret,
          }),
          { 'content-type': contentType },
        );
        assertToken(response, ODD_CLIENT.id, 'read write');
      });
    }

    for (const [contentType, body] of [
      ['application/json', JSON.stringify({ grant_type: 'client_credentials' })],
      ['text/plain', 'grant_type=client_credentials'],
      [
        'multipart/form-data; boundary=x',
        '--x\r\ncontent-disposition: form-data; name="a"\r\n\r\nb\r\n--x--',
      ],
    ] as const) {
      test(`content type "${contentType}" -> 400 invalid_request`, async () => {
        const response = await postToken(t(), body, {
          'content-type': contentType,
          authorization: basic(TEST_CLIENT.id, TEST_CLIENT.secret),
        });
        assertOAuthError(
          response,
          400,
          'invalid_request',
          'Send the token request as an application/x-www-form-urlencoded body of a reasonable size.',
        );
      });
    }

    test('GET /oauth/token is not a token request', async () => {
      const response = await t().app.server.inject({ method: 'GET', url: '/oauth/token' });
      assert.equal(response.statusCode, 405);
      assert.equal(response.headers.allow, 'POST');
    });

    test('the token works on the API (Basic-issued and form-issued)', async () => {
      const viaBasic = assertToken(
        await postToken(t(), 'grant_type=client_credentials', {
          authorization: basic(ODD_CLIENT.id, ODD_CLIENT.secret),
        }),
        ODD_CLIENT.id,
        'read write',
      );
      const viaForm = assertToken(
        await postToken(
          t(),
          form({
            grant_type: 'client_credentials',
            client_id: TEST_CLIENT.id,
            client_secret: TEST_CLIENT.secret,
          }),
        ),
        TEST_CLIENT.id,
        'read write',
      );
      for (const token of [viaBasic, viaForm]) {
        const read = await t().request({ url: '/api/v2', headers: { authorization: `Bearer ${token}` } });
        assert.equal(read.statusCode, 200);
        assert.equal(json(read).properties.version, 2);
        const write = await t().request({
          method: 'POST',
          url: '/api/v2/workplaceGroups',
          body: { number: `G-${token.slice(-8)}`, type: 'CAPACITY_GROUP' },
          headers: { authorization: `Bearer ${token}` },
        });
        assert.equal(write.statusCode, 201, write.body);
      }
    });
  },
  { BRIDGE_TOKEN_TTL_SECONDS: String(TTL_SECONDS) },
);
