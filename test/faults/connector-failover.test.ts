// R15 (docs/quality.md): machine data is never lost when a connector moves to another instance.
// Two service processes share one PostgreSQL database and the lease of one MQTT connector whose
// piece counter a real publisher raises at 10 Hz through Mosquitto (QoS 1). The lease holder is
// killed (kill -9) twice while the counter runs, and started again; the other instance takes the
// connector over. Every piece counted is booked exactly once: the broker keeps the persistent
// session's messages for the next holder, which continues from the reading stored with the last
// booking. BENCH-style figures are printed: pieces counted, booked, lost and booked twice.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { test } from 'node:test';
import mqtt from 'mqtt';
import { BACKENDS, freshDatabase, type TestDatabase } from '../support/databases.ts';
import { Api, createWorkplaces, ServiceProcess, waitFor } from '../support/faults.ts';

const API = '/api/v2';
const RATE_HZ = 10;
const SECONDS = Number(process.env.FAILOVER_SECONDS ?? 60);
/** When the holder is killed, as fractions of the run. */
const KILLS = [0.25, 0.65];
const BASELINE = 1000;

const brokerUp = async () => {
  try {
    const probe = await mqtt.connectAsync({ host: '127.0.0.1', port: 1883, reconnectPeriod: 0 });
    await probe.endAsync();
    return true;
  } catch {
    return false;
  }
};

const skip = !BACKENDS.includes('postgres')
  ? 'PostgreSQL not reachable'
  : !(await brokerUp()) && process.env.CI !== 'true'
    ? 'no MQTT broker at 127.0.0.1:1883'
    : false;

test(`R15: a piece counter at ${RATE_HZ} Hz for ${SECONDS} s, its holder killed twice: every piece booked once`, {
  skip,
  timeout: 600_000,
}, async () => {
  let database: TestDatabase | undefined;
  const services: ServiceProcess[] = [];
  const publisher = await mqtt.connectAsync({ host: '127.0.0.1', port: 1883 });
  try {
    database = await freshDatabase('postgres');
    const db = database.db;
    for (let index = 0; index < 2; index += 1)
      services.push(
        await ServiceProcess.start({ databaseUrl: database.url, env: { BRIDGE_LOG_LEVEL: 'error' } }),
      );
    const api = await Api.login((services[0] as ServiceProcess).baseUrl);
    const prefix = `r15-${randomUUID().slice(0, 8)}`;
    const [workplaceId] = await createWorkplaces(api, 1, prefix);
    const workplace = { id: workplaceId as string };
    const order = await api.expect(201, 'POST', `${API}/productionOrders`, { number: `${prefix}-po` });
    const operation = await api.expect(201, 'POST', `${API}/operations`, {
      productionOrderId: order.id,
      number: `${prefix}-op`,
      workplaceId: workplace.id,
    });
    for (const phase of ['DISPATCHED', 'PROCESSING'])
      await api.expect(200, 'POST', `${API}/operations/${operation.id}/${phase}`);
    const topic = `bridge-test/${prefix}/count`;
    const connector = await api.expect(201, 'POST', `${API}/connectors`, {
      name: 'Failover counter',
      type: 'MQTT',
      url: 'mqtt://127.0.0.1:1883',
      mappings: [
        {
          source: { topic },
          target: { kind: 'OUTPUT_QUANTITY', workplaceId: workplace.id, quantityType: 'YIELD' },
        },
      ],
    });
    const holder = async () => {
      const rows = await db.query<{ lease_owner: string | null; state: string }>(
        'SELECT lease_owner, state FROM connectors WHERE id = $1',
        [connector.id],
      );
      const owner = rows[0]?.lease_owner ?? '';
      return services.find((service) => service.pid !== undefined && owner.includes(`-${service.pid}-`));
    };
    const storedReading = async () => {
      const rows = await db.query<{ reading: number }>(
        'SELECT reading::float8 AS reading FROM connector_counters WHERE connector_id = $1',
        [connector.id],
      );
      return rows[0] === undefined ? undefined : Number(rows[0].reading);
    };
    const booked = async () => {
      const rows = await db.query<{ total: number | null; count: string }>(
        `SELECT sum(quantity)::float8 AS total, count(*) AS count FROM recorded_output_quantities
         WHERE operation_id = $1`,
        [operation.id],
      );
      return { total: Number(rows[0]?.total ?? 0), bookings: Number(rows[0]?.count ?? 0) };
    };
    await waitFor(
      'a holder connected',
      async () => {
        const rows = await db.query<{ state: string }>('SELECT state FROM connectors WHERE id = $1', [
          connector.id,
        ]);
        return rows[0]?.state === 'CONNECTED' && (await holder()) !== undefined;
      },
      { timeoutMs: 60_000, intervalMs: 100 },
    );

    // The baseline, then the counter runs.
    await publisher.publishAsync(topic, String(BASELINE), { qos: 1 });
    await waitFor('the baseline stored', async () => (await storedReading()) === BASELINE, {
      timeoutMs: 30_000,
    });
    let counter = BASELINE;
    const ticks = SECONDS * RATE_HZ;
    const kills: { at: number; pid: number | undefined }[] = [];
    const pending: Promise<void>[] = [];
    const startedAt = Date.now();
    for (let tick = 1; tick <= ticks; tick += 1) {
      counter += 1;
      await publisher.publishAsync(topic, String(counter), { qos: 1 });
      if (KILLS.some((fraction) => Math.round(fraction * ticks) === tick)) {
        const victim = await holder();
        assert.ok(victim, 'a lease holder to kill');
        kills.push({ at: counter, pid: victim.pid });
        victim.killNow();
        // Started again in the background: two instances again, the connector stays with the other.
        pending.push(victim.exited().then(() => victim.start()));
      }
      const due = startedAt + (tick * 1000) / RATE_HZ;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    const counted = counter - BASELINE;
    await Promise.all(pending);
    await waitFor(`all ${counted} pieces booked`, async () => (await storedReading()) === counter, {
      timeoutMs: 120_000,
      intervalMs: 200,
      describe: async () => JSON.stringify({ stored: await storedReading(), counter }),
    });
    const result = await booked();
    const lost = Math.max(0, counted - result.total);
    const twice = Math.max(0, result.total - counted);
    process.stdout.write(
      `# R15: counter at ${RATE_HZ} Hz for ${SECONDS} s, holder killed at readings ${kills
        .map((kill) => kill.at)
        .join(' and ')}: ${counted} pieces counted, ${result.total} booked in ${result.bookings} bookings, ` +
        `${lost} lost, ${twice} booked twice\n`,
    );
    assert.equal(kills.length, 2);
    assert.notEqual(kills[0]?.pid, kills[1]?.pid, 'each instance was the holder once');
    assert.equal(result.total, counted);
  } finally {
    await publisher.endAsync(true);
    await Promise.all(services.map((service) => service.kill().catch(() => {})));
    await database?.drop().catch(() => {});
  }
});
