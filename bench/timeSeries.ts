// Device time series at scale: does a timestamp-mode page stay as fast at 1,000,000 samples as at
// 10,000 (target: within 2x)? `npm run bench:timeseries`, PostgreSQL only.
//
// A fresh database (bench/support.ts: `bench_timeseries_<pid>`, dropped at the end) gets one
// device recording 4 tags. Samples are written through the service (recordSamples: 10,000 per
// call, one INSERT each), one per second, tags in turn; after each stage VACUUM ANALYZE brings
// the table to the state autovacuum keeps it in. At 10,000 and at 1,000,000 samples, through the
// service (listSamples, what GET /devices/{id}/recordedTimeSeries calls):
//   page     limit 100 from a (paginationTimestamp, paginationIdentifier) in the middle
//   filtered tag T2 + startDate/endDate around the middle (10 % of the time range), limit 100
// and, for each, every statement the service sends timed alone: the page read, the `total`
// count(*) (src/db/paging.ts counts on every page) and the "anything behind?" probe (from a position).
// Each statement the service sends is EXPLAINed: pages are index scans in keyset order, never a Sort.
// Medians of BENCH_ITERATIONS (100) after 20 warm-up calls; ratios (1M / 10k) on the last lines.
//
// Settings: BENCH_ITERATIONS (100), BENCH_SAMPLES ("10000,1000000"), BENCH_ADMIN_URL.
// Results: printed (ratios last) and bench/results/timeseries-latest.json (bench/README.md renders it).
import { loadavg } from 'node:os';
import type { Queryable } from '../src/db/database.ts';
import type { KeysetRequest } from '../src/db/paging.ts';
import { openPostgres } from '../src/db/postgres.ts';
import type { SampleFilter } from '../src/db/repositories/timeSeriesRepository.ts';
import { MAX_SAMPLES_PER_CALL, type SampleInput } from '../src/domain/devices.ts';
import { createDevice } from '../src/services/deviceService.ts';
import { listSamples, recordSamples } from '../src/services/timeSeriesService.ts';
import { revision } from './service.ts';
import {
  machineInfo,
  medianMs,
  type StatementKind,
  seedDatabase,
  statementKind,
  statementsOf,
  writeResults,
} from './support.ts';

const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 100);
const WARMUP = 20;
const STAGES = (process.env.BENCH_SAMPLES ?? '10000,1000000').split(',').map(Number);
const TAGS = ['T1', 'T2', 'T3', 'T4'];
const RESULTS_FILE = new URL('./results/timeseries-latest.json', import.meta.url);
const TARGET_RATIO = 2;
const WHAT: Record<Scenario['id'], string> = {
  page: 'samples page from the middle (timestamp + identifier)',
  filtered: 'samples of one tag in a date window (10 % of the series)',
};
const START = Date.UTC(2024, 0, 1);
const timeOf = (index: number) => new Date(START + index * 1000);

interface Scenario {
  id: 'page' | 'filtered';
  filter: SampleFilter;
  request: KeysetRequest;
}

interface Measured {
  samples: number;
  scenario: Scenario['id'];
  serviceMs: number;
  /** Each statement of the call timed alone, by kind. */
  statementMs: Record<StatementKind, number | undefined>;
  total: number;
}

/** The scenarios at `samples` rows: positions and windows around the middle of the series. */
async function scenarios(db: Queryable, deviceId: string, samples: number): Promise<Scenario[]> {
  const middle = timeOf(Math.floor(samples / 2));
  const [atMiddle] = (
    await listSamples(
      db,
      deviceId,
      {},
      { limit: 1, direction: 'NEXT', timestamp: middle, identifier: undefined },
    )
  ).items;
  if (!atMiddle) throw new Error('no sample in the middle');
  return [
    {
      id: 'page',
      filter: {},
      request: { limit: 100, direction: 'NEXT', timestamp: atMiddle.timestamp, identifier: atMiddle.id },
    },
    {
      id: 'filtered',
      filter: { tag: 'T2', startDate: timeOf(samples * 0.45), endDate: timeOf(samples * 0.55) },
      request: { limit: 100, direction: 'NEXT', timestamp: undefined, identifier: undefined },
    },
  ];
}

const timeMs = (work: () => Promise<unknown>) => medianMs(work, { warmup: WARMUP, iterations: ITERATIONS });

/** The statements on recorded_time_series that one service call sends. */
const sampleStatementsOf = async (db: Queryable, work: (db: Queryable) => Promise<unknown>) =>
  (await statementsOf(db, work)).filter(({ sql }) => sql.includes('recorded_time_series'));

/** Statements (other than the count) planned with a Sort or a sequential scan, reported at the end. */
const warnings: string[] = [];

/** EXPLAINs what the service sends in both directions; flags reads that are no index range scan. */
async function explain(db: Queryable, deviceId: string, scenario: Scenario): Promise<void> {
  for (const direction of ['NEXT', 'PREVIOUS'] as const) {
    const request = { ...scenario.request, direction };
    for (const { sql, params } of await sampleStatementsOf(db, (tx) =>
      listSamples(tx, deviceId, scenario.filter, request),
    )) {
      const [row] = await db.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
        `EXPLAIN (FORMAT JSON) ${sql}`,
        params,
      );
      const plan = row?.['QUERY PLAN'][0].Plan;
      const nodes = plan ? flatten(plan) : [];
      const shape = nodes.map((node) => node['Index Name'] ?? node['Node Type']).join(' > ');
      // The count reads every matching row anyway: whatever plan is cheapest is fine for it.
      const scansAll = nodes.some((node) => node['Node Type'] === 'Sort' || node['Node Type'] === 'Seq Scan');
      const flagged = statementKind(sql) !== 'count' && scansAll;
      if (flagged) warnings.push(`${scenario.id} ${direction} ${statementKind(sql)}: ${shape}`);
      console.log(
        `  explain ${scenario.id.padEnd(8)} ${direction.padEnd(8)} ${statementKind(sql).padEnd(6)} ${shape}` +
          (flagged ? '  <- not an index range scan' : ''),
      );
    }
  }
}

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}
const flatten = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(flatten)];

