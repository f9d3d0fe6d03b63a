// Retention (docs/events.md, "Retention"; docs/resources/devices.md): the background loop deletes
// events and device samples older than BRIDGE_RETENTION_EVENTS_DAYS / _SAMPLES_DAYS, in batches.
// Everything runs on a ManualClock the tests move: old rows go, newer ones stay; an event a
// callback still waits for, one not yet fanned out, and the newest event stay; 0 keeps a table
// forever; several loops on one database delete every row exactly once.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ManualClock } from '../../src/background/clock.ts';
import type { Database } from '../../src/db/database.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import { RETENTION_BATCH, RETENTION_INTERVAL_MS, Retention } from '../../src/services/retention.ts';
import { createWorkplace, describeEachBackend, json, startTestApp, type TestApp } from '../support/app.ts';
import { BACKENDS } from '../support/databases.ts';

const DAY = 86_400_000;
const EVENTS = '/api/v2/events';
const ON = { BRIDGE_RETENTION_EVENTS_DAYS: '30', BRIDGE_RETENTION_SAMPLES_DAYS: '90' };

const clockOf = (t: TestApp): ManualClock => {
  const { clock } = t.app;
  assert.ok(clock instanceof ManualClock);
  return clock;
};

/** Waits until the cycle every start runs is over, so it cannot meet the rows a test writes. */
const startCycleOver = (t: TestApp) => t.app.retention.nextCycle();

/** Moves the app's clock to `time` (at least one loop interval on), then waits for a retention cycle. */
async function retainAt(t: TestApp, time: number): Promise<void> {
  const clock = clockOf(t);
  clock.set(new Date(Math.max(time, clock.now().getTime() + RETENTION_INTERVAL_MS)));
  await t.app.retention.nextCycle();
}

async function createDevice(t: TestApp, number: string): Promise<string> {
  const workplaceId = await createWorkplace(t, number);
  const response = await t.request({
    method: 'POST',
    url: '/api/v2/devices',
    body: { name: number, type: 'PLC', workplaceId, recordedPhysicalQuantities: [{ tag: 'T1' }] },
  });
  assert.equal(response.statusCode, 201, response.body);
  return json(response).properties.id;
}

/** Posts samples of tag T1 at these times (at most 10,000, one request). */
async function record(t: TestApp, deviceId: string, times: number[]): Promise<void> {
  const elements = times.map((time, i) => ({ tag: 'T1', timestamp: new Date(time).toISOString(), value: i }));
  const response = await t.request({
    method: 'POST',
    url: `/api/v2/devices/${deviceId}/recordedTimeSeries`,
    body: { elements },
  });
  assert.equal(response.statusCode, 201, response.body);
}

/** The sample times of a device still stored, newest first (through the API). */
async function sampleTimes(t: TestApp, deviceId: string): Promise<{ total: number; times: string[] }> {
  const response = await t.request({ url: `/api/v2/devices/${deviceId}/recordedTimeSeries?limit=100` });
  assert.equal(response.statusCode, 200, response.body);
  const page = json(response);
  return {
    total: page.pagination.total,
    times: page._embedded.recordedTimeSeries.map(
      (sample: { properties: { timestamp: string } }) => sample.properties.timestamp,
    ),
  };
}

async function publish(t: TestApp, eventName: string): Promise<{ id: string; recordedAt: string }> {
  const response = await t.request({
    method: 'POST',
    url: EVENTS,
    body: { eventType: 'EXTERNAL', eventName },
  });
  assert.equal(response.statusCode, 201, response.body);
  return json(response).properties;
}

interface LoggedEvent {
  id: string;
  eventType: string;
  objectId: string | null;
  recordedAt: string;
}

/** Every event `GET /events` still lists, oldest first. */
async function loggedEvents(t: TestApp): Promise<LoggedEvent[]> {
  const response = await t.request({ url: `${EVENTS}?limit=100` });
  assert.equal(response.statusCode, 200, response.body);
  const page = json(response);
  assert.ok(page.pagination.total <= 100, 'one page holds the log');
  return page._embedded.events.map((event: { properties: LoggedEvent }) => event.properties).reverse();
}

