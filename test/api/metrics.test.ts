// GET /metrics: Prometheus text behind the bearer guard (read scope); request durations by route
// pattern and status, refused credentials, database calls and pool, event log, delivery outcomes
// and per-callback queues move with real traffic; 1,000 distinct ids in URLs add no series.
// Readiness reports a delivery loop that stopped cycling (PostgreSQL: a lock holds it).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, test } from 'node:test';
import pg from 'pg';
import {
  createWorkplace,
  describeEachBackend,
  json,
  startTestApp,
  TEST_CLIENT,
  type TestApp,
} from '../support/app.ts';
import { BACKENDS } from '../support/databases.ts';
import { waitUntil } from '../support/process.ts';

/** The value of one series in Prometheus text, undefined when the series is absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, key, value]) => [key, value]),
    );
    if (Object.entries(labels).every(([key, value]) => found[key] === value)) return Number(match[3]);
  }
  return undefined;
}

/** Names with label sets of every series of `name`. */
const seriesOf = (text: string, name: string) =>
  text.split('\n').filter((line) => line.startsWith(`${name}{`));

async function scrape(t: TestApp): Promise<string> {
  const response = await t.request({ url: '/metrics', scopes: ['read'] });
  assert.equal(response.statusCode, 200, response.body);
  assert.match(String(response.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  return response.body;
}

/** A local HTTP receiver answering every delivery with `status`. */
async function receiver(status: number): Promise<{ url: string; server: Server; received: number }> {
  const state = { url: '', server: createServer(), received: 0 };
  state.server.on('request', (request, response) => {
    request.resume();
    state.received += 1;
    response.writeHead(status).end();
  });
  await new Promise<void>((resolve) => state.server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(state.server.address() as AddressInfo).port}/hook`;
  return state;
}

describeEachBackend(
  'metrics',
  (t) => {
    test('GET /metrics needs a token with read scope', async () => {
      const anonymous = await t().request({ url: '/metrics', anonymous: true });
      assert.equal(anonymous.statusCode, 401);
      assert.equal(json(anonymous).code, 'UNAUTHORIZED');
      const writeOnly = await t().request({ url: '/metrics', scopes: ['write'] });
      assert.equal(writeOnly.statusCode, 403);
      assert.equal(json(writeOnly).code, 'INSUFFICIENT_SCOPE');
      await scrape(t());
    });

    test('requests, refused credentials, database calls and the event log move with traffic', async () => {
      const before = await scrape(t());
      const route = { method: 'GET', route: '/api/v2/workplaces/:id' };
      const workplaceId = await createWorkplace(t(), 'METRICS-1');
      for (let index = 0; index < 3; index += 1) {
        assert.equal((await t().request({ url: `/api/v2/workplaces/${workplaceId}` })).statusCode, 200);
      }
      assert.equal((await t().request({ url: `/api/v2/workplaces/${randomUUID()}` })).statusCode, 404);
      const forged = await t().request({
        url: '/api/v2/workplaces',
        headers: { authorization: 'Bearer forged' },
      });
      assert.equal(forged.statusCode, 401);
      const badSecret = await t().app.server.inject({
        method: 'POST',
        url: '/oauth/token',
        headers: {
          authorization: `Basic ${Buffer.from(`${TEST_CLIENT.id}:wrong-secret-000000`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload: 'grant_type=client_credentials',
      });
      assert.equal(badSecret.statusCode, 401, badSecret.body);
      const after = await scrape(t());

      const count = (text: string, labels: Record<string, string>) =>
        sample(text, 'bridge_http_request_duration_seconds_count', labels) ?? 0;
      assert.equal(count(after, { ...route, status: '200' }) - count(before, { ...route, status: '200' }), 3);
      assert.equal(count(after, { ...route, status: '404' }) - count(before, { ...route, status: '404' }), 1);
      assert.ok(
        (sample(after, 'bridge_http_request_duration_seconds_sum', { ...route, status: '200' }) ?? 0) > 0,
      );
      assert.equal(count(after, { method: 'POST', route: '/api/v2/workplaces', status: '201' }), 1);
      const failures = (text: string, labels: Record<string, string>) =>
        sample(text, 'bridge_auth_failures_total', labels) ?? 0;
      const invalidToken = { endpoint: 'api', reason: 'INVALID_TOKEN' };
      assert.equal(failures(after, invalidToken) - failures(before, invalidToken), 1);
      const invalidClient = { endpoint: 'token', reason: 'invalid_client' };
      assert.equal(failures(after, invalidClient) - failures(before, invalidClient), 1);

      // The writes recorded events: the gauge is the newest sequence number; database calls were counted.
      const sequence = (text: string) => sample(text, 'bridge_event_log_sequence') ?? 0;
      const [newest] = await t().app.db.query<{ sequence: string }>(
        'SELECT max(sequence) AS sequence FROM events',
      );
      assert.ok(sequence(after) >= sequence(before) + 2);
      assert.equal(sequence(after), Number(newest?.sequence));
      const calls = (text: string) => sample(text, 'bridge_db_calls_total', { call: 'transaction' }) ?? 0;
      assert.ok(calls(after) > calls(before));
      if (t().backend === 'postgres') {
        assert.ok((sample(after, 'bridge_db_pool_connections', { state: 'total' }) ?? 0) >= 1, after);
        assert.ok(sample(after, 'bridge_db_pool_connections', { state: 'waiting' }) !== undefined);
      }
    });

    test('delivery outcomes, queue depth and the oldest pending age per callback', async () => {
      const good = await receiver(204);
      const bad = await receiver(500);
      try {
        const callback = async (url: string) => {
          const response = await t().request({
            method: 'POST',
            url: '/api/v2/callbacks',
            body: { eventType: 'WORKPLACE_CREATED', url },
          });
          assert.equal(response.statusCode, 201, response.body);
          return json(response).properties.id as string;
        };
        const goodId = await callback(good.url);
        const badId = await callback(bad.url);
        await createWorkplace(t(), 'METRICS-DELIVERY');
        await waitUntil(() => good.received >= 1 && bad.received >= 1, { what: 'both receivers called' });
        let text = '';
        await waitUntil(
          async () => {
            text = await scrape(t());
            // Each outcome is recorded when its own send ends: wait for both.
            return (
              (sample(text, 'bridge_delivery_attempts_total', { outcome: 'FAILED' }) ?? 0) >= 1 &&
              (sample(text, 'bridge_delivery_attempts_total', { outcome: 'DELIVERED' }) ?? 0) >= 1
            );
          },
          { what: 'the failed and the delivered attempt recorded' },
        );
        assert.ok((sample(text, 'bridge_delivery_attempts_total', { outcome: 'DELIVERED' }) ?? 0) >= 1, text);
        // The failing callback's event waits for its retry; the good one's queue is empty.
        assert.equal(sample(text, 'bridge_delivery_queue_depth', { callback: badId }), 1, text);
        assert.equal(sample(text, 'bridge_delivery_queue_depth', { callback: goodId }), undefined, text);
        assert.ok(
          (sample(text, 'bridge_delivery_oldest_pending_seconds', { callback: badId }) ?? -1) >= 0,
          text,
        );
        assert.ok((sample(text, 'bridge_delivery_queued') ?? 0) >= 1, text);
        for (const id of [goodId, badId]) {
          assert.equal(
            (await t().request({ method: 'DELETE', url: `/api/v2/callbacks/${id}` })).statusCode,
            204,
          );
        }
      } finally {
        await Promise.all([good, bad].map(({ server }) => new Promise((resolve) => server.close(resolve))));
      }
    });

    test('1,000 distinct ids in URLs add no series: routes are patterns, unknown paths one label', async () => {
      const before = seriesOf(await scrape(t()), 'bridge_http_request_duration_seconds_count').length;
      const ids: string[] = [];
      for (let index = 0; index < 1000; index += 1) {
        const id = randomUUID();
        ids.push(id);
        const url = index % 2 === 0 ? `/api/v2/workplaces/${id}` : `/no/such/path/${id}`;
        assert.equal((await t().request({ url })).statusCode, 404);
      }
      const text = await scrape(t());
      const after = seriesOf(text, 'bridge_http_request_duration_seconds_count');
      // At most the two new (route, status) pairs: workplaces/:id 404 and the unmatched 404.
      assert.ok(after.length <= before + 2, after.join('\n'));
      assert.ok(after.length < 40, `${after.length} series`);
      assert.ok(
        (sample(text, 'bridge_http_request_duration_seconds_count', { route: 'unmatched', status: '404' }) ??
          0) >= 500,
      );
      for (const id of ids) assert.ok(!text.includes(id), `${id} appears in the metrics`);
    });

    test('readiness says the delivery loop is UP on an instance that delivers', async () => {
      const ready = await t().request({ url: '/health/ready', anonymous: true });
      assert.equal(ready.statusCode, 200);
      assert.deepEqual(json(ready), { status: 'UP', database: 'UP', delivery: 'UP' });
    });
  },
  { BRIDGE_DELIVERY_POLL_MS: '50' },
);