async function load(db: Parameters<typeof recordSamples>[0], deviceId: string, from: number, to: number) {
  const started = performance.now();
  for (let first = from; first < to; first += MAX_SAMPLES_PER_CALL) {
    const batch: SampleInput[] = [];
    for (let i = first; i < Math.min(to, first + MAX_SAMPLES_PER_CALL); i += 1) {
      batch.push({
        tag: TAGS[i % TAGS.length] as string,
        timestamp: timeOf(i),
        value: Math.sin(i / 100) * 50,
      });
    }
    await recordSamples(db, deviceId, batch);
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `  loaded ${to - from} samples in ${seconds.toFixed(1)} s (${((to - from) / seconds).toFixed(0)}/s)`,
  );
}

async function main(): Promise<void> {
  const loadBefore = loadavg();
  const code = revision();
  const started = performance.now();
  const seeded = await seedDatabase('postgres', 'timeseries', 1);
  const db = await openPostgres({ url: seeded.target, timeoutMs: 600_000, poolSize: 2 });
  const results: Measured[] = [];
  try {
    const device = await createDevice(db, {
      name: 'Bench PLC',
      description: null,
      type: 'PLC',
      workplaceId: seeded.workplaceIds[0] as string,
      recordedPhysicalQuantities: TAGS.map((tag) => ({
        tag,
        name: null,
        physicalQuantity: null,
        unit: null,
      })),
    });
    let loaded = 0;
    for (const samples of STAGES) {
      console.log(`\n[${samples} samples]`);
      await load(db, device.id, loaded, samples);
      loaded = samples;
      await db.exec('VACUUM ANALYZE recorded_time_series');
      for (const scenario of await scenarios(db, device.id, samples)) {
        await explain(db, device.id, scenario);
        const page = await listSamples(db, device.id, scenario.filter, scenario.request);
        const serviceMs = await timeMs(() => listSamples(db, device.id, scenario.filter, scenario.request));
        const statementMs: Measured['statementMs'] = { page: undefined, count: undefined, behind: undefined };
        const sent = await sampleStatementsOf(db, (tx) =>
          listSamples(tx, device.id, scenario.filter, scenario.request),
        );
        for (const { sql, params } of sent)
          statementMs[statementKind(sql)] = await timeMs(() => db.query(sql, params));
        results.push({ samples, scenario: scenario.id, serviceMs, statementMs, total: page.total });
        console.log(
          `  ${scenario.id.padEnd(8)} service ${serviceMs.toFixed(2)} ms (total ${page.total}, ${page.items.length} items)`,
        );
      }
    }
  } finally {
    await db.close();
    await seeded.drop();
  }

  const [small, large] = [STAGES[0], STAGES.at(-1)];
  const ms = (value: number | undefined) => (value === undefined ? '-' : value.toFixed(2)).padStart(9);
  console.log('\nscenario  samples    service ms   page ms  count ms  behind ms  count share');
  for (const r of results) {
    const { page, count, behind } = r.statementMs;
    console.log(
      `${r.scenario.padEnd(9)} ${String(r.samples).padStart(8)}  ${ms(r.serviceMs).padStart(11)} ${ms(page)} ` +
        `${ms(count)}  ${ms(behind)}  ${((100 * (count ?? 0)) / r.serviceMs).toFixed(0).padStart(9)} %`,
    );
  }
  console.log('');
  for (const warning of warnings) console.log(`plan warning: ${warning}`);
  const ratios = [];
  for (const id of ['page', 'filtered'] as const) {
    const a = results.find((r) => r.scenario === id && r.samples === small);
    const b = results.find((r) => r.scenario === id && r.samples === large);
    if (!a || !b) continue;
    const ratio = b.serviceMs / a.serviceMs;
    // What the call would cost without the count: its other statements, timed alone.
    const rest = (r: Measured) => (r.statementMs.page ?? 0) + (r.statementMs.behind ?? 0);
    const withoutCount = rest(b) / rest(a);
    const met = ratio <= TARGET_RATIO;
    ratios.push({
      case: id,
      what: WHAT[id],
      ratio,
      met,
      withoutCountRatio: withoutCount,
      countShareLarge: (b.statementMs.count ?? 0) / b.serviceMs,
    });
    console.log(
      `${id.padEnd(8)} ${large}/${small} samples: service ratio ${ratio.toFixed(2)} (target <= ${TARGET_RATIO}: ` +
        `${met ? 'MET' : 'NOT MET'}); without the count(*) about ${withoutCount.toFixed(2)}`,
    );
  }
  writeResults(RESULTS_FILE, {
    date: new Date().toISOString(),
    code,
    machine: machineInfo(loadBefore),
    runSeconds: Math.round((performance.now() - started) / 1000),
    settings: { iterations: ITERATIONS, warmup: WARMUP, stages: STAGES, tags: TAGS.length },
    target: { ratio: TARGET_RATIO },
    results,
    planWarnings: warnings,
    ratios,
  });
}

await main();
