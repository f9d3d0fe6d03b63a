// R8 (docs/quality.md): two service processes on one PostgreSQL database share one callback's
// deliveries. Every notification arrives exactly once in normal operation (SKIP LOCKED claims),
// and a token issued by either instance works on the other (the signing key is in the database).
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
import { forgeSignature } from '../support/tokens.ts';

const EVENTS = 1000;
const EVENT_TYPE = 'WORKPLACE_OPERATING_STATE_CHANGED';

test(`R8: two instances on one PostgreSQL deliver each of ${EVENTS} notifications once; tokens work on both`, {
  skip: !BACKENDS.includes('postgres') && 'PostgreSQL not reachable',
  timeout: 300_000,
}, async () => {
  let database: TestDatabase | undefined;
  let receiver: Receiver | undefined;
  const services: ServiceProcess[] = [];
  try {
    database = await freshDatabase('postgres');
    receiver = await Receiver.create({ up: true });
    // A long delivery timeout (below the retry interval, as the settings require): a busy machine
    // does not turn a confirmation into a timeout, so retries (and their copies) stay rare.
    const env = { BRIDGE_DELIVERY_RETRY_INTERVAL_MS: '6000', BRIDGE_DELIVERY_TIMEOUT_MS: '5000' };
    // Started one after the other (each migrates on start), then both run side by side.
    for (let index = 0; index < 2; index += 1) {
      services.push(await ServiceProcess.start({ databaseUrl: database.url, env }));
    }
    const [a, b] = services as [ServiceProcess, ServiceProcess];

    // A token from A works on B, and one from B on A, for reads and writes.
    const fromA = await Api.login(a.baseUrl);
    const fromB = await Api.login(b.baseUrl);
    const aOnB = fromA.on(b.baseUrl);
    const bOnA = fromB.on(a.baseUrl);
    assert.equal((await aOnB.request('GET', '/api/v2/workplaces')).status, 200);
    assert.equal((await bOnA.request('GET', '/api/v2/workplaces')).status, 200);
    const forged = new Api(b.baseUrl, forgeSignature(fromA.token));
    assert.equal((await forged.request('GET', '/api/v2/workplaces')).status, 401);

    const workplaces = await createWorkplaces(bOnA, 20, `r8-${randomUUID().slice(0, 8)}`);
    const callbackId = await registerCallback(aOnB, { eventType: EVENT_TYPE, url: receiver.url('/r8') });
    assert.equal((await fromA.request('GET', `/api/v2/callbacks/${callbackId}`)).status, 200);

    // Half of the changes through each instance (round robin), A's token on both.
    const started = Date.now();
    await changeOperatingStates([fromA, aOnB], workplaces, EVENTS);
    const producedMs = Date.now() - started;
    const current = receiver;
    await waitFor(`all ${EVENTS} events`, () => current.countsById().size >= EVENTS, {
      timeoutMs: 180_000,
      intervalMs: 100,
      describe: () => current.countsById().size,
    });
    const drainedMs = Date.now() - started;
    const db = database.db;
    await waitFor('an empty queue', async () => {
      return (await pendingDeliveries(db, null)) === 0;
    });
    const health = await fromA.expect(200, 'GET', `/api/v2/callbacks/${callbackId}`);
    // Graceful stops wait for every send in flight: afterwards no late copy can arrive.
    await Promise.all(services.map((service) => service.stop()));

    const counts = receiver.countsById();
    const { distinct, duplicates } = duplicateSummary(counts);
    const events = await db.query<{ id: string }>(`SELECT id FROM events WHERE event_type = '${EVENT_TYPE}'`);
    assert.deepEqual([...counts.keys()].sort(), events.map((row) => row.id).sort());
    // SKIP LOCKED claims: no copies from sharing the work. Delivery is at least once, so a send
    // the service counted as failed (confirmed later than the timeout, under load) is retried:
    // each copy must be such a retry.
    assert.ok(
      duplicates <= health.failedAttempts,
      `${duplicates} duplicate deliveries, ${health.failedAttempts} failed attempts`,
    );
    const sequences = receiver.deliveries.map((delivery) => Number(delivery.headers['bridge-sequence']));
    assert.deepEqual(
      [...new Set(sequences)].sort((x, y) => x - y),
      Array.from({ length: EVENTS }, (_, index) => index + 1),
    );
    assert.equal(health.discardedNotifications, 0);
    process.stdout.write(
      `# R8: ${EVENTS} events through 2 instances on one PostgreSQL, produced in ${producedMs} ms, ` +
        `all ${distinct} delivered ${drainedMs} ms after the first change; ${duplicates} duplicates ` +
        `(${health.failedAttempts} failed attempts)\n`,
    );
  } finally {
    await Promise.all(services.map((service) => service.kill().catch(() => {})));
    await receiver?.stop().catch(() => {});
    await database?.drop().catch(() => {});
  }
});