// PGlite has one connection: a lock that holds the delivery loop would hold readiness too.
if (BACKENDS.includes('postgres')) {
  describe('readiness with a stalled delivery loop [postgres]', () => {
    test('503 with delivery STALLED while the loop cannot finish a cycle, UP once it can', async () => {
      const t = await startTestApp('postgres', {
        BRIDGE_DELIVERY_POLL_MS: '50',
        BRIDGE_DELIVERY_STALL_MS: '1000',
        BRIDGE_DB_TIMEOUT_MS: '60000',
      });
      const locker = new pg.Client({ connectionString: t.database.url });
      await locker.connect();
      try {
        const ready = () => t.request({ url: '/health/ready', anonymous: true });
        // The first cycle after the start may take longer than the 1 s limit on a busy machine.
        await waitUntil(async () => (await ready()).statusCode === 200, { what: 'readiness 200' });
        assert.deepEqual(json(await ready()), { status: 'UP', database: 'UP', delivery: 'UP' });
        // Every cycle's poll reads the events waiting for a delivery position first: an exclusive
        // lock holds it there.
        await locker.query('BEGIN');
        await locker.query('LOCK TABLE delivery_pending IN ACCESS EXCLUSIVE MODE');
        await waitUntil(async () => (await ready()).statusCode === 503, { what: 'readiness 503' });
        assert.deepEqual(json(await ready()), { status: 'DOWN', database: 'UP', delivery: 'STALLED' });
        await locker.query('ROLLBACK');
        await waitUntil(async () => (await ready()).statusCode === 200, { what: 'readiness 200 again' });
        assert.deepEqual(json(await ready()), { status: 'UP', database: 'UP', delivery: 'UP' });
      } finally {
        await locker.query('ROLLBACK').catch(() => {});
        await locker.end();
        await t.close();
      }
    });
  });
}
