// P3/P4/P8 delivery benchmark (docs/quality.md): `npm run bench:delivery`.
//
// Per backend (PostgreSQL binding, PGlite for information): a fresh database seeded with
// WORKPLACES workplaces (bench/support.ts); the service as `bridge start` in a child process; the
// callbacks' receiver (bench/deliveryReceiver.ts) in another; the load comes from this process.
//   1. P3 base: operating-state changes (each workplace alternates 110/000; each of CONCURRENCY
//      loops owns its own workplaces, so every 200 answer is one change and one event), no callback.
//   2. P3: the same with one callback on WORKPLACE_OPERATING_STATE_CHANGED; then wait until every
//      change is delivered. The service's RSS is sampled every second meanwhile (P8).
//   3. P3 base again (callback deleted): the two baselines bracket P3 against drift.
//   4. P4: raw undici request() POSTs to the receiver (same Agent settings as the HTTP transport);
//      then 100 callbacks on /p4/<i> and events posted one after another, keeping P4_WINDOW events
//      not yet fully delivered; then raw POSTs again. Ratio = deliveries/s / mean raw POSTs/s.
// Rates count what happened inside the measured window (after WARMUP s); latency = receipt time
// at the receiver - the event's timestamp (both this machine's clock).
//
// Settings (environment):
//   BENCH_DURATION (s, 15), BENCH_WARMUP (s, 3), BENCH_CONCURRENCY (20), BENCH_WORKPLACES (50)
//   BENCH_P4_DURATION (s, 10), BENCH_P4_CALLBACKS (100), BENCH_P4_WINDOW (1), BENCH_P4_CONNECTIONS (16)
//   BENCH_P8_MINUTES (0): minutes of the P3 load with 1 callback after P4, RSS every 10 s and its trend
//   BENCH_BACKENDS ("postgres,pglite"), BENCH_LOG_LEVEL (service log level, "warn")
//   BENCH_ADMIN_URL     PostgreSQL to create the benchmark database in
//   BENCH_CPU_PROF      "1": .cpuprofile of the service children in .tmp/bench-profiles/
// The service's own settings pass through: e.g. BRIDGE_DELIVERY_PER_CALLBACK=200 npm run bench:delivery
import { loadavg } from 'node:os';
import { Agent, Pool, request } from 'undici';
import type { Report } from './deliveryReceiver.ts';
import { drain as drainGroup, Receiver } from './receiverProcess.ts';
import { readRss, revision, type Service, sampleRss, startService } from './service.ts';
import {
  type Backend,
  inWindow,
  largest,
  machineInfo,
  ms,
  percentile,
  rate,
  seedDatabase,
  textTable,
  type Window,
  windowAfter,
  writeResults,
} from './support.ts';

const env = process.env;
const DURATION_S = Number(env.BENCH_DURATION ?? 15);
const WARMUP_S = Number(env.BENCH_WARMUP ?? 3);
const CONCURRENCY = Number(env.BENCH_CONCURRENCY ?? 20);
const WORKPLACES = Number(env.BENCH_WORKPLACES ?? 50);
const P4_DURATION_S = Number(env.BENCH_P4_DURATION ?? 10);
/** P8 over time: minutes of the P3 load with one callback, RSS every 10 s (0: not run). */
const P8_MINUTES = Number(env.BENCH_P8_MINUTES ?? 0);
const P4_CALLBACKS = Number(env.BENCH_P4_CALLBACKS ?? 100);
const P4_WINDOW = Number(env.BENCH_P4_WINDOW ?? 1);
const P4_CONNECTIONS = Number(env.BENCH_P4_CONNECTIONS ?? 16); // the HTTP transport's Agent
const BACKENDS = (env.BENCH_BACKENDS ?? 'postgres,pglite').split(',') as Backend[];
const LOG_LEVEL = env.BENCH_LOG_LEVEL ?? 'warn';
const PROFILE_DIR =
  env.BENCH_CPU_PROF === '1' ? new URL('../.tmp/bench-profiles/', import.meta.url) : undefined;
const RESULTS_FILE = new URL('./results/delivery-latest.json', import.meta.url);
const EVENT_TYPE = 'WORKPLACE_OPERATING_STATE_CHANGED';
/** How long deliveries may make no progress after the load before a run gives up waiting. */
const STALL_MS = 30_000;

const drain = (receiver: Receiver, group: string, expected: number) =>
  drainGroup(receiver, group, expected, STALL_MS);

