// POST /oauth/token: OAuth 2.0 client credentials exactly as docs/api.md "Authentication" and RFC 6749 (4.4, 2.3.1,
// 5.1, 5.2). Whole response bodies are asserted; access tokens are checked by decoding them and by
// using them on the API.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { decodeJwt } from 'jose';
import { addClient } from '../../src/auth/clients.ts';
import { hashSecret } from '../../src/auth/secrets.ts';
import { insertClient } from '../../src/db/repositories/clientRepository.ts';
import { describeEachBackend, json, TEST_CLIENT, type TestApp } from '../support/app.ts';
import { BACKENDS } from '../support/databases.ts';
import { type RuntimeApp, startRuntimeApp } from '../support/runtimeApp.ts';

const TTL_SECONDS = 900;
const FORM = 'application/x-www-form-urlencoded';
const JWT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

// Id and secret hold characters that must be URL-encoded inside the Basic value (space, ':', '/',
// '+', '%', '&', '=', non-ASCII): a server that skips the decoding step cannot authenticate them.
const ODD_CLIENT = { id: 'plant app:1/ü', secret: 'pa ss:w/rd+%&=ü-0123456789' };
// RFC 6749 2.3.1 names application/x-www-form-urlencoded (space as '+'); RFC 1738-style
// percent-encoding (space as %20) is what docs/api.md "Authentication" describes. Both must decode to the same value.
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
  assert.match(body.refresh_token, /^[A-Za-z0-9_-]{43}$/);
  assert.deepEqual(body, {
    access_token: body.access_token,
    token_type: 'bearer',
    expires_in: TTL_SECONDS,
    refresh_token: body.refresh_token,
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
  // RFC 6749 5.2: the Basic challenge answers only a request that tried Basic (a browser would
  // open its own dialog over a page that signs in with form fields).
  const triedBasic = /^basic/i.test(String(response.raw.req.headers.authorization ?? ''));
  if (status === 401 && triedBasic) {
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

    test('Basic with percent-encoded id and secret (docs/api.md "Authentication") gives a token for every client scope', async () => {
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

    for (const grantType of ['password', 'authorization_code', 'REFRESH_TOKEN', 'CLIENT_CREDENTIALS']) {
      test(`grant_type=${grantType} -> 400 unsupported_grant_type`, async () => {
        const response = await postToken(t(), form({ grant_type: grantType }), {
          authorization: basic(TEST_CLIENT.id, TEST_CLIENT.secret),
        });
        assertOAuthError(
          response,
          400,
          'unsupported_grant_type',
          'Only the grant types client_credentials and refresh_token are supported.',
        );
      });
    }

    test('wrong secret (Basic) -> 401 invalid_client with WWW-Authenticate', async () => {
      const response = await postToken(t(), 'grant_type=client_credentials', {
        authorization: basic(TEST_CLIENT.id, `${TEST_CLIENT.secret}x`),
      });
      assertOAuthError(response, 401, 'invalid_client', CLIENT_FAILED);
    });

    test('wrong secret (form fields) -> 401 invalid_client without a WWW-Authenticate challenge', async () => {
      const response = await postToken(
        t(),
        form({ grant_type: 'client_credentials', client_id: TEST_CLIENT.id, client_secret: 'wrong' }),
      );
      assertOAuthError(response, 401, 'invalid_client', CLIENT_FAILED);
      assert.equal(response.headers['www-authenticate'], undefined);
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

    // Credential fields the database cannot hold or that no client can have (NUL, huge, not
    // UTF-8) are a failed authentication like any other, never a 500.
    const nul = 'test-client\u0000x';
    const huge = 'x'.repeat(200_000);
    const rawBasic = (bytes: Buffer) => `Basic ${bytes.toString('base64')}`;
    for (const [name, body, headers] of [
      [
        'form client_id with NUL',
        `grant_type=client_credentials&client_id=test%00client&client_secret=s`,
        {},
      ],
      [
        'form client_secret with NUL',
        form({
          grant_type: 'client_credentials',
          client_id: TEST_CLIENT.id,
          client_secret: `${TEST_CLIENT.secret}\u0000`,
        }),
        {},
      ],
      [
        'Basic id with %00',
        'grant_type=client_credentials',
        { authorization: basic(nul, TEST_CLIENT.secret) },
      ],
      [
        'Basic with a raw NUL byte',
        'grant_type=client_credentials',
        { authorization: rawBasic(Buffer.from(`${nul}:${TEST_CLIENT.secret}`)) },
      ],
      [
        'Basic secret with %00',
        'grant_type=client_credentials',
        { authorization: basic(TEST_CLIENT.id, `a\u0000b`) },
      ],
      [
        'form client_id of 200,000 characters',
        form({ grant_type: 'client_credentials', client_id: huge, client_secret: 's' }),
        {},
      ],
      [
        'form client_secret of 200,000 characters',
        form({ grant_type: 'client_credentials', client_id: TEST_CLIENT.id, client_secret: huge }),
        {},
      ],
      [
        'Basic id of 200,000 characters',
        'grant_type=client_credentials',
        { authorization: basic(huge, 's') },
      ],
      [
        'Basic secret of 200,000 characters',
        'grant_type=client_credentials',
        { authorization: basic(TEST_CLIENT.id, huge) },
      ],
      ['form client_id not UTF-8', 'grant_type=client_credentials&client_id=%FF%FEtest&client_secret=s', {}],
      [
        'form client_secret not UTF-8',
        `grant_type=client_credentials&client_id=${TEST_CLIENT.id}&client_secret=%C3%28`,
        {},
      ],
      [
        'Basic id with raw bytes that are not UTF-8',
        'grant_type=client_credentials',
        {
          authorization: rawBasic(
            Buffer.concat([Buffer.from([0xff, 0xfe, 0x41]), Buffer.from(`:${TEST_CLIENT.secret}`)]),
          ),
        },
      ],
      [
        'Basic secret with raw bytes that are not UTF-8',
        'grant_type=client_credentials',
        {
          authorization: rawBasic(
            Buffer.concat([Buffer.from(`${TEST_CLIENT.id}:`), Buffer.from([0xc3, 0x28])]),
          ),
        },
      ],
      [
        'form client_id with an encoded surrogate',
        'grant_type=client_credentials&client_id=a%ED%A0%80&client_secret=s',
        {},
      ],
    ] as const) {
      test(`${name} -> 401 invalid_client`, async () => {
        const response = await postToken(t(), body, headers as Record<string, string>);
        assertOAuthError(response, 401, 'invalid_client', CLIENT_FAILED);
      });
    }

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

    // docs/api.md "Authentication": the standard form type and the FORCE Bridge spelling, each with or without a charset.
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
  {
    BRIDGE_TOKEN_TTL_SECONDS: String(TTL_SECONDS),
    // This suite fails on purpose many times from one address; the limits have their own suite.
    BRIDGE_TOKEN_BACKOFF_AFTER_FAILURES: '1000',
    BRIDGE_TOKEN_FAILURES_PER_ADDRESS: '1000',
  },
);

/** Failed attempts are limited per (client id, address) pair and per source address, on the app's clock. */
for (const backend of BACKENDS) {
  describe(`token endpoint limits [${backend}]`, () => {
    let r: RuntimeApp;
    before(async () => {
      r = await startRuntimeApp(backend, {
        BRIDGE_TOKEN_BACKOFF_AFTER_FAILURES: '3',
        BRIDGE_TOKEN_FAILURES_PER_ADDRESS: '5',
        BRIDGE_TOKEN_FAILURE_WINDOW_SECONDS: '60',
        // Refusals are answered at once here; the delay has its own test.
        BRIDGE_TOKEN_REFUSAL_DELAY_MS: '0',
        BRIDGE_TOKEN_TTL_SECONDS: String(TTL_SECONDS),
      });
    });
    after(async () => {
      await r?.close();
    });

    let address = 0;
    /** Each test gets its own source addresses, so the per-address windows do not overlap. */
    const nextAddress = () => {
      address += 1;
      return `10.0.0.${address}`;
    };
    const attempt = (id: string, secret: string, remoteAddress: string) =>
      r.app.server.inject({
        method: 'POST',
        url: '/oauth/token',
        remoteAddress,
        headers: { 'content-type': FORM, authorization: basic(id, secret) },
        payload: 'grant_type=client_credentials',
      });
    const assertLimited = (response: LightMyRequestResponse, retryAfter: number) => {
      assert.equal(response.statusCode, 429, response.body);
      assert.deepEqual(json(response), {
        error: 'slow_down',
        error_description: `Too many failed client authentications; try again in ${retryAfter} s.`,
      });
      assert.equal(response.headers['retry-after'], String(retryAfter));
      assert.equal(response.headers['cache-control'], 'no-store');
    };

    test('per (client id, address): after 3 failures that pair waits; the client elsewhere does not', async () => {
      const victim = await addClient(r.app.db, { name: 'victim', scopes: ['read'] });
      const guesser = nextAddress();
      for (let i = 0; i < 3; i += 1) {
        const response = await attempt(victim.clientId, 'wrong', guesser);
        assertOAuthError(response, 401, 'invalid_client', CLIENT_FAILED);
      }
      assertLimited(await attempt(victim.clientId, victim.clientSecret, guesser), 1);
      // The same client from another address, and another client from the guesser's, are served.
      assertToken(
        await attempt(victim.clientId, victim.clientSecret, nextAddress()),
        victim.clientId,
        'read',
      );
      assertToken(await attempt(TEST_CLIENT.id, TEST_CLIENT.secret, guesser), TEST_CLIENT.id, 'read write');
      r.clock.advance(1000);
      assertToken(await attempt(victim.clientId, victim.clientSecret, guesser), victim.clientId, 'read');
    });

    test('per source address: after 5 failures with any ids, that address gets 429; others do not', async () => {
      const flooder = nextAddress();
      for (let i = 0; i < 5; i += 1) {
        const response = await attempt(`unknown-${i}`, 'wrong', flooder);
        assertOAuthError(response, 401, 'invalid_client', CLIENT_FAILED);
      }
      assertLimited(await attempt('someone-else', 'x', flooder), 60);
      // Malformed credentials are refused before they are read, too.
      assertLimited(await attempt('', '', flooder), 60);
      assertToken(
        await attempt(TEST_CLIENT.id, TEST_CLIENT.secret, nextAddress()),
        TEST_CLIENT.id,
        'read write',
      );
      r.clock.advance(60_000);
      assertToken(await attempt(TEST_CLIENT.id, TEST_CLIENT.secret, flooder), TEST_CLIENT.id, 'read write');
      // A pair verified before is answered from memory even while its address is refused.
      for (let i = 0; i < 5; i += 1) await attempt(`unknown-again-${i}`, 'wrong', flooder);
      assertLimited(await attempt('someone-else', 'x', flooder), 60);
      assertToken(await attempt(TEST_CLIENT.id, TEST_CLIENT.secret, flooder), TEST_CLIENT.id, 'read write');
    });

    test('malformed and unusable credentials count as failures of the address', async () => {
      const flooder = nextAddress();
      for (const [id, secret] of [
        ['', 'x'],
        ['a\u0000b', 'x'],
        ['x'.repeat(300), 'x'],
        [TEST_CLIENT.id, 'x'.repeat(2000)],
        [TEST_CLIENT.id, 'a\u0000'],
      ]) {
        const response = await attempt(id as string, secret as string, flooder);
        assert.equal(response.statusCode, 401, response.body);
      }
      assertLimited(await attempt('someone-else', 'x', flooder), 60);
      // They name no usable client id, so the client itself is not limited.
      assertToken(
        await attempt(TEST_CLIENT.id, TEST_CLIENT.secret, nextAddress()),
        TEST_CLIENT.id,
        'read write',
      );
    });

    test('a success starts the pair count afresh', async () => {
      const client = await addClient(r.app.db, { name: 'forgetful', scopes: ['read'] });
      const from = nextAddress();
      for (let round = 0; round < 2; round += 1) {
        for (let i = 0; i < 2; i += 1) {
          assert.equal((await attempt(client.clientId, 'wrong', from)).statusCode, 401);
        }
        assertToken(await attempt(client.clientId, client.clientSecret, from), client.clientId, 'read');
      }
    });
  });
}

describe('token endpoint hash slots', () => {
  let r: RuntimeApp;
  before(async () => {
    r = await startRuntimeApp(BACKENDS[0] ?? 'pglite', {
      BRIDGE_TOKEN_HASH_CONCURRENCY: '1',
      BRIDGE_TOKEN_HASH_QUEUE: '3',
      BRIDGE_TOKEN_HASH_QUEUE_PER_CLIENT: '2',
      BRIDGE_TOKEN_FAILURES_PER_ADDRESS: '1000',
      BRIDGE_TOKEN_BACKOFF_AFTER_FAILURES: '1000',
      BRIDGE_TOKEN_REFUSAL_DELAY_MS: '300',
    });
  });
  after(async () => {
    await r?.close();
  });

  const wrong = (clientId: string, remoteAddress: string) =>
    r.app.server.inject({
      method: 'POST',
      url: '/oauth/token',
      remoteAddress,
      headers: { 'content-type': FORM, authorization: basic(clientId, 'wrong') },
      payload: 'grant_type=client_credentials',
    });
  const BUSY = {
    error: 'slow_down',
    error_description: 'Too many client authentications at once; try again in 1 s.',
  };

  test('one client id gets at most its share of hash places, from any addresses; another id is still hashed', async () => {
    const guessed = await addClient(r.app.db, { name: 'guessed', scopes: ['read'] });
    const other = await addClient(r.app.db, { name: 'other', scopes: ['read'] });
    const started = performance.now();
    const [otherResponse, ...flood] = await Promise.all([
      wrong(other.clientId, '10.1.0.99'),
      ...Array.from({ length: 8 }, (_, i) => wrong(guessed.clientId, `10.1.0.${i + 1}`)),
    ]);
    // The other id got its turn: its answer is the ordinary failure, not a refusal.
    assertOAuthError(otherResponse as LightMyRequestResponse, 401, 'invalid_client', CLIENT_FAILED);
    // Two of the guessed id's checks wait (and one runs, if it came before the other id's); the
    // rest are refused without a hash.
    const hashed = flood.filter((response) => response.statusCode === 401).length;
    assert.ok(hashed === 2 || hashed === 3, `${hashed} hashed`);
    assert.equal(flood.filter((response) => response.statusCode === 429).length, 8 - hashed);
    for (const response of flood.filter((response) => response.statusCode === 429)) {
      assert.deepEqual(json(response), BUSY);
      assert.equal(response.headers['retry-after'], '1');
    }
    // Refusals are held for the refusal delay (a lower bound only).
    assert.ok(performance.now() - started >= 300);
  });

  test('with every hash slot and queue place taken, another id gets 429 with Retry-After 1', async () => {
    const ids = await Promise.all(
      [0, 1, 2, 3, 4].map(
        async (i) => (await addClient(r.app.db, { name: `c${i}`, scopes: ['read'] })).clientId,
      ),
    );
    const responses = await Promise.all(ids.map((id, i) => wrong(id, `10.2.0.${i + 1}`)));
    // One hashes, three wait, the fifth finds neither a slot nor a place in the queue.
    assert.deepEqual(responses.map((response) => response.statusCode).sort(), [401, 401, 401, 401, 429]);
    const busy = responses.find((response) => response.statusCode === 429);
    assert.deepEqual(busy && json(busy), BUSY);
  });
});
