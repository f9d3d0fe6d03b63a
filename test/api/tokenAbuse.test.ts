// The token endpoint under abuse (docs/api.md, "Limits"): a valid client's cost does not depend on
// what others send. Shown by state, not timings: the endpoint's check counter
// (bridge_token_client_checks_total on GET /metrics) says how each check was decided, so a flood
// that makes the service hash shows as hashes.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { addClient } from '../../src/auth/clients.ts';
import { json, TEST_CLIENT } from '../support/app.ts';
import { BACKENDS } from '../support/databases.ts';
import { type RuntimeApp, startRuntimeApp } from '../support/runtimeApp.ts';

const FORM = 'application/x-www-form-urlencoded';
const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

/** A client credentials token request from `remoteAddress`, with Basic auth. */
const tokenRequest = (r: RuntimeApp, id: string, secret: string, remoteAddress: string) =>
  r.app.server.inject({
    method: 'POST',
    url: '/oauth/token',
    remoteAddress,
    headers: { 'content-type': FORM, authorization: basic(id, secret) },
    payload: 'grant_type=client_credentials',
  });

for (const backend of BACKENDS) {
  describe(`token endpoint under abuse [${backend}]`, () => {
    let r: RuntimeApp;
    before(async () => {
      // The limits as shipped, refusals answered at once.
      r = await startRuntimeApp(backend, { BRIDGE_TOKEN_REFUSAL_DELAY_MS: '0' });
    });
    after(async () => {
      await r?.close();
    });

    const attempt = (id: string, secret: string, remoteAddress: string) =>
      tokenRequest(r, id, secret, remoteAddress);
    const checks = async (): Promise<Record<string, number>> => {
      const token = await r.app.tokens.issue(TEST_CLIENT.id, ['read']);
      const response = await r.app.server.inject({
        url: '/metrics',
        headers: { authorization: `Bearer ${token}` },
      });
      assert.equal(response.statusCode, 200);
      const counts: Record<string, number> = {};
      for (const [, how, value] of response.body.matchAll(
        /^bridge_token_client_checks_total\{how="(\w+)"\} (\d+)$/gm,
      )) {
        counts[how as string] = Number(value);
      }
      return counts;
    };
    const assertToken = (response: LightMyRequestResponse) => {
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(typeof json(response).access_token, 'string');
    };
    let net = 0;
    const address = () => {
      net += 1;
      return `10.${net >> 8}.${net & 255}.1`;
    };

    test('a fresh start: a wrong secret is 401 and concurrent valid requests from one address all get tokens', async () => {
      const client = await addClient(r.app.db, { name: 'two apps on one host', scopes: ['read'] });
      const host = address();
      const responses = await Promise.all([
        attempt(client.clientId, client.clientSecret, host),
        attempt(client.clientId, client.clientSecret, host),
        attempt(client.clientId, 'wrong', host),
      ]);
      assertToken(responses[0] as LightMyRequestResponse);
      assertToken(responses[1] as LightMyRequestResponse);
      assert.equal(responses[2]?.statusCode, 401, responses[2]?.body);
      assert.equal(json(responses[2] as LightMyRequestResponse).error, 'invalid_client');
    });

    test('random client ids from ever new addresses are never hashed; the valid client hashes once', async () => {
      const before = await checks();
      const flood = Array.from({ length: 64 }, (_, i) =>
        attempt(`random-${i}-${Math.random()}`, 'wrong', address()),
      );
      const valid = attempt(TEST_CLIENT.id, TEST_CLIENT.secret, '192.168.7.7');
      const [validResponse, ...floodResponses] = await Promise.all([valid, ...flood]);
      assertToken(validResponse as LightMyRequestResponse);
      for (const response of floodResponses) assert.equal(response.statusCode, 401, response.body);
      // Again: answered from memory, no hash.
      assertToken(await attempt(TEST_CLIENT.id, TEST_CLIENT.secret, '192.168.7.7'));
      const after = await checks();
      const grew = (how: string) => (after[how] ?? 0) - (before[how] ?? 0);
      assert.equal(grew('unknown_client'), 64);
      assert.equal(grew('hashed'), 1, JSON.stringify(after));
      assert.equal(grew('remembered'), 1);
      assert.equal(grew('refused'), 0);
    });

    test('10 wrong secrets from 10 addresses do not lock out the right secret', async () => {
      const victim = await addClient(r.app.db, { name: 'victim', scopes: ['read'] });
      const guessers = Array.from({ length: 10 }, () => address());
      for (const guesser of guessers) {
        const response = await attempt(victim.clientId, 'wrong', guesser);
        assert.equal(response.statusCode, 401, response.body);
      }
      // From the client's own address, and even from one of the guessers' addresses.
      assertToken(await attempt(victim.clientId, victim.clientSecret, address()));
      assertToken(await attempt(victim.clientId, victim.clientSecret, guessers[0] as string));
    });

    test('failures slow down only their own (client, address) pair, for a bounded time', async () => {
      const client = await addClient(r.app.db, { name: 'guessed', scopes: ['read'] });
      const guesser = address();
      for (let i = 0; i < 5; i += 1) {
        assert.equal((await attempt(client.clientId, `wrong-${i}`, guesser)).statusCode, 401);
      }
      const refused = await attempt(client.clientId, 'wrong-5', guesser);
      assert.equal(refused.statusCode, 429, refused.body);
      assert.equal(json(refused).error, 'slow_down');
      assert.equal(refused.headers['retry-after'], '1');
      // The client itself, at its own address, is not slowed.
      assertToken(await attempt(client.clientId, client.clientSecret, address()));
      r.clock.advance(1000);
      assert.equal((await attempt(client.clientId, 'wrong-6', guesser)).statusCode, 401);
      // The wait doubles, up to BRIDGE_TOKEN_BACKOFF_MAX_SECONDS.
      assert.equal((await attempt(client.clientId, 'wrong-7', guesser)).headers['retry-after'], '2');
      for (let i = 0; i < 10; i += 1) {
        r.clock.advance(60_000);
        await attempt(client.clientId, `wrong-${8 + i}`, guesser);
      }
      assert.equal((await attempt(client.clientId, 'again', guesser)).headers['retry-after'], '60');
      // A success from that pair, once it may try again, starts it afresh.
      r.clock.advance(60_000);
      assertToken(await attempt(client.clientId, client.clientSecret, guesser));
      assert.equal((await attempt(client.clientId, 'wrong-x', guesser)).statusCode, 401);
    });
  });
}

