// R2 (docs/quality.md), compact, at process level: with the receiver down, a callback's
// notifications are retried every interval up to maxRedeliverAttempts, then discarded and
// counted; another callback's queue never holds more than maxUnconfirmedMessages, the oldest
// dropped first. With the receiver back, the kept ones arrive and carry the discarded count.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { BACKENDS, freshDatabase, type TestDatabase } from '../support/databases.ts';
import {
  Api,
  createWorkplaces,
  Receiver,
  registerCallback,
  ServiceProcess,
  waitFor,
} from '../support/faults.ts';

const EVENT_TYPE = 'WORKPLACE_OPERATING_STATE_CHANGED';
const RETRY_MS = 1000;
const EVENTS = 12;
const MAX_RETRIES = 2;
const BOUND = 5;

interface Attempt {
  eventId: string;
  sequence: number;
  attempt: number;
  attemptedAt: string;
  outcome: string;
}

test('R2: retries every interval up to maxRedeliverAttempts, then discarded and counted; the queue bound drops the oldest', {
  skip: !BACKENDS.includes('postgres') && 'PostgreSQL not reachable',
  timeout: 180_000,
}, async () => {
  let database: TestDatabase | undefined;
  let receiver: Receiver | undefined;
  let service: ServiceProcess | undefined;
  let sampler: NodeJS.Timeout | undefined;
  try {
    database = await freshDatabase('postgres');
    const db = database.db;
    receiver = await Receiver.create({ up: false });
    service = await ServiceProcess.start({
      databaseUrl: database.url,
      env: { BRIDGE_DELIVERY_RETRY_INTERVAL_MS: String(RETRY_MS), BRIDGE_DELIVERY_TIMEOUT_MS: '500' },
    });
    const api = await Api.login(service.baseUrl);
    const [workplaceId] = await createWorkplaces(api, 1, `r2-${randomUUID().slice(0, 8)}`);
    const retrying = await registerCallback(api, {
      eventType: EVENT_TYPE,
      url: receiver.url('/retrying'),
      maxRedeliverAttempts: MAX_RETRIES,
    });
    const bounded = await registerCallback(api, {
      eventType: EVENT_TYPE,
      url: receiver.url('/bounded'),
      maxUnconfirmedMessages: BOUND,
    });

    // The bounded callback's queue, sampled all along while the receiver is down.
    let largestQueue = 0;
    const sample = async () => {
      const [row] = await db.query<{ n: string }>(
        'SELECT count(*) AS n FROM notifications WHERE callback_id = $1',
        [bounded],
      );
      largestQueue = Math.max(largestQueue, Number(row?.n));
    };
    sampler = setInterval(() => void sample().catch(() => {}), 20);
    let step = 0;
    const change = async () => {
      await api.expect(
        200,
        'POST',
        `/api/v2/workplaces/${workplaceId}/operatingState/${step % 2 === 0 ? '110' : '000'}`,
      );
      step += 1;
    };
    for (let index = 0; index < EVENTS; index += 1) {
      await change();
      await sample();
    }

    // Every notification of the retrying callback: 1 attempt + MAX_RETRIES retries, then discarded.
    const attempts = MAX_RETRIES + 1;
    const health = await waitFor(
      `${EVENTS} discarded notifications`,
      async () => {
        const properties = await api.expect(200, 'GET', `/api/v2/callbacks/${retrying}`);
        return properties.discardedNotifications === EVENTS && properties;
      },
      { timeoutMs: 20_000, intervalMs: 100 },
    );
    assert.equal(health.failedAttempts, EVENTS * attempts);
    const history = await api.request('GET', `/api/v2/callbacks/${retrying}/deliveries?limit=100`);
    const rows = (history.body?._embedded?.deliveries ?? []) as Attempt[];
    assert.equal(rows.length, EVENTS * attempts);
    const byEvent = Map.groupBy(rows, (row) => row.eventId);
    assert.equal(byEvent.size, EVENTS);
    let shortest = Number.POSITIVE_INFINITY;
    let longest = 0;
    for (const eventRows of byEvent.values()) {
      const ordered = eventRows.sort((x, y) => x.attempt - y.attempt);
      assert.deepEqual(
        ordered.map((row) => [row.attempt, row.outcome]),
        [
          ...Array.from({ length: attempts - 1 }, (_, index) => [index + 1, 'FAILED']),
          [attempts, 'DISCARDED'],
        ],
      );
      for (let index = 1; index < ordered.length; index += 1) {
        const gap =
          Date.parse((ordered[index] as Attempt).attemptedAt) -
          Date.parse((ordered[index - 1] as Attempt).attemptedAt);
        shortest = Math.min(shortest, gap);
        longest = Math.max(longest, gap);
      }
    }
    // Never before the interval is over (the upper side is a figure, not an assertion).
    assert.ok(shortest >= RETRY_MS - 5, `a retry after ${shortest} ms, before the ${RETRY_MS} ms interval`);

    // The bounded callback kept only the newest BOUND; the older ones were discarded and counted.
    clearInterval(sampler);
    sampler = undefined;
    assert.ok(largestQueue <= BOUND, `queue of ${largestQueue} notifications, bound ${BOUND}`);
    assert.equal(largestQueue, BOUND);
    const boundedHealth = await api.expect(200, 'GET', `/api/v2/callbacks/${bounded}`);
    assert.equal(boundedHealth.discardedNotifications, EVENTS - BOUND);

    // Receiver back: the kept ones arrive (newest BOUND), carrying the count discarded since the last success.
    const backAt = Date.now();
    await receiver.start();
    const current = receiver;
    await waitFor(
      `${BOUND} deliveries of the bounded callback`,
      () => current.countsById('/bounded').size >= BOUND,
      {
        timeoutMs: 10_000,
      },
    );
    const recoveredMs = Date.now() - backAt;
    const boundedDeliveries = receiver.deliveries.filter((delivery) => delivery.path === '/bounded');
    assert.deepEqual(
      boundedDeliveries.map((delivery) => Number(delivery.headers['bridge-sequence'])).sort((x, y) => x - y),
      Array.from({ length: BOUND }, (_, index) => EVENTS - BOUND + index + 1),
    );
    assert.equal(boundedDeliveries[0]?.headers['bridge-discarded-notifications'], String(EVENTS - BOUND));
    assert.equal(receiver.countsById('/retrying').size, 0, 'discarded notifications are never sent again');

    // One more event: both deliver it; the retrying callback reports its discarded ones once.
    await change();
    await waitFor(
      'the next event on both callbacks',
      () => current.countsById('/retrying').size === 1 && current.countsById('/bounded').size === BOUND + 1,
    );
    const [next] = receiver.deliveries.filter((delivery) => delivery.path === '/retrying');
    assert.equal(next?.headers['bridge-sequence'], String(EVENTS + 1));
    assert.equal(next?.headers['bridge-discarded-notifications'], String(EVENTS));
    const lastBounded = receiver.deliveries.filter((delivery) => delivery.path === '/bounded').at(-1);
    assert.equal(lastBounded?.headers['bridge-discarded-notifications'], '0');
    process.stdout.write(
      `# R2: retry gaps ${shortest}..${longest} ms for a ${RETRY_MS} ms interval; ${EVENTS} discarded after ` +
        `${attempts} attempts each; queue bound ${BOUND} held (largest seen ${largestQueue}), ` +
        `${EVENTS - BOUND} oldest dropped; kept ones arrived ${recoveredMs} ms after the receiver came back\n`,
    );
  } finally {
    if (sampler) clearInterval(sampler);
    await service?.kill().catch(() => {});
    await receiver?.stop().catch(() => {});
    await database?.drop().catch(() => {});
  }
});
