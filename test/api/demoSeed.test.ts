// `bridge seed` (src/simulator/seed.ts) through a real listening app on PGlite: the documented
// counts (docs/demo.md, "The demo plant"), and the same seed gives the same plant.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type BridgeClient, createBridgeClient, dataOf } from '../../clients/typescript/src/index.ts';
import {
  CAPACITY_GROUPS,
  MACHINE_COUNT,
  STAFF_COUNT,
  TOOLS,
  WORKPLACE_COUNT,
} from '../../src/simulator/plant.ts';
import { type SeedCounts, seedPlant } from '../../src/simulator/seed.ts';
import { startTestApp, TEST_CLIENT, type TestApp } from '../support/app.ts';

const SIZE = 16;
const NOW = new Date('2026-03-02T11:00:00.000Z');

/** The seeder's client, and GET of a path or href for the checks (HAL bodies read by name). */
interface Api {
  bridge: BridgeClient;
  // biome-ignore lint/suspicious/noExplicitAny: HAL bodies are read by name
  get(path: string): Promise<any>;
}

async function seeded(seed: number): Promise<{ t: TestApp; api: Api; counts: SeedCounts }> {
  const t = await startTestApp('pglite');
  try {
    const address = await t.app.server.listen({ host: '127.0.0.1', port: 0 });
    const bridge = createBridgeClient({
      baseUrl: address,
      clientId: TEST_CLIENT.id,
      clientSecret: TEST_CLIENT.secret,
    });
    const counts = await seedPlant(bridge, { size: SIZE, seed, now: NOW });
    return { t, api: { bridge, get: async (path) => dataOf(await bridge.follow(path)) }, counts };
  } catch (error) {
    // A failed seed closes its app: a listening server left open would keep the test process
    // alive, and the failure would never be reported.
    await t.close();
    throw error;
  }
}

const total = async (api: Api, path: string) =>
  (await api.get(path.includes('?') ? `${path}&limit=1` : `${path}?limit=1`)).pagination.total;

interface Shift {
  properties: { startDate: string; endDate: string };
}

/** What a plant is, without ids and times: compared between two seeds. */
async function snapshot(api: Api) {
  // biome-ignore lint/suspicious/noExplicitAny: HAL bodies are compared by value
  const orders: any[] = [];
  for (let next: string | undefined = '/api/v2/productionOrders?limit=100'; next; ) {
    const page = await api.get(next);
    orders.push(...page._embedded.productionOrders);
    next = page._links.next?.href;
  }
  const staff = (await api.get('/api/v2/staffMembers?limit=100'))._embedded.staffMembers;
  const phases: Record<string, number> = {};
  for (const phase of ['RELEASED', 'SETUP', 'PROCESSING', 'COMPLETED']) {
    phases[phase] = await total(api, `/api/v2/operations?operationPhaseId=${phase}`);
  }
  return {
    orders: orders
      .map(({ properties: p }) => [
        p.number,
        p.description,
        p.material?.number,
        p.targetQuantity,
        p.basicStartDate,
      ])
      .sort(),
    staff: staff.map(({ properties: p }: { properties: Record<string, unknown> }) => [
      p.staffNumber,
      p.firstName,
      p.lastName,
      p.qualifications,
      p.shiftId,
    ]),
    phases,
  };
}

describe('demo plant seed [pglite]', () => {
  let first: Awaited<ReturnType<typeof seeded>>;
  let second: Awaited<ReturnType<typeof seeded>>;
  before(async () => {
    // Both settle before a failure is reported, so the one that succeeded is closed in after().
    const [one, two] = await Promise.allSettled([seeded(7), seeded(7)]);
    if (one.status === 'fulfilled') first = one.value;
    if (two.status === 'fulfilled') second = two.value;
    if (one.status === 'rejected') throw one.reason;
    if (two.status === 'rejected') throw two.reason;
  });
  after(async () => {
    await first?.t.close();
    await second?.t.close();
  });

  it('creates the documented plant and reports what it created', async () => {
    const { api, counts } = first;
    assert.equal(counts.productionLines, 2);
    assert.equal(counts.capacityGroups, CAPACITY_GROUPS.length);
    assert.equal(counts.workplaces, WORKPLACE_COUNT);
    assert.equal(counts.devices, MACHINE_COUNT);
    assert.equal(counts.staffMembers, STAFF_COUNT);
    assert.equal(counts.tools, TOOLS.length);
    assert.ok(counts.operations >= SIZE && counts.operations < SIZE + 4, `${counts.operations} operations`);
    assert.ok(counts.completedOperations > 0 && counts.operationsInProgress > 0);
    // The API shows what the seed says it made.
    assert.equal(await total(api, '/api/v2/workplaceGroups'), counts.productionLines + counts.capacityGroups);
    assert.equal(await total(api, '/api/v2/workplaces'), counts.workplaces);
    assert.equal(await total(api, '/api/v2/devices'), counts.devices);
    assert.equal(await total(api, '/api/v2/staffMembers'), counts.staffMembers);
    assert.equal(await total(api, '/api/v2/tools'), counts.tools);
    assert.equal(await total(api, '/api/v2/tools/assemblyOrders'), counts.toolAssemblyOrders);
    assert.equal(await total(api, '/api/v2/documents'), counts.documents);
    assert.equal(await total(api, '/api/v2/productionOrders'), counts.productionOrders);
    assert.equal(await total(api, '/api/v2/operations'), counts.operations);
    assert.equal(
      await total(api, '/api/v2/operations?operationPhaseId=COMPLETED'),
      counts.completedOperations,
    );
  });

  it('gives shifts with a break in each, today and the next days', async () => {
    const { api } = first;
    const workplace = (await api.get('/api/v2/workplaces?limit=1'))._embedded.workplaces[0];
    const from = '2026-03-02T00:00:00.000Z';
    const to = '2026-03-03T00:00:00.000Z';
    const shifts = (
      await api.get(`${workplace._links.shifts.href}?startDate=${from}&endDate=${to}&limit=100`)
    )._embedded.shifts
      .filter(({ properties: p }: Shift) => p.startDate.startsWith('2026-03-02'))
      .map(({ properties: p }: Shift) => [p.startDate.slice(11, 16), p.endDate.slice(11, 16)]);
    assert.deepEqual(shifts.sort(), [
      ['02:30', '06:00'],
      ['06:00', '10:00'],
      ['10:30', '14:00'],
      ['14:00', '18:00'],
      ['18:30', '22:00'],
      ['22:00', '02:00'],
    ]);
    const later = await api.get(`${workplace._links.shifts.href}?startDate=2026-03-04T00:00:00.000Z&limit=1`);
    assert.ok(later.pagination.count > 0, 'shifts on the days after');
  });

  it('makes the same plant from the same seed', async () => {
    assert.deepEqual(second.counts, first.counts);
    assert.deepEqual(await snapshot(second.api), await snapshot(first.api));
  });

  it('refuses to seed a plant that is not empty, changing nothing', async () => {
    const before = await total(first.api, '/api/v2/workplaces');
    await assert.rejects(seedPlant(first.api.bridge, { size: 5, seed: 1 }), /not empty/);
    assert.equal(await total(first.api, '/api/v2/workplaces'), before);
  });
});