for (const backend of BACKENDS) {
  // One hash at a time and one waiting per lane, nothing remembered: the smallest budget, so a
  // handful of guesses fills a client id's lane.
  describe(`token endpoint: guesses at a known client's id [${backend}]`, () => {
    let r: RuntimeApp;
    before(async () => {
      r = await startRuntimeApp(backend, {
        BRIDGE_TOKEN_REFUSAL_DELAY_MS: '0',
        BRIDGE_TOKEN_HASH_CONCURRENCY: '1',
        BRIDGE_TOKEN_HASH_QUEUE_PER_CLIENT: '1',
        BRIDGE_TOKEN_VERIFIED_CACHE_SECONDS: '0',
      });
    });
    after(async () => {
      await r?.close();
    });

    const attempt = (id: string, secret: string, remoteAddress: string) =>
      tokenRequest(r, id, secret, remoteAddress);

    test('the client at an address it used before is not refused while others fill its lane', async () => {
      const client = await addClient(r.app.db, { name: 'guessed while working', scopes: ['read'] });
      const home = '10.200.0.1';
      assert.equal((await attempt(client.clientId, client.clientSecret, home)).statusCode, 200);
      // Three guesses at once from elsewhere: one hashes, one waits, one finds the lane full.
      // The client's own request, sent last, waits in its own lane instead.
      const responses = await Promise.all([
        attempt(client.clientId, 'wrong-1', '10.201.0.1'),
        attempt(client.clientId, 'wrong-2', '10.202.0.1'),
        attempt(client.clientId, 'wrong-3', '10.203.0.1'),
        attempt(client.clientId, client.clientSecret, home),
      ]);
      const statuses = responses.map((response) => response.statusCode);
      // The guesses are refused, or find the lane full (unless a hash ends before the last arrives).
      for (const status of statuses.slice(0, 3))
        assert.ok([401, 429].includes(status), JSON.stringify(statuses));
      assert.equal(statuses[3], 200, responses[3]?.body);
    });
  });
}
