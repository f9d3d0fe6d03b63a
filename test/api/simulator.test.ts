// `bridge simulate` (src/simulator/simulate.ts) against a real app listening on a port: a bounded
// number of steps with a fixed seed makes every kind of change the docs promise (docs/demo.md,
// "The simulator"), and the API never answers it with a status it did not expect. The service has
// a base path and a public URL, as behind a proxy: the simulator's loopback client follows the
// hrefs built from that URL over loopback, as the demo does.
import assert from 'node:assert/strict';
import { after, before, describe, it, test } from 'node:test';
import { type BridgeClient, dataOf } from '../../clients/typescript/src/index.ts';
import type { App } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { dashboardUrl, loopbackApi } from '../../src/demo.ts';
import { seedPlant } from '../../src/simulator/seed.ts';
import { runSteps, Simulator } from '../../src/simulator/simulate.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import { eventsSince } from '../support/events.ts';

// Inside the early shift's second half (10:30-14:00 UTC); 10:10 is in its break.
const IN_SHIFT = Date.parse('2026-03-02T11:00:00.000Z');
const IN_BREAK = Date.parse('2026-03-02T10:10:00.000Z');

/** A simulated clock that moves one second per reading, so sensor samples never share a time. */
const ticking = (start: number) => {
  let tick = 0;
  return () => new Date(start + 1000 * tick++);
};

interface Workplace {
  properties: { operatingState: { code: string } };
}

const lastSequence = async (t: TestApp) =>
  (await t.app.db.query<{ n: number }>('SELECT coalesce(max(sequence), 0)::int AS n FROM events'))[0]?.n ?? 0;

