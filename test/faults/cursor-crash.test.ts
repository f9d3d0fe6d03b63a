// Delivery by cursor under a crash (docs/decisions/0003-delivery-from-the-event-log.md): a backlog of
// events is written with delivery off, then the delivering service is killed (kill -9) in the
// middle of streaming it to a healthy receiver, and another instance on the same PostgreSQL takes
// the callback over once the dead one's lease expires.
// Every event arrives; copies are only of events that were out when the process died (at most
// one in-flight window, BRIDGE_DELIVERY_PER_CALLBACK), never of ones whose outcome was stored.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { pendingDeliveries } from '../../src/db/repositories/deliveryBacklog.ts';
import { BACKENDS, freshDatabase, type TestDatabase } from '../support/databases.ts';
import {
  Api,
  changeOperatingStates,
  createWorkplaces,
  duplicateSummary,
  Receiver,
  registerCallback,
  ServiceProcess,
  waitFor,
} from '../support/faults.ts';

const EVENTS = 600;
const KILL_AT = 200;
const WINDOW = 50;
const LEASE_MS = 2000;
const EVENT_TYPE = 'WORKPLACE_OPERATING_STATE_CHANGED';

test(`crash in the middle of a stream: kill -9 at delivery ${KILL_AT} of ${EVENTS}, a second instance goes on from the stored cursor`, {
  skip: !BACKENDS.includes('postgres') && 'PostgreSQL not reachable',
  timeout: 180_000,
}, async () => {
  let database: TestDatabase | undefined;
  let receiver: Receiver | undefined;
  const services: ServiceProcess[] = [];
  try {
    database = await freshDatabase('postgres');
    receiver = await Receiver.create({ up: true });
    const env = {
      BRIDGE_DELIVERY_LEASE_MS: String(LEASE_MS),
      BRIDGE_DELIVERY_PER_CALLBACK: String(WINDOW),
      BRIDGE_DELIVERY_RETRY_INTERVAL_MS: '6000',
      BRIDGE_DELIVERY_TIMEOUT_MS: '5000',
    };
    // A backlog first: the events are written while delivery is off.
    const writer = await ServiceProcess.start({
      databaseUrl: database.url,
      env: { ...env, BRIDGE_DELIVERY_ENABLED: 'false' },
    });
    services.push(writer);
    const api = await Api.login(writer.baseUrl);
    const workplaces = await createWorkplaces(api, 10, `crash-${randomUUID().slice(0, 8)}`);
    const callbackId = await registerCallback(api, { eventType: EVENT_TYPE, url: receiver.url('/crash') });
    await changeOperatingStates([api], workplaces, EVENTS);
    await writer.stop();

    // The first delivering instance dies at the KILL_AT-th receipt, with a window of sends out.
    let killedAt = 0;
    const first = await ServiceProcess.prepare({ databaseUrl: database.url, env });
    services.push(first);
    receiver.onDelivery = (_delivery, count) => {
      if (count === KILL_AT) {
        killedAt = Date.now();
        first.killNow();
      }
    };
    first.launch();
    await waitFor('the kill', () => killedAt > 0 || undefined, { timeoutMs: 60_000 });
    await first.exited();
    // What the first instance got out before it died, arrivals just after the kill included.
    const deliveriesAtKill = receiver.deliveries.length;
    const receivedBeforeKill = new Set(
      receiver.deliveries.slice(0, deliveriesAtKill).map((d) => String(d.headers['webhook-id'])),
    );

    const second = await ServiceProcess.start({ databaseUrl: database.url, env });
    services.push(second);
    const db = database.db;
    const stored = await db.query<{ id: string }>(`SELECT id FROM events WHERE event_type = '${EVENT_TYPE}'`);
    const current = receiver;
    await waitFor(
      `all ${stored.length} events`,
      () => current.countsById().size >= stored.length || undefined,
      {
        timeoutMs: 60_000,
        intervalMs: 50,
        describe: () => current.countsById().size,
      },
    );
    const resumedAt = receiver.deliveries[deliveriesAtKill]?.receivedAt ?? Date.now();
    await waitFor(
      'every outcome stored',
      async () => (await pendingDeliveries(db, [callbackId])) === 0 || undefined,
    );
    await second.stop();

    const counts = receiver.countsById();
    assert.deepEqual(
      [...counts.keys()].sort(),
      stored.map((row) => row.id).sort(),
      'every stored event, no other',
    );
    const { duplicates } = duplicateSummary(counts);
    const copied = [...counts].filter(([, n]) => n > 1).map(([id]) => id);
    assert.ok(duplicates <= WINDOW, `${duplicates} copies, more than one window (${WINDOW}) in flight`);
    for (const id of copied)
      assert.ok(receivedBeforeKill.has(id), `a copy of ${id}, which was not out at the kill`);
    const sequences = [...new Set(receiver.deliveries.map((d) => Number(d.headers['bridge-sequence'])))];
    assert.deepEqual(
      sequences.sort((x, y) => x - y),
      Array.from({ length: stored.length }, (_, index) => index + 1),
      'one sequence number per event, across the crash',
    );
    process.stdout.write(
      `# cursor crash: killed at delivery ${KILL_AT}; ${stored.length} events stored, all delivered; ` +
        `${duplicates} copies (window ${WINDOW}); the second instance resumed ${resumedAt - killedAt} ms ` +
        `after the kill (lease ${LEASE_MS} ms, its start included)\n`,
    );
  } finally {
    await Promise.all(services.map((service) => service.kill().catch(() => {})));
    await receiver?.stop().catch(() => {});
    await database?.drop().catch(() => {});
  }
});
