// A flood of wrong secrets does not lock out a valid client: 16 loops send wrong secrets from
// another loopback address (127.0.0.2) as fast as the server answers, while the valid client (from
// 127.0.0.1) gets its token and uses the API. The flood is bounded in attempts and time. Speed is
// measured by bench/tokenFlood.ts; this test checks the outcome only.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Agent, request } from 'undici';
import { TEST_CLIENT } from '../support/app.ts';
import { BACKENDS } from '../support/databases.ts';
import { waitUntil } from '../support/process.ts';
import { type RuntimeApp, startRuntimeApp } from '../support/runtimeApp.ts';

const LOOPS = 16;
const MAX_ATTEMPTS_PER_LOOP = 60;
const FLOOD_BOUND_MS = 60_000;
const FORM = 'application/x-www-form-urlencoded';
const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

for (const backend of BACKENDS) {
  describe(`token endpoint under a flood of wrong secrets [${backend}]`, () => {
    let r: RuntimeApp;
    let url = '';
    before(async () => {
      // The limits as shipped.
      r = await startRuntimeApp(backend);
      await r.app.server.listen({ host: '127.0.0.1', port: 0 });
      url = `http://127.0.0.1:${(r.app.server.server.address() as { port: number }).port}`;
    });
    after(async () => {
      await r?.close();
    });

    test('the valid client gets its token (200, not 429) and the API answers during the flood', async () => {
      const agent = new Agent({ localAddress: '127.0.0.2', connections: LOOPS });
      const statuses: number[] = [];
      const refusals: { retryAfter: unknown; body: unknown }[] = [];
      let stop = false;
      const deadline = Date.now() + FLOOD_BOUND_MS;
      const loop = async (index: number) => {
        for (
          let attempt = 0;
          attempt < MAX_ATTEMPTS_PER_LOOP && !stop && Date.now() < deadline;
          attempt += 1
        ) {
          const id = index % 2 === 0 ? `guess-${index}-${attempt}` : TEST_CLIENT.id.replace('test', 'other');
          const response = await request(`${url}/oauth/token`, {
            method: 'POST',
            dispatcher: agent,
            headers: { 'content-type': FORM, authorization: basic(id, `wrong-${attempt}`) },
            body: 'grant_type=client_credentials',
          });
          const body = await response.body.json();
          statuses.push(response.statusCode);
          if (response.statusCode === 429)
            refusals.push({ retryAfter: response.headers['retry-after'], body });
        }
      };
      const flood = Promise.all(Array.from({ length: LOOPS }, (_, index) => loop(index)));

      const validToken = async () => {
        const response = await request(`${url}/oauth/token`, {
          method: 'POST',
          headers: { 'content-type': FORM, authorization: basic(TEST_CLIENT.id, TEST_CLIENT.secret) },
          body: 'grant_type=client_credentials',
        });
        const body = (await response.body.json()) as { access_token?: string };
        assert.equal(response.statusCode, 200, JSON.stringify(body));
        return body.access_token as string;
      };
      try {
        // While the flood's first wrong secrets are being hashed...
        await waitUntil(() => statuses.length > 0, { what: 'the first flood answer', timeoutMs: 30_000 });
        await validToken();
        // ...and once its address is refused.
        await waitUntil(() => statuses.includes(429), { what: 'the flood to be refused', timeoutMs: 30_000 });
        const token = await validToken();
        const api = await request(`${url}/api/v2/workplaceGroups`, {
          headers: { authorization: `Bearer ${token}` },
        });
        await api.body.dump();
        assert.equal(api.statusCode, 200);
      } finally {
        stop = true;
        await flood;
        await agent.close();
      }
      assert.deepEqual([...new Set(statuses)].sort(), [401, 429]);
      for (const refusal of refusals) {
        assert.match(String(refusal.retryAfter), /^[1-9]\d*$/);
        assert.equal((refusal.body as { error: string }).error, 'slow_down');
      }
    });
  });
}