describe('demo simulator [pglite]', () => {
  let t: TestApp;
  let api: BridgeClient;
  /** Answers the client got, by status (a middleware counts them). */
  const statusCounts = new Map<number, number>();
  /** GET of an href, or of a path under the base path. */
  // biome-ignore lint/suspicious/noExplicitAny: HAL bodies are read by name
  const get = async (path: string): Promise<any> =>
    dataOf(await api.follow(path.startsWith('/') ? `${t.config.basePath}${path}` : path));
  before(async () => {
    t = await startTestApp('pglite', {
      BRIDGE_BASE_PATH: '/ffw',
      BRIDGE_PUBLIC_URL: 'https://bridge.plant.invalid/ffwebservices',
    });
    await t.app.server.listen({ host: '127.0.0.1', port: 0 });
    api = (await loopbackApi(t.app, t.config, 'simulator test')).api;
    api.use({
      onResponse({ response }) {
        statusCounts.set(response.status, (statusCounts.get(response.status) ?? 0) + 1);
      },
    });
    await seedPlant(api, { size: 60, seed: 3, now: new Date(IN_SHIFT) });
  });

  it('gets hrefs under the public URL, and follows them over loopback', async () => {
    const workplace = (await get('/api/v2/workplaces?limit=1'))._embedded.workplaces[0];
    assert.match(
      workplace._links.self.href,
      /^https:\/\/bridge\.plant\.invalid\/ffwebservices\/api\/v2\/workplaces\//,
    );
    assert.equal((await get(workplace._links.self.href)).properties.id, workplace.properties.id);
  });
  after(async () => {
    await t?.close();
  });

  it('moves operations, operating states, staff, sensors and tools through the API', async () => {
    const since = await lastSequence(t);
    const samplesBefore = (await get('/api/v2/devices?limit=1'))._embedded.devices[0];
    const countSamples = async () =>
      (await get(`${samplesBefore._links.recordedTimeSeries.href}?limit=100`)).pagination.count;
    const before = await countSamples();
    const statusesBefore = new Map(statusCounts);

    const simulator = await Simulator.connect(api, { seed: 11, now: ticking(IN_SHIFT) });
    const errors: Error[] = [];
    const steps = await runSteps(simulator, { steps: 150, onError: (error) => errors.push(error) });

    assert.equal(steps, 150);
    assert.deepEqual(
      errors.map((error) => error.message),
      [],
    );
    // Only answers it expects: success, and 409 where another change won a race.
    const statuses = [...statusCounts].filter(([status, n]) => n !== (statusesBefore.get(status) ?? 0));
    for (const [status] of statuses) assert.ok([200, 201, 204, 409].includes(status), `status ${status}`);

    const types = new Set((await eventsSince(t, since)).map((event) => event.eventType));
    for (const type of [
      'OPERATION_PHASE_CHANGED',
      'WORKPLACE_OPERATING_STATE_CHANGED',
      'STAFF_MEMBER_ACTIVITY_CHANGED',
      'TOOL_ASSEMBLY_ORDER_STATE_CHANGED',
      'TICKET_CREATED',
      'TICKET_STATE_CHANGED',
      // Workers signed on and off at a terminal, through POST /commands.
      'COMMAND',
    ]) {
      assert.ok(types.has(type), `${type} in the event log (seen: ${[...types].join(', ')})`);
    }
    const phases = (await eventsSince(t, since, ['OPERATION_PHASE_CHANGED'])).map(
      (event) => (event.data as { operationPhaseId?: string }).operationPhaseId ?? JSON.stringify(event.data),
    );
    assert.ok(simulator.counts.get('operationPhase'), 'phase changes were made');
    assert.ok(simulator.counts.get('sensorValues'), 'sensor values were reported');
    assert.ok(phases.length > 0);
    // Sensor values of some machine arrived; this one may or may not have been picked.
    const total = (await eventsSince(t, since)).length;
    assert.ok(total > 0);
    assert.ok((await countSamples()) >= before);
    // Units were counted by the machines (POST /machines/{id}/quantitiesWithQualityDetails): each
    // booking carries the quality detail it was judged with.
    assert.ok(simulator.counts.get('outputQuantity'), 'units were booked');
    const byMachine = await t.app.db.query<{ n: string }>(
      'SELECT count(*) AS n FROM recorded_output_quantities WHERE quality_detail_id IS NOT NULL',
    );
    assert.ok(Number(byMachine[0]?.n) > 0, 'bookings with a quality detail');
  });

  it('sends workplaces into their break when the shifts say so, and back after', async () => {
    const since = await lastSequence(t);
    const onBreak = await Simulator.connect(api, { seed: 12, now: ticking(IN_BREAK) });
    await runSteps(onBreak, { steps: 60 });
    assert.ok(onBreak.counts.get('break'), 'breaks were taken');
    const codes = async () =>
      ((await get('/api/v2/workplaces?limit=100'))._embedded.workplaces as Workplace[]).map(
        (workplace) => workplace.properties.operatingState.code,
      );
    const onBreakCount = (await codes()).filter((code) => code === '993').length;
    assert.ok(onBreakCount > 0, 'some workplace is in the break state (993)');
    assert.ok((await eventsSince(t, since, ['WORKPLACE_OPERATING_STATE_CHANGED'])).length >= onBreakCount);

    // A new run (as after a restart) reads the states from the API and ends the breaks.
    const back = await Simulator.connect(api, { seed: 13, now: ticking(IN_SHIFT) });
    await runSteps(back, { steps: 60 });
    assert.ok(back.counts.get('break'), 'breaks were ended');
    assert.ok((await codes()).filter((code) => code === '993').length < onBreakCount);
  });
});

test('the demo banner shows where the dashboard is: the listening address, or the public URL', () => {
  const listening = (address: string, family: string, port: number) =>
    ({ server: { addresses: () => [{ address, family, port }] } }) as unknown as App;
  const config = loadConfig({ BRIDGE_PORT: '0' });
  assert.equal(dashboardUrl(listening('127.0.0.1', 'IPv4', 41234), config), 'http://127.0.0.1:41234/');
  assert.equal(dashboardUrl(listening('0.0.0.0', 'IPv4', 8080), config), 'http://localhost:8080/');
  assert.equal(dashboardUrl(listening('::1', 'IPv6', 8080), config), 'http://[::1]:8080/');
  const tls = { ...config, tlsCertFile: 'cert.pem', basePath: '/ffw' };
  assert.equal(dashboardUrl(listening('::', 'IPv6', 8443), tls), 'https://localhost:8443/ffw/');
  const proxied = { ...tls, publicUrl: 'https://bridge.plant.example/ffwebservices' };
  assert.equal(
    dashboardUrl(listening('::', 'IPv6', 8443), proxied),
    'https://bridge.plant.example/ffwebservices/',
  );
});
