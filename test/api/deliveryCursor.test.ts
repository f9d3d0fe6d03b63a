// Delivery by cursor (docs/decisions/0003-delivery-from-the-event-log.md): an event that commits late is
// still delivered, a callback too far behind skips its oldest unread events (counted), and
// instances on one PostgreSQL share the callbacks by lease and hand them over on stop.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { type App, createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/open.ts';
import { pendingDeliveries } from '../../src/db/repositories/deliveryBacklog.ts';
import {
  createWorkplace,
  describeEachBackend,
  json,
  startTestApp,
  TEST_CLIENT,
  type TestApp,
} from '../support/app.ts';
import { BACKENDS } from '../support/databases.ts';
import { waitFor } from '../support/wait.ts';

const STATE_CHANGED = 'WORKPLACE_OPERATING_STATE_CHANGED';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  eventId: string;
  sequence: number;
}

/** A loopback receiver; `hold` keeps chosen requests unanswered until released. */
class Receiver {
  readonly requests: Received[] = [];
  hold: ((request: Received) => boolean) | undefined;
  readonly #held: ServerResponse[] = [];
  readonly #server: Server;

  private constructor(server: Server) {
    this.#server = server;
  }

  static async start(): Promise<Receiver> {
    const receiver: Receiver = new Receiver(
      createServer((request, response) => {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          const received = {
            path: request.url ?? '',
            headers: request.headers,
            eventId: String(request.headers['webhook-id']),
            sequence: Number(request.headers['bridge-sequence']),
          };
          receiver.requests.push(received);
          if (receiver.hold?.(received)) receiver.#held.push(response);
          else response.writeHead(204).end();
        });
      }),
    );
    receiver.#server.listen(0, '127.0.0.1');
    await new Promise((resolve) => receiver.#server.once('listening', resolve));
    return receiver;
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}${path}`;
  }

  on(path: string): Received[] {
    return this.requests.filter((request) => request.path === path);
  }

  release(): void {
    for (const response of this.#held.splice(0)) response.writeHead(204).end();
  }

  async close(): Promise<void> {
    this.release();
    this.#server.closeAllConnections();
    await new Promise((resolve) => this.#server.close(resolve));
  }
}

async function register(t: TestApp, body: Record<string, unknown>): Promise<string> {
  const response = await t.request({ method: 'POST', url: '/api/v2/callbacks', body });
  assert.equal(response.statusCode, 201, response.body);
  return json(response).properties.id;
}

async function change(t: TestApp, workplaceId: string, state: string): Promise<void> {
  const response = await t.request({
    method: 'POST',
    url: `/api/v2/workplaces/${workplaceId}/operatingState/${state}`,
  });
  assert.equal(response.statusCode, 200, response.body);
}

describeEachBackend(
  'delivery by cursor',
  (t) => {
    let receiver: Receiver;
    before(async () => {
      receiver = await Receiver.start();
    });
    after(() => receiver.close());

    /**
     * A callback on a new workplace's state changes whose first delivery (a probe: while it is held,
     * nothing else is sent to it) the receiver holds, and `events` changes written behind it.
     */
    async function behindHeldProbe(name: string, events: number, settings: Record<string, unknown> = {}) {
      const workplaceId = await createWorkplace(t(), `CURSOR-${name}-${randomUUID().slice(0, 6)}`);
      const path = `/${name.toLowerCase()}-${t().backend}`;
      receiver.hold = (request) => request.path === path && request.sequence === 1;
      const callbackId = await register(t(), {
        eventType: STATE_CHANGED,
        url: receiver.url(path),
        objectFilter: [{ name: 'id', value: workplaceId }],
        ...settings,
      });
      await change(t(), workplaceId, '110');
      await waitFor('the probe', () => receiver.on(path).length === 1 || undefined);
      for (let index = 1; index < events; index += 1)
        await change(t(), workplaceId, index % 2 ? '000' : '110');
      return { path, callbackId };
    }

    test('a callback more than maxUnconfirmedMessages behind skips the oldest unread events, counted and recorded', async () => {
      const { path, callbackId } = await behindHeldProbe('SKIP', 10, { maxUnconfirmedMessages: 3 });
      // 10 events: the first is out, the newest 3 wait, the 6 between are dropped.
      let shown: Record<string, unknown> = {};
      await waitFor(
        '6 discarded',
        async () => {
          shown = json(await t().request({ url: `/api/v2/callbacks/${callbackId}` })).properties;
          return shown.discardedNotifications === 6 || undefined;
        },
        { describe: () => shown },
      );
      receiver.release();
      await waitFor('the kept ones', () => receiver.on(path).length === 4 || undefined);
      await waitFor(
        'every outcome recorded',
        async () => (await pendingDeliveries(t().app.db, [callbackId])) === 0 || undefined,
      );
      assert.deepEqual(
        receiver
          .on(path)
          .map((request) => request.sequence)
          .sort((a, b) => a - b),
        [1, 8, 9, 10],
      );
      const history = json(await t().request({ url: `/api/v2/callbacks/${callbackId}/deliveries?limit=100` }))
        ._embedded.deliveries as { sequence: number; outcome: string; error: string | null }[];
      const discarded = history.filter((entry) => entry.outcome === 'DISCARDED');
      assert.deepEqual(
        discarded.map((entry) => entry.sequence).sort((a, b) => a - b),
        [2, 3, 4, 5, 6, 7],
      );
      for (const entry of discarded) assert.match(String(entry.error), /maxUnconfirmedMessages/);
      assert.deepEqual(
        history
          .filter((entry) => entry.outcome === 'DELIVERED')
          .map((entry) => entry.sequence)
          .sort((a, b) => a - b),
        [1, 8, 9, 10],
      );
    });

    // Batches record only the newest 100 successes per callback (attemptsToRecord): what the
    // history shows must not change with the size of the batches the backlog was recorded in.
    test('after a backlog, the history shows its newest 100 attempts, newest first', async () => {
      // While the probe is held nothing more is read: the backlog waits, then goes out in bulk.
      const events = 160;
      const { path, callbackId } = await behindHeldProbe('HISTORY', events);
      receiver.release();
      // A backlog of 160 on a loaded machine (the whole suite in parallel) may take longer than the
      // default wait; nothing is asserted about its speed here.
      const backlogWait = { timeoutMs: 60_000 };
      await waitFor('the backlog', () => receiver.on(path).length === events || undefined, backlogWait);
      await waitFor(
        'every outcome recorded',
        async () => (await pendingDeliveries(t().app.db, [callbackId])) === 0 || undefined,
        backlogWait,
      );
      const history = json(await t().request({ url: `/api/v2/callbacks/${callbackId}/deliveries?limit=100` }))
        ._embedded.deliveries as { sequence: number; outcome: string }[];
      assert.deepEqual(
        history.map((entry) => [entry.sequence, entry.outcome]),
        Array.from({ length: 100 }, (_, index) => [events - index, 'DELIVERED']),
      );
      const shown = json(await t().request({ url: `/api/v2/callbacks/${callbackId}` })).properties;
      assert.equal(shown.failedAttempts, 0);
      assert.equal(shown.discardedNotifications, 0);
      assert.ok(shown.lastSuccessfulDate);
    });

    // Its cached plan must not follow statistics taken before a burst into a bitmap scan of the
    // whole backlog and a sort (docs/decisions/0003-delivery-from-the-event-log.md; migration 022).
    test("the read of the callbacks' events runs without bitmap scans", async () => {
      const rows = await t().app.db.query<{ config: string[] | null }>(
        "SELECT proconfig AS config FROM pg_proc WHERE proname = 'delivery_read'",
      );
      assert.deepEqual(
        rows.map((row) => row.config),
        [['enable_bitmapscan=off']],
      );
    });
  },
  // The probe is held while the backlog is written; on a loaded machine that takes longer than the
  // default timeout, and a timed-out probe would be retried into the middle of the backlog.
  { BRIDGE_DELIVERY_TIMEOUT_MS: '30000', BRIDGE_DELIVERY_RETRY_INTERVAL_MS: '60000' },
);

const onPostgres = { skip: !BACKENDS.includes('postgres') && 'PostgreSQL not reachable' };

describe('delivery by cursor on PostgreSQL', onPostgres, () => {
  let t: TestApp;
  let receiver: Receiver;
  before(async () => {
    // Short leases: a handover or a rebalance within a second.
    t = await startTestApp('postgres', { BRIDGE_DELIVERY_LEASE_MS: '1500' });
    receiver = await Receiver.start();
  });
  after(async () => {
    await receiver?.close();
    await t?.close();
  });

  test('an event whose transaction commits after later events is delivered, numbered after them', async () => {
    const workplaceId = await createWorkplace(t, 'CURSOR-LATE');
    const callbackId = await register(t, {
      eventType: STATE_CHANGED,
      url: receiver.url('/late'),
      objectFilter: [{ name: 'id', value: workplaceId }],
    });
    const late = new pg.Client({ connectionString: t.database.url });
    await late.connect();
    const lateId = randomUUID();
    try {
      // Written first (its sequence is the lowest), committed last.
      await late.query('BEGIN');
      await late.query(
        `INSERT INTO events (id, event_type, object_type, object_id, data, "timestamp", recorded_at)
         VALUES ($1, $2, 'WORKPLACE', $3, '{}', now(), now())`,
        [lateId, STATE_CHANGED, workplaceId],
      );
      for (const state of ['110', '000', '110']) await change(t, workplaceId, state);
      await waitFor('the 3 committed changes', () => receiver.on('/late').length === 3 || undefined);
      await late.query('COMMIT');
    } finally {
      await late.end();
    }
    t.app.delivery?.wake();
    await waitFor('the late event', () => receiver.on('/late').length === 4 || undefined);
    const [fourth] = receiver.on('/late').slice(3);
    assert.equal(fourth?.eventId, lateId);
    assert.equal(fourth?.sequence, 4);
    const rows = await t.app.db.query<{ id: string; sequence: string }>(
      `SELECT e.id, e.sequence FROM events e JOIN delivery_positions p ON p.sequence = e.sequence
       WHERE e.object_id = $1 AND e.event_type = $2 ORDER BY p.position`,
      [workplaceId, STATE_CHANGED],
    );
    assert.equal(rows.at(-1)?.id, lateId, 'the late event has the newest position');
    assert.ok(Number(rows.at(-1)?.sequence) < Number(rows[0]?.sequence), 'though the oldest sequence');
    await waitFor(
      'recorded',
      async () => (await pendingDeliveries(t.app.db, [callbackId])) === 0 || undefined,
    );
  });

  test('two instances share the callbacks by lease; a stopping one hands its callbacks over at once', async () => {
    const workplaceId = await createWorkplace(t, 'CURSOR-SHARE');
    const paths = ['/share-1', '/share-2', '/share-3', '/share-4'];
    const ids: string[] = [];
    for (const path of paths) {
      ids.push(
        await register(t, {
          eventType: STATE_CHANGED,
          url: receiver.url(path),
          objectFilter: [{ name: 'id', value: workplaceId }],
        }),
      );
    }
    const config = loadConfig({
      DATABASE_URL: t.database.url ?? '',
      BRIDGE_LOG_LEVEL: 'silent',
      BRIDGE_DEMO: 'off',
      BRIDGE_DELIVERY_LEASE_MS: '1500',
      BRIDGE_BOOTSTRAP_CLIENT_ID: TEST_CLIENT.id,
      BRIDGE_BOOTSTRAP_CLIENT_SECRET: TEST_CLIENT.secret,
      BRIDGE_RETENTION_EVENTS_DAYS: '0',
      BRIDGE_RETENTION_SAMPLES_DAYS: '0',
    });
    let second: App | undefined = await createApp(config, await openDatabase(config));
    try {
      const owners = async () => {
        const rows = await t.app.db.query<{ lease_owner: string | null }>(
          'SELECT lease_owner FROM callbacks WHERE id = ANY ($1::uuid[]) AND lease_until > now()',
          [ids],
        );
        const count = new Map<string | null, number>();
        for (const row of rows) count.set(row.lease_owner, (count.get(row.lease_owner) ?? 0) + 1);
        return count;
      };
      // 4 of this test's callbacks and those of the other tests: each instance holds about half.
      await waitFor('the callbacks split between the two instances', async () => {
        const count = await owners();
        return (count.size === 2 && [...count.values()].every((n) => n >= 1)) || undefined;
      });
      for (const state of ['110', '000']) await change(t, workplaceId, state);
      await waitFor(
        'both changes on every callback',
        () => paths.every((path) => receiver.on(path).length === 2) || undefined,
      );

      await second.close();
      second = undefined;
      // Given back on stop: the first instance takes them at its next cycle, not after the lease.
      const stoppedAt = Date.now();
      t.app.delivery?.wake();
      await waitFor('one instance holding every callback', async () => {
        const count = await owners();
        return (count.size === 1 && [...count.values()][0] === paths.length) || undefined;
      });
      const handoverMs = Date.now() - stoppedAt;
      assert.ok(handoverMs < 1500, `handed over in ${handoverMs} ms, before the lease would have expired`);
      await change(t, workplaceId, '110');
      await waitFor(
        'the third change on every callback',
        () => paths.every((path) => receiver.on(path).length === 3) || undefined,
      );
      for (const path of paths) {
        assert.deepEqual(
          receiver.on(path).map((request) => request.sequence),
          [1, 2, 3],
          `${path}: each event once, numbered on across the handover`,
        );
      }
    } finally {
      await second?.close();
    }
  });
});
