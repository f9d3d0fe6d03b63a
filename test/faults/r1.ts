// R1 of docs/quality.md as a scenario over the real service process, shared by the PostgreSQL and
// the PGlite test files: N notifications pending for a receiver that is down, kill -9, receiver up,
// restart; a second kill -9 in the middle of the catch-up, restart: all N arrive. Delivery is at
// least once (docs/api.md): copies come only from sends in flight at the second kill (at most
// BRIDGE_DELIVERY_PER_CALLBACK) and from sends the service counted as failed although the receiver
// got them (a confirmation later than the delivery timeout, under load), which are retried.
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
    const [marker, ...workplaces] = await createWorkplaces(api, 21, `r1-${randomUUID().slice(0, 8)}`);
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
      { timeoutMs: 120_000 },
    );

    // 2. kill -9 with all of them pending; they are still there (PGlite: after its crash recovery).
    await service.kill();
    assert.equal(receiver.deliveries.length, 0);
    assert.equal(await countIn('SELECT count(*) AS n FROM notifications'), total);
    assert.equal(await countIn(`SELECT count(*) AS n FROM events WHERE event_type = '${EVENT_TYPE}'`), total);
    const failedAttempts = `SELECT failed_attempts AS n FROM callbacks WHERE id = '${callbackId}'`;
    const failedWhileDown = await countIn(failedAttempts);

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
    await withDeadline(running.exited(), 120_000, `the second kill (at delivery ${killAt})`);
    receiver.onDelivery = undefined;
    const atKill = receiver.deliveries.length;
    const killedAfterMs = Date.now() - firstRestart;

    // 4. Restart: the rest arrives, including the claims of the killed process once they expire.
    const secondRestart = Date.now();
    await service.start();
    const current = receiver;
    await waitFor(`all ${total} events`, () => current.countsById().size >= total, {
      timeoutMs: 180_000,
      intervalMs: 100,
      describe: () => current.countsById().size,
    });
    const drainMs = Date.now() - secondRestart;
    let expected = total;
    if (database) {
      // Every event may have arrived while rows the killed process claimed are still locked: the
      // receiver got those sends, the process died before recording them. They are sent again
      // once the claims expire (timeout + 15 s after the kill), and only then is the queue empty.
      await waitFor(
        'an empty queue',
        async () => (await countIn('SELECT count(*) AS n FROM notifications')) === 0,
        { timeoutMs: 60_000 },
      );
    } else {
      // PGlite cannot be read while the service runs. Rounds of: wait until every row left is
      // due (the killed process's claims expire 1 s + 15 s after the kill; a retry after an
      // attempt that failed under load is due at its next_attempt_at), then one more event (a
      // high-water mark). Claims are taken oldest first, so once the marker has arrived every
      // row due before it was claimed; a graceful stop lets each claimed send finish and be
      // recorded. Then the stopped service's database says whether anything is left.
      let dueAt = killedAt + 1000 + 15_000;
      for (let round = 1; ; round += 1) {
        if (round > 1) await service.start();
        const due = dueAt;
        await waitFor('the rows left to be due', () => Date.now() > due, {
          timeoutMs: 60_000,
          intervalMs: 200,
        });
        const code = round % 2 === 1 ? '110' : '000';
        await api.expect(200, 'POST', `/api/v2/workplaces/${marker}/operatingState/${code}`);
        expected += 1;
        await waitFor(`marker ${round} (all ${expected})`, () => current.countsById().size >= expected, {
          timeoutMs: 120_000,
          intervalMs: 100,
        });
        await service.stop();
        const [left] = await rowsOf<{ n: string; due: Date | null }>(
          'SELECT count(*) AS n, max(greatest(next_attempt_at, locked_until)) AS due FROM notifications',
        );
        if (Number(left?.n) === 0) break;
        assert.ok(round < 5, `${left?.n} notifications still pending after ${round} rounds`);
        dueAt = new Date(left?.due ?? Date.now()).getTime();
      }
    }
    // A graceful stop waits for the sends in flight: afterwards nothing can arrive any more.
    await service.stop();
    assert.equal(await countIn('SELECT count(*) AS n FROM notifications'), 0);

    // Every event exactly the stored ones; copies only of sends in flight at the second kill and
    // of attempts counted as failed after the receiver came up (it answers 200 to every request).
    const eventIds = await rowsOf<{ id: string }>(`SELECT id FROM events WHERE event_type = '${EVENT_TYPE}'`);
    assert.deepEqual([...receiver.countsById().keys()].sort(), eventIds.map((row) => row.id).sort());
    const { distinct, duplicates } = duplicateSummary(receiver.countsById());
    assert.equal(distinct, expected);
    const failedWhileUp = (await countIn(failedAttempts)) - failedWhileDown;
    assert.ok(
      duplicates <= PER_CALLBACK + failedWhileUp,
      `${duplicates} duplicates, more than the ${PER_CALLBACK} in flight at the kill + ${failedWhileUp} ` +
        'attempts counted as failed after the receiver came up',
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
        `${duplicates} duplicates (bound: ${PER_CALLBACK} in flight + ${failedWhileUp} failed attempts)\n`,
    );
  } finally {
    await service?.kill().catch(() => {});
    await receiver?.stop().catch(() => {});
    await database?.drop().catch(() => {});
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}