/** The value of bridge_retention_deleted_rows_total for `table` (0 before the first deletion). */
async function deletedMetric(t: TestApp, table: string): Promise<number> {
  const response = await t.request({ url: '/metrics' });
  assert.equal(response.statusCode, 200, response.body);
  const match = response.body.match(
    new RegExp(`^bridge_retention_deleted_rows_total\\{table="${table}"\\} (\\d+)$`, 'm'),
  );
  return Number(match?.[1] ?? 0);
}

describeEachBackend(
  'retention',
  (t) => {
    test('samples older than the setting go by their own time, in batches; newer ones stay', async () => {
      await startCycleOver(t());
      const deviceId = await createDevice(t(), 'RET-S1');
      const now = clockOf(t()).now().getTime();
      // More than two batches of old samples, one a day short of the limit, one of the last hour.
      const old = Array.from({ length: 2 * RETENTION_BATCH + 123 }, (_, i) => now - 120 * DAY - i * 1000);
      await record(t(), deviceId, old.slice(0, 10_000));
      await record(t(), deviceId, [...old.slice(10_000), now - 89 * DAY, now - 3_600_000]);
      assert.equal((await sampleTimes(t(), deviceId)).total, old.length + 2);

      await retainAt(t(), now);
      assert.deepEqual((await sampleTimes(t(), deviceId)).times, [
        new Date(now - 3_600_000).toISOString(),
        new Date(now - 89 * DAY).toISOString(),
      ]);
      assert.equal(await deletedMetric(t(), 'recorded_time_series'), old.length);

      // Two days later the one of 89 days is past 90.
      await retainAt(t(), now + 2 * DAY);
      assert.deepEqual((await sampleTimes(t(), deviceId)).times, [new Date(now - 3_600_000).toISOString()]);
      assert.equal(await deletedMetric(t(), 'recorded_time_series'), old.length + 1);
    });

    test('events go 30 days after they were recorded, unless a callback still waits for them; the newest stays', async () => {
      // A receiver that refuses connections: the notification stays queued for retries.
      const callback = await t().request({
        method: 'POST',
        url: '/api/v2/callbacks',
        body: {
          eventType: 'WORKPLACE_CREATED',
          url: 'http://127.0.0.1:9/hook',
          maxRedeliverAttempts: 10_000,
        },
      });
      assert.equal(callback.statusCode, 201, callback.body);
      const workplaceId = await createWorkplace(t(), 'RET-E1');
      const newest = await publish(t(), 'newest');
      const { delivery } = t().app;
      assert.ok(delivery);
      await delivery.drain();

      const logged = await loggedEvents(t());
      const waitedFor = logged.find(
        (event) => event.eventType === 'WORKPLACE_CREATED' && event.objectId === workplaceId,
      );
      assert.ok(waitedFor);
      assert.equal(logged.at(-1)?.id, newest.id);
      const oldest = Date.parse(logged[0]?.recordedAt ?? '');

      // A minute short of 30 days after the oldest: every event stays.
      await retainAt(t(), oldest + 30 * DAY - 60_000);
      assert.deepEqual(await loggedEvents(t()), logged);

      // 30 days after the newest: only the event a callback waits for, and the newest, stay.
      await retainAt(t(), Date.parse(newest.recordedAt) + 30 * DAY + 1);
      await delivery.drain();
      assert.deepEqual(
        (await loggedEvents(t())).map((event) => event.id),
        [waitedFor.id, newest.id],
      );
      const gone = logged.find((event) => event.id !== waitedFor.id && event.id !== newest.id);
      assert.equal((await t().request({ url: `${EVENTS}/${gone?.id}` })).statusCode, 404);
      assert.equal(await deletedMetric(t(), 'events'), logged.length - 2);

      // Once no callback waits (deleting it drops its queue), that event goes at the next cycle.
      const deleted = await t().request({
        method: 'DELETE',
        url: `/api/v2/callbacks/${json(callback).properties.id}`,
      });
      assert.equal(deleted.statusCode, 204, deleted.body);
      await retainAt(t(), 0);
      assert.deepEqual(
        (await loggedEvents(t())).map((event) => event.id),
        [newest.id],
      );
      assert.equal(await deletedMetric(t(), 'events'), logged.length - 1);
      // Delivery positions go with their events: the one left is the newest event's.
      const positioned = await t().app.db.query<{ id: string }>(
        'SELECT e.id FROM delivery_positions p LEFT JOIN events e ON e.sequence = p.sequence',
      );
      assert.deepEqual(positioned, [{ id: newest.id }]);
    });

    test('events not yet fanned out to callbacks stay, however old', async () => {
      const { delivery } = t().app;
      await delivery?.stop(); // nothing fans out from here on
      const first = await publish(t(), 'undispatched 1');
      const second = await publish(t(), 'undispatched 2');
      await retainAt(t(), Date.parse(second.recordedAt) + 365 * DAY);
      const ids = (await loggedEvents(t())).map((event) => event.id);
      assert.ok(ids.includes(first.id) && ids.includes(second.id), JSON.stringify(ids));
    });
  },
  ON,
  () => ({ clock: new ManualClock() }),
);

