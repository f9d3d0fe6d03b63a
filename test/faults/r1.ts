// R1 of docs/quality.md as a scenario over the real service process, shared by the PostgreSQL and
// the PGlite test files: N notifications pending for a receiver that is down, kill -9, receiver up,
// restart; a second kill -9 in the middle of the catch-up, restart: all N arrive, and the only
// duplicates are those in flight at the second kill (at most BRIDGE_DELIVERY_PER_CALLBACK).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPglite } from '../../src/db/pglite.ts';
import { freshDatabase, type TestDatabase } from '../support/databases.ts';
import {
  Api,
  changeOperatingStates,
  createWorkplaces,
  duplicateSummary,
  Receiver,
  registerCallback,
  ServiceProcess,
  waitFor,
  withDeadline,
} from '../support/faults.ts';

/** Events per run: PGlite (one connection, WebAssembly) gets fewer to stay within a minute. */
export const R1_EVENTS = { postgres: 1000, pglite: 300 } as const;
const PER_CALLBACK = 20;
const EVENT_TYPE = 'WORKPLACE_OPERATING_STATE_CHANGED';

/** Reads the service's database while it runs (PostgreSQL) or after it stopped (PGlite). */
interface Store {
  rows<Row>(sql: string): Promise<Row[]>;
  close(): Promise<void>;
}

export async function runR1(backend: 'postgres' | 'pglite'): Promise<void> {
  const total = R1_EVENTS[backend];
  let database: TestDatabase | undefined;
  let dataDir: string | undefined;
  let service: ServiceProcess | undefined;
  let receiver: Receiver | undefined;
  try {
    if (backend === 'postgres') database = await freshDatabase('postgres');
    else dataDir = mkdtempSync(join(tmpdir(), 'bridge-r1-'));
    const openStore = async (): Promise<Store> => {
      if (database) {
        const db = database.db;
        return { rows: (sql) => db.query(sql), close: async () => {} };
      }
      // PGlite allows one process: the service must be down; this also checks its crash recovery.
      const db = await openPglite({ dataDir, timeoutMs: 30_000 });
      return { rows: (sql) => db.query(sql), close: () => db.close() };
    };
    const rowsOf = async <Row>(sql: string): Promise<Row[]> => {
      const store = await openStore();
      try {
        return await store.rows<Row>(sql);
      } finally {
        await store.close();
      }
    };
    const countIn = async (sql: string) => Number((await rowsOf<{ n: string }>(sql))[0]?.n);

    receiver = await Receiver.create({ up: false });
    service = await ServiceProcess.start({
      databaseUrl: database?.url,
      dataDir,
      env: {
        BRIDGE_DELIVERY_RETRY_INTERVAL_MS: '2000',
        BRIDGE_DELIVERY_TIMEOUT_MS: '1000',
        BRIDGE_DELIVERY_PER_CALLBACK: String(PER_CALLBACK),
      },
    });
    const api = await Api.login(service.baseUrl);
    const workplaces = await createWorkplaces(api, 20, `r1-${randomUUID().slice(0, 8)}`);
    const callbackId = await registerCallback(api, { eventType: EVENT_TYPE, url: receiver.url('/r1') });

    // 1. N events while the receiver is down: every notification is tried, fails, waits for its retry.
    const produceStarted = Date.now();
    await changeOperatingStates([api], workplaces, total);
    const produceMs = Date.now() - produceStarted;
    if (database) {
      await waitFor(
        `${total} pending notifications`,
        async () => (await countIn('SELECT count(*) AS n FROM notifications')) === total,
      );
    }
    await waitFor(
      'a failed attempt for every notification',
      async () => (await api.expect(200, 'GET', `/api/v2/callbacks/${callbackId}`)).failedAttempts >= total,
      { timeoutMs: 30_000 },
    );

    // 2. kill -9 with all of them pending; they are still there (PGlite: after its crash recovery).
    await service.kill();
    assert.equal(receiver.deliveries.length, 0);
    assert.equal(await countIn('SELECT count(*) AS n FROM notifications'), total);
    assert.equal(await countIn(`SELECT count(*) AS n FROM events WHERE event_type = '${EVENT_TYPE}'`), total);

    // 3. Receiver up, restart; a second kill -9 at a third of the catch-up, with sends in flight.
    await receiver.start();
    const killAt = Math.floor(total / 3);
    const running = service;
    let killedAt = 0;
    receiver.onDelivery = (_delivery, count) => {
      if (count !== killAt) return;
      killedAt = Date.now();
      running.killNow();
    };
    const firstRestart = Date.now();
    running.launch();
    await withDeadline(running.exited(), 30_000, `the second kill (at delivery ${killAt})`);
    receiver.onDelivery = undefined;
    const atKill = receiver.deliveries.length;
    const killedAfterMs = Date.now() - firstRestart;

    // 4. Restart: the rest arrives, including the claims of the killed process once they expire.
    const secondRestart = Date.now();
    await service.start();
    const current = receiver;
    await waitFor(`all ${total} events`, () => current.countsById().size >= total, {
      timeoutMs: 60_000,
      intervalMs: 100,
      describe: () => current.countsById().size,
    });
    const drainMs = Date.now() - secondRestart;
    if (database) {
      await waitFor(
        'an empty queue',
        async () => (await countIn('SELECT count(*) AS n FROM notifications')) === 0,
      );
    } else {
      // PGlite cannot be read while the service runs: outlast the killed process's claims
      // (delivery timeout 1 s + 15 s), whose sends arrive once more, and let deliveries settle.
      const claimsExpired = killedAt + 1000 + 15_000 + 1000;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, claimsExpired - Date.now())));
      let seen = -1;
      await waitFor(
        'deliveries to settle',
        () => {
          const settled = current.deliveries.length === seen;
          seen = current.deliveries.length;
          return settled;
        },
        { timeoutMs: 30_000, intervalMs: 1500 },
      );
    }
    await service.stop();
    assert.equal(await countIn('SELECT count(*) AS n FROM notifications'), 0);

    // Every event exactly the stored ones; copies only of sends in flight at the second kill.
    const eventIds = await rowsOf<{ id: string }>(`SELECT id FROM events WHERE event_type = '${EVENT_TYPE}'`);
    assert.deepEqual([...receiver.countsById().keys()].sort(), eventIds.map((row) => row.id).sort());
    const { distinct, duplicates } = duplicateSummary(receiver.countsById());
    assert.equal(distinct, total);
    assert.ok(
      duplicates <= PER_CALLBACK,
      `${duplicates} duplicates, more than the ${PER_CALLBACK} in flight`,
    );
    for (const delivery of receiver.deliveries) {
      const body = JSON.parse(delivery.body);
      assert.equal(body.properties.callbackId, callbackId);
      assert.equal(body.properties.eventType, EVENT_TYPE);
    }
    process.stdout.write(
      `# R1 [${backend}]: ${total} events produced in ${produceMs} ms, all pending at kill -9 #1; ` +
        `restart, kill -9 #2 after ${atKill} deliveries (${killedAfterMs} ms); restart: all ${distinct} arrived ` +
        `${drainMs} ms later (claims of the killed process expire after timeout + 15 s); ` +
        `${duplicates} duplicates (bound: ${PER_CALLBACK} in flight)\n`,
    );
  } finally {
    await service?.kill().catch(() => {});
    await receiver?.stop().catch(() => {});
    await database?.drop().catch(() => {});
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}