const TARGETS = { p3Rate: 1000, p3P99Ms: 100, p4Ratio: 0.5, p8RssMiB: 300 };

const windowFor = (seconds: number) => windowAfter(WARMUP_S, seconds);

/** The last state set per workplace ('999' as seeded); the next change flips 110 <-> 000. */
const states = new Map<string, string>();
const nextState = (workplaceId: string) => (states.get(workplaceId) === '110' ? '000' : '110');

interface ChangeRun extends Window {
  /** 200 answers over the whole run, warm-up included: the events created. */
  accepted: number;
  errors: number;
  changesPerS: number;
  p50Ms: number;
  p99Ms: number;
}

/** Operating-state changes from CONCURRENCY loops for WARMUP + DURATION s. */
async function changeLoad(
  service: Service,
  workplaceIds: string[],
  durationS = DURATION_S,
): Promise<ChangeRun> {
  const pool = new Pool(service.url, { connections: CONCURRENCY });
  const headers = { authorization: `Bearer ${service.token}` };
  const window = windowFor(durationS);
  const latencies: number[] = [];
  let accepted = 0;
  let errors = 0;
  const loop = async (k: number) => {
    // Loop k alone changes its workplaces: no two requests for one workplace are ever in flight.
    const mine = workplaceIds.filter((_, i) => i % CONCURRENCY === k);
    for (let i = 0; Date.now() < window.to; i += 1) {
      const id = mine[i % mine.length] as string;
      const state = nextState(id);
      const started = performance.now();
      try {
        const path = `/api/v2/workplaces/${id}/operatingState/${state}`;
        const { statusCode, body } = await pool.request({ path, method: 'POST', headers });
        await body.dump();
        if (statusCode !== 200) throw new Error(`HTTP ${statusCode}`);
        states.set(id, state);
        accepted += 1;
        if (inWindow(Date.now(), window)) latencies.push(performance.now() - started);
      } catch (error) {
        if (errors === 0) console.log(`  first error: ${(error as Error).message}`);
        errors += 1;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, (_, k) => loop(k)));
  await pool.close();
  return {
    ...window,
    accepted,
    errors,
    changesPerS: latencies.length / durationS,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
  };
}

/** POST one operating-state change (the next workplace in turn). */
async function changeOnce(service: Service, workplaceIds: string[], turn: number): Promise<void> {
  const id = workplaceIds[turn % workplaceIds.length] as string;
  const state = nextState(id);
  const { statusCode, body } = await request(
    `${service.url}/api/v2/workplaces/${id}/operatingState/${state}`,
    {
      method: 'POST',
      headers: { authorization: `Bearer ${service.token}` },
    },
  );
  await body.dump();
  if (statusCode !== 200) throw new Error(`change answered ${statusCode}`);
  states.set(id, state);
}

async function createCallback(service: Service, url: string): Promise<string> {
  const answer = await fetch(`${service.url}/api/v2/callbacks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${service.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ eventType: EVENT_TYPE, url }),
  });
  if (answer.status !== 201 && answer.status !== 200) {
    throw new Error(`callback not created: ${answer.status} ${await answer.text()}`);
  }
  return ((await answer.json()) as { properties: { id: string } }).properties.id;
}

/**
 * Deletes callbacks; returns their failed attempts and discarded notifications (those dropped
 * past maxUnconfirmedMessages, default 5000, when the backlog grows: why some never arrive).
 */
async function deleteCallbacks(service: Service, ids: string[]) {
  const totals = { failedAttempts: 0, discardedNotifications: 0 };
  const headers = { authorization: `Bearer ${service.token}` };
  for (const id of ids) {
    const url = `${service.url}/api/v2/callbacks/${id}`;
    const { properties } = (await (await fetch(url, { headers })).json()) as { properties: typeof totals };
    totals.failedAttempts += properties.failedAttempts;
    totals.discardedNotifications += properties.discardedNotifications;
    const answer = await fetch(url, { method: 'DELETE', headers });
    if (answer.status !== 204) throw new Error(`callback not deleted: ${answer.status}`);
  }
  return totals;
}

/** Delivery figures of a group, for events created inside the window. */
function deliveries(report: Report, window: Window, expectedEvents: number, perEvent: number) {
  const events = Object.values(report.events);
  const delivered = events.reduce((sum, [, , , n]) => sum + n, 0);
  // First receipt for one callback (P3); last receipt of the event's fan-out for many (P4).
  const latencies = events
    .filter(([eventAt]) => inWindow(eventAt, window))
    .map(([eventAt, first, last]) => (perEvent === 1 ? first : last) - eventAt);
  return {
    deliveriesPerS:
      (report.receipts.filter((time) => inWindow(time, window)).length / (window.to - window.from)) * 1000,
    expected: expectedEvents * perEvent,
    delivered,
    duplicates: report.duplicates,
    allDelivered: delivered === expectedEvents * perEvent && events.length === expectedEvents,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    maxMs: largest(latencies),
    /** Time from the end of the load to the last receipt: the backlog left. */
    drainMs: Math.max(0, largest(report.receipts) - window.to),
  };
}

/** Raw undici request() POSTs of a real delivery (body and headers) to the receiver's /raw. */
async function rawPosts(receiver: Receiver, sample: NonNullable<Report['sample']>): Promise<number> {
  const agent = new Agent({ keepAliveTimeout: 30_000, connections: P4_CONNECTIONS });
  const { host: _, connection: __, 'content-length': ___, ...headers } = sample.headers;
  const window = windowFor(P4_DURATION_S);
  let count = 0;
  const loop = async () => {
    while (Date.now() < window.to) {
      const response = await request(`${receiver.url}/raw`, {
        method: 'POST',
        dispatcher: agent,
        headers,
        body: sample.body,
      });
      await response.body.dump();
      if (response.statusCode !== 200) throw new Error(`receiver answered ${response.statusCode}`);
      if (inWindow(Date.now(), window)) count += 1;
    }
  };
  await Promise.all(Array.from({ length: P4_CONNECTIONS }, loop));
  await agent.close();
  receiver.send({ type: 'reset' });
  return count / P4_DURATION_S;
}

/** P4 load: events one after another, at most P4_WINDOW of them not yet received by every callback. */
async function fanOutLoad(service: Service, receiver: Receiver, workplaceIds: string[]) {
  const window = windowFor(P4_DURATION_S);
  let outstanding = 0;
  let wake = () => {};
  receiver.onComplete = () => {
    outstanding -= 1;
    wake();
  };
  let posted = 0;
  while (Date.now() < window.to) {
    if (outstanding >= P4_WINDOW) {
      const completed = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => resolve(false), STALL_MS);
        wake = () => {
          clearTimeout(timer);
          resolve(true);
        };
      });
      if (!completed) break; // drain() below says how many are missing
      continue;
    }
    outstanding += 1; // before the POST: the fan-out may complete before the answer arrives
    await changeOnce(service, workplaceIds, posted);
    posted += 1;
  }
  await drain(receiver, 'p4', posted * P4_CALLBACKS);
  return { window, posted, report: await receiver.report('p4') };
}

async function benchBackend(backend: Backend, receiver: Receiver) {
  console.log(`\n[${backend}] seeding ${WORKPLACES} workplaces...`);
  const seeded = await seedDatabase(backend, 'delivery', WORKPLACES);
  const ids = seeded.workplaceIds;
  try {
    const service = await startService(backend, seeded.target, {
      logLevel: LOG_LEVEL,
      profileDir: PROFILE_DIR,
    });
    const rssAtStart = readRss(service.pid);
    try {
      const log = (what: string, run: ChangeRun) =>
        console.log(
          `[${backend}] ${what.padEnd(16)} ${run.changesPerS.toFixed(0).padStart(6)} changes/s  ` +
            `p50 ${run.p50Ms.toFixed(1)} ms  p99 ${run.p99Ms.toFixed(1)} ms  errors ${run.errors}`,
        );
      const base1 = await changeLoad(service, ids);
      log('P3 no callback', base1);

      const callbackId = await createCallback(service, `${receiver.url}/p3`);
      receiver.send({ type: 'reset' });
      const rss = sampleRss(service.pid, { sampleS: 1, warmupS: 0 });
      const p3 = await changeLoad(service, ids);
      await drain(receiver, 'p3', p3.accepted);
      const memory = rss.stop();
      const p3Report = await receiver.report('p3');
      const p3Delivery = {
        ...deliveries(p3Report, p3, p3.accepted, 1),
        ...(await deleteCallbacks(service, [callbackId])),
      };
      log('P3 1 callback', p3);

      const base2 = await changeLoad(service, ids);
      log('P3 no callback', base2);

      const sample = p3Report.sample;
      if (!sample) throw new Error('no delivery received in P3');
      const raw1 = await rawPosts(receiver, sample);
      console.log(`[${backend}] P4 raw undici     ${raw1.toFixed(0).padStart(6)} POST/s`);
      const p4Callbacks: string[] = [];
      for (let i = 0; i < P4_CALLBACKS; i += 1)
        p4Callbacks.push(await createCallback(service, `${receiver.url}/p4/${i}`));
      receiver.send({ type: 'expect', group: 'p4', deliveries: P4_CALLBACKS });
      const p4 = await fanOutLoad(service, receiver, ids);
      const p4Delivery = {
        ...deliveries(p4.report, p4.window, p4.posted, P4_CALLBACKS),
        ...(await deleteCallbacks(service, p4Callbacks)),
      };
      console.log(
        `[${backend}] P4 ${P4_CALLBACKS} callbacks ${p4Delivery.deliveriesPerS.toFixed(0).padStart(6)} deliveries/s`,
      );
      receiver.send({ type: 'reset' });
      const raw2 = await rawPosts(receiver, sample);
      console.log(`[${backend}] P4 raw undici     ${raw2.toFixed(0).padStart(6)} POST/s`);

      const rawMean = (raw1 + raw2) / 2;
      const baseMean = (base1.changesPerS + base2.changesPerS) / 2;
      return {
        backend,
        p3: {
          baselines: [base1, base2],
          withCallback: p3,
          delivery: p3Delivery,
          ratioToBaseline: p3.changesPerS / baseMean,
        },
        p4: {
          rawPostsPerS: [raw1, raw2],
          posted: p4.posted,
          delivery: p4Delivery,
          ratio: p4Delivery.deliveriesPerS / rawMean,
        },
        rss: {
          atStart: rssAtStart,
          first: memory.first,
          last: memory.last,
          max: memory.maxMiB,
          samples: memory.samples.map((sample) => sample.rssMiB),
        },
        p8: P8_MINUTES > 0 ? await memoryOverTime(backend, service, receiver, ids) : undefined,
      };
    } finally {
      await service.stop();
    }
  } finally {
    await seeded.drop();
  }
}

/**
 * P8 over time: the P3 load with one callback for P8_MINUTES, RSS every 10 s; the trend leaves
 * out the first minute (start-up and the heap growing to its working size).
 */
async function memoryOverTime(backend: Backend, service: Service, receiver: Receiver, ids: string[]) {
  console.log(`[${backend}] P8 ${P8_MINUTES} min of the P3 load with 1 callback...`);
  const callbackId = await createCallback(service, `${receiver.url}/p8`);
  receiver.send({ type: 'reset' });
  const rss = sampleRss(service.pid, { sampleS: 10, warmupS: 60 });
  const run = await changeLoad(service, ids, P8_MINUTES * 60);
  const memory = rss.stop();
  await drain(receiver, 'p8', run.accepted);
  const delivery = {
    ...deliveries(await receiver.report('p8'), run, run.accepted, 1),
    ...(await deleteCallbacks(service, [callbackId])),
  };
  return { minutes: P8_MINUTES, changesPerS: run.changesPerS, delivery, rss: memory };
}

type Result = Awaited<ReturnType<typeof benchBackend>>;

const verdict = (binding: boolean, met: boolean) => (binding ? (met ? 'MET' : 'NOT MET') : 'info only');

/** The table: [title, width] per column; a negative width aligns left. */
const COLUMNS: [string, number][] = [
  ['backend', -8],
  ['run', -20],
  ['changes/s', 9],
  ['deliveries/s', 12],
  ['delivered', -13],
  ['p50 ms', 7],
  ['p99 ms', 7],
  ['drain ms', 8],
];
const table = textTable(COLUMNS);

function report(results: Result[]) {
  console.log(`\n${table.header()}`);
  for (const r of results) {
    const [base1, base2] = r.p3.baselines as [ChangeRun, ChangeRun];
    const [raw1, raw2] = r.p4.rawPostsPerS as [number, number];
    const { delivery: d3, withCallback: p3 } = r.p3;
    const d4 = r.p4.delivery;
    const base = (run: ChangeRun) => [
      r.backend,
      'P3 no callback (API)',
      rate(run.changesPerS),
      '',
      '',
      ms(run.p50Ms),
      ms(run.p99Ms),
    ];
    const raw = (postsPerS: number) => [r.backend, 'P4 raw undici POST', '', rate(postsPerS)];
    const rows = [
      base(base1),
      [
        r.backend,
        'P3 1 callback',
        rate(p3.changesPerS),
        rate(d3.deliveriesPerS),
        `${d3.delivered}/${d3.expected}`,
        ms(d3.p50Ms),
        ms(d3.p99Ms),
        d3.drainMs.toFixed(0),
      ],
      base(base2),
      raw(raw1),
      [
        r.backend,
        `P4 ${P4_CALLBACKS} callbacks`,
        '',
        rate(d4.deliveriesPerS),
        `${d4.delivered}/${d4.expected}`,
        ms(d4.p50Ms),
        ms(d4.p99Ms),
        d4.drainMs.toFixed(0),
      ],
      raw(raw2),
    ];
    for (const row of rows) console.log(table.row(row));
  }
  console.log(
    '(latency: API answer without callback; change -> receipt in P3; event -> last of its 100 receipts in P4)\n',
  );
  const lines = results.flatMap((r) => {
    const binding = r.backend === 'postgres'; // the targets hold on PostgreSQL
    const d3 = r.p3.delivery;
    const p3Met =
      r.p3.withCallback.changesPerS >= TARGETS.p3Rate && d3.allDelivered && d3.p99Ms < TARGETS.p3P99Ms;
    return [
      `P3 ${r.backend.padEnd(8)} ${r.p3.withCallback.changesPerS.toFixed(0)} changes/s with 1 callback, ` +
        `${d3.allDelivered ? 'every one delivered' : `DELIVERED ${d3.delivered} of ${d3.expected}`} ` +
        `(duplicates ${d3.duplicates}, discarded ${d3.discardedNotifications}), ` +
        `p99 change->receipt ${d3.p99Ms.toFixed(1)} ms; ${r.p3.ratioToBaseline.toFixed(2)} x no callback ` +
        `(target >= ${TARGETS.p3Rate}/s, all, p99 < ${TARGETS.p3P99Ms} ms: ${verdict(binding, p3Met)})`,
      `P4 ${r.backend.padEnd(8)} fan-out to ${P4_CALLBACKS} / raw undici POST = ${r.p4.ratio.toFixed(2)} ` +
        `(target >= ${TARGETS.p4Ratio}: ${verdict(binding, r.p4.ratio >= TARGETS.p4Ratio && r.p4.delivery.allDelivered)})`,
      `P8 ${r.backend.padEnd(8)} service RSS under P3 max ${r.rss.max} MiB (first ${r.rss.first}, last ${r.rss.last}; ` +
        `${r.rss.atStart} after start) ` +
        `(target <= ${TARGETS.p8RssMiB} MiB: ${verdict(binding, r.rss.max <= TARGETS.p8RssMiB)}; ${
          r.p8 === undefined
            ? 'flatness over 10 min not measured'
            : `over ${r.p8.minutes} min at ${rate(r.p8.changesPerS)} changes/s: max ${r.p8.rss.maxMiB} MiB, mean ${r.p8.rss.meanMiB}, trend ${r.p8.rss.slopeMiBPer10Min} MiB per 10 min, ${r.p8.rss.flat ? 'flat' : 'growing'}, ${r.p8.delivery.delivered} of ${r.p8.delivery.expected} delivered`
        })`,
    ];
  });
  for (const line of lines) console.log(line);
  return lines;
}

async function main(): Promise<void> {
  if (WORKPLACES < CONCURRENCY) throw new Error('BENCH_WORKPLACES must be at least BENCH_CONCURRENCY');
  const loadBefore = loadavg();
  const code = revision();
  console.log(
    `commit ${code.commit}${code.srcModified ? ` with src/ modified (diff ${code.srcDiffSha1})` : ''}`,
  );
  const receiver = await Receiver.start();
  const results: Result[] = [];
  try {
    for (const backend of BACKENDS) {
      states.clear();
      results.push(await benchBackend(backend, receiver));
    }
  } finally {
    receiver.stop();
  }
  const verdicts = report(results);
  const settings = {
    durationS: DURATION_S,
    warmupS: WARMUP_S,
    concurrency: CONCURRENCY,
    workplaces: WORKPLACES,
    p4DurationS: P4_DURATION_S,
    p4Callbacks: P4_CALLBACKS,
    p4Window: P4_WINDOW,
    p4Connections: P4_CONNECTIONS,
    serviceLogLevel: LOG_LEVEL,
  };
  const document = {
    date: new Date().toISOString(),
    code,
    machine: machineInfo(loadBefore),
    settings,
    targets: TARGETS,
    results,
    verdicts,
  };
  writeResults(RESULTS_FILE, document);
}

await main();