// One table kept forever (0), the other still pruned: the two settings act alone.
for (const [forever, pruned] of [
  ['events', 'samples'],
  ['samples', 'events'],
] as const) {
  describeEachBackend(
    `retention: 0 keeps ${forever} forever`,
    (t) => {
      test(`a century later every ${forever === 'events' ? 'event' : 'sample'} is there; old ${pruned} are not`, async () => {
        await startCycleOver(t());
        const deviceId = await createDevice(t(), 'RET-0');
        const now = clockOf(t()).now().getTime();
        await record(t(), deviceId, [Date.parse('2000-01-01T00:00:00Z'), now]);
        await publish(t(), 'first');
        await publish(t(), 'second');
        await t().app.delivery?.drain();
        const events = await loggedEvents(t());

        await retainAt(t(), now + 36_500 * DAY);
        const samples = (await sampleTimes(t(), deviceId)).total;
        const kept = await loggedEvents(t());
        if (forever === 'events') {
          assert.deepEqual(kept, events);
          assert.equal(samples, 0);
          assert.equal(await deletedMetric(t(), 'events'), 0);
        } else {
          assert.equal(samples, 2);
          assert.deepEqual(kept, events.slice(-1), 'only the newest event is left');
          assert.equal(await deletedMetric(t(), 'recorded_time_series'), 0);
        }
      });
    },
    {
      BRIDGE_RETENTION_EVENTS_DAYS: forever === 'events' ? '0' : '1',
      BRIDGE_RETENTION_SAMPLES_DAYS: forever === 'samples' ? '0' : '1',
    },
    () => ({ clock: new ManualClock() }),
  );
}

// Instances on one PostgreSQL run their loops at once (on PGlite they share its one connection).
for (const backend of BACKENDS) {
  describe(`retention: several instances at once [${backend}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await startTestApp(backend, {}, { clock: new ManualClock() });
    });
    after(async () => {
      await t.close();
    });

    test('three loops with small batches delete every old row exactly once', async () => {
      const deviceId = await createDevice(t, 'RET-MANY');
      const now = t.app.clock.now().getTime();
      await record(t, deviceId, [...Array.from({ length: 1000 }, (_, i) => now - 100 * DAY - i), now]);
      for (let i = 0; i < 40; i++) await publish(t, `many ${i}`);
      await t.app.delivery?.drain();
      const events = await loggedEvents(t);

      const databases: Database[] = [];
      for (let i = 0; i < 3; i++) {
        databases.push(
          t.database.url === undefined
            ? t.app.db
            : await openPostgres({ url: t.database.url, timeoutMs: 10_000, poolSize: 2 }),
        );
      }
      const deleted = { events: 0, recorded_time_series: 0, idempotency_keys: 0 };
      const warnings: string[] = [];
      const clock = new ManualClock(new Date(now + 31 * DAY));
      const loops = databases.map(
        (db) =>
          new Retention(db, {
            eventsDays: 30,
            samplesDays: 90,
            clock,
            batchSize: 7,
            log: { warn: (_details, message) => warnings.push(message), info: () => {} },
            onDeleted: (table, rows) => {
              deleted[table] += rows;
            },
          }),
      );
      try {
        for (const loop of loops) loop.start();
        await Promise.all(loops.map((loop) => loop.nextCycle()));
      } finally {
        await Promise.all(loops.map((loop) => loop.stop()));
        for (const db of databases) if (db !== t.app.db) await db.close();
      }
      assert.deepEqual(warnings, []);
      assert.deepEqual(deleted, {
        events: events.length - 1,
        recorded_time_series: 1000,
        idempotency_keys: 0,
      });
      assert.deepEqual((await sampleTimes(t, deviceId)).times, [new Date(now).toISOString()]);
      assert.deepEqual(await loggedEvents(t), events.slice(-1));
    });
  });
}
