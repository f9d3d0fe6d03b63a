// P5 MQTT delivery benchmark (docs/quality.md): `npm run bench:mqtt`.
//
// A Mosquitto of its own on a free port (BENCH_MQTT_URL names another broker instead): with no
// limit on the messages queued for a client, so a subscriber that falls behind (this machine has
// two cores for everything) gets every message late rather than some never; Mosquitto's default
// of 1,000 dropped deliveries the service had been acknowledged for. The subscriber is bench/mqttSubscriber.ts (an
// mqtt.js client, MQTT 5, QoS 1) in a child process on `external/bench-mqtt-<pid>/#`, started
// through bench/receiverProcess.ts; the load and the raw publisher run in this process. Per
// backend (PostgreSQL binding, PGlite for information), on a fresh database seeded with
// WORKPLACES workplaces (bench/support.ts), the service as `bridge start` in a child process:
//   1. One MQTT callback (`mqtt://127.0.0.1:1883/external/bench-mqtt-<pid>/p5`, on EVENT_TYPE,
//      maxUnconfirmedMessages 100,000 so the queue bound discards nothing) and a first event from
//      each loop: a delivery is the sample the raw publisher replays (body and user properties),
//      and the callback's first send (a probe, one in flight) is behind it.
//   2. Raw before: mqtt.js QoS 1 publishes of the sample to <prefix>/raw from one connection,
//      WINDOW publishes in flight (each PUBACK starts the next), WARMUP + RAW_DURATION s; rate =
//      PUBACKs/s in the measured window; the subscriber counts what it received. WINDOW = the
//      service's in-flight window for one callback (min of BRIDGE_DELIVERY_PER_CALLBACK and
//      BRIDGE_DELIVERY_MAX_IN_FLIGHT as the children get them), then RAW_WIDE (500).
//   3. Live: events from CONCURRENCY loops for WARMUP + DURATION s, delivered as they come; then
//      wait until every one has arrived. Latency = receipt - the event's timestamp.
//   4. Backlog: the service restarted with BRIDGE_DELIVERY_ENABLED=false takes EVENTS events
//      (nothing delivered, nothing fanned out), then restarted with delivery on: the backlog
//      drains. Rate = distinct deliveries / (last receipt - first receipt): P5's figure.
//   5. Raw after. Ratio = backlog deliveries/s / mean of the two raw rates at WINDOW (sliding).
// Events: operating-state changes (BENCH_SOURCE=state: each loop alternates its own workplaces
// 110/000) or published EXTERNAL events (BENCH_SOURCE=external, the default: the API takes them
// faster, so the live run loads delivery harder).
//
// Settings (environment):
//   BENCH_SOURCE ("external"), BENCH_EVENTS (backlog, 40000), BENCH_DURATION (live, s, 10),
//   BENCH_WARMUP (s, 2), BENCH_RAW_DURATION (s, 5), BENCH_RAW_WIDE (500), BENCH_CONCURRENCY (20),
//   BENCH_WORKPLACES (50), BENCH_BACKENDS ("postgres,pglite"),
//   BENCH_MQTT_URL (a broker to use instead of its own), BENCH_LOG_LEVEL ("warn"), BENCH_ADMIN_URL,
//   BENCH_CPU_PROF ("1": .cpuprofile of the service children in .tmp/bench-profiles/).
// The service's own settings pass through: BRIDGE_DELIVERY_PER_CALLBACK=500 npm run bench:mqtt
// Results: printed (ratio and verdict last) and bench/results/mqtt-latest.json.
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import mqtt from 'mqtt';
import { Pool } from 'undici';
import { loadConfig } from '../src/config.ts';
import { Mosquitto } from '../test/support/faults.ts';
import type { Report } from './deliveryReceiver.ts';
import { drain, Receiver } from './receiverProcess.ts';
import { revision, type Service, type StartOptions, startService } from './service.ts';
import {
  type Backend,
  inWindow,
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
const SOURCE = (env.BENCH_SOURCE ?? 'external') as 'external' | 'state';
// 40,000: a drain long enough for its steady rate to outweigh its start (a probe of one send,
// then the first reads); the raw rates are steady-state.
const EVENTS = Number(env.BENCH_EVENTS ?? 40_000);
const DURATION_S = Number(env.BENCH_DURATION ?? 10);
const WARMUP_S = Number(env.BENCH_WARMUP ?? 2);
const RAW_DURATION_S = Number(env.BENCH_RAW_DURATION ?? 5);
const RAW_WIDE = Number(env.BENCH_RAW_WIDE ?? 500);
const CONCURRENCY = Number(env.BENCH_CONCURRENCY ?? 20);
const WORKPLACES = Number(env.BENCH_WORKPLACES ?? 50);
const BACKENDS = (env.BENCH_BACKENDS ?? 'postgres,pglite').split(',') as Backend[];
/** Set in main(): BENCH_MQTT_URL, or the benchmark's own Mosquitto. */
let BROKER = env.BENCH_MQTT_URL ?? '';
const LOG_LEVEL = env.BENCH_LOG_LEVEL ?? 'warn';
const PROFILE_DIR =
  env.BENCH_CPU_PROF === '1' ? new URL('../.tmp/bench-profiles/', import.meta.url) : undefined;
const RESULTS_FILE = new URL('./results/mqtt-latest.json', import.meta.url);
const EVENT_TYPE = SOURCE === 'external' ? 'EXTERNAL' : 'WORKPLACE_OPERATING_STATE_CHANGED';
const PREFIX = `external/bench-mqtt-${process.pid}`;
const GROUP = 'p5';
const STALL_MS = 30_000;
const TARGET_RATIO = 0.5;
/** The service's in-flight window for one callback, from the settings its children get. */
const SERVICE = loadConfig(env).delivery;
const WINDOW = Math.min(SERVICE.perCallback, SERVICE.maxInFlight);

const windowFor = (seconds: number) => windowAfter(WARMUP_S, seconds);

/** Until `count` stops changing for `quietMs` (the subscriber has what the broker will send). */
async function settled(count: () => Promise<number>, quietMs = 500): Promise<void> {
  let last = -1;
  for (let since = Date.now(); Date.now() - since < quietMs; await sleep(50)) {
    const now = await count();
    if (now !== last) [last, since] = [now, Date.now()];
  }
}

/**
 * Raw mqtt.js: QoS 1 publishes of the sample delivery on one connection, `window` in flight, each
 * PUBACK starting the next; the subscriber counts what it received.
 */
async function rawRate(subscriber: Receiver, sample: NonNullable<Report['sample']>, window: number) {
  subscriber.send({ type: 'reset' });
  const client = await mqtt.connectAsync(BROKER, { protocolVersion: 5 });
  const topic = `${PREFIX}/raw`;
  // As the transport publishes (src/delivery/mqttTransport.ts): the extras as user properties.
  const options = {
    qos: 1 as const,
    properties: { contentType: 'application/json', userProperties: sample.headers },
  };
  const measured = windowFor(RAW_DURATION_S);
  let acked = 0;
  const loop = async () => {
    while (Date.now() < measured.to) {
      await client.publishAsync(topic, sample.body, options);
      if (inWindow(Date.now(), measured)) acked += 1;
    }
  };
  await Promise.all(Array.from({ length: window }, loop));
  await client.endAsync();
  await settled(async () => (await subscriber.count('raw')).requests);
  const report = await subscriber.report('raw');
  const result = {
    window,
    pubackedPerS: acked / RAW_DURATION_S,
    receivedPerS: report.receipts.filter((time) => inWindow(time, measured)).length / RAW_DURATION_S,
    received: report.requests,
  };
  console.log(
    `  raw mqtt.js window ${String(window).padStart(4)}  ${result.pubackedPerS.toFixed(0).padStart(6)} PUBACKed/s` +
      `  ${result.receivedPerS.toFixed(0).padStart(6)} received/s`,
  );
  return result;
}

/** The windows of the raw runs before and after the service: the service's, then RAW_WIDE. */
const RAW_WINDOWS = [...new Set([WINDOW, RAW_WIDE])];
const rawRuns = async (subscriber: Receiver, sample: NonNullable<Report['sample']>) => {
  const runs: Raw[] = [];
  for (const window of RAW_WINDOWS) runs.push(await rawRate(subscriber, sample, window));
  return runs;
};

type Raw = Awaited<ReturnType<typeof rawRate>>;

/** The last state set per workplace ('999' as seeded); the next change flips 110 <-> 000. */
const states = new Map<string, string>();

/**
 * Events from CONCURRENCY loops until `done()`: published EXTERNAL events, or operating-state
 * changes (loop k alone changes its workplaces: every 200 answer is one change, one event).
 */
async function produce(service: Service, workplaceIds: string[], done: (accepted: number) => boolean) {
  const pool = new Pool(service.url, { connections: CONCURRENCY });
  const headers = { authorization: `Bearer ${service.token}`, 'content-type': 'application/json' };
  let accepted = 0;
  let errors = 0;
  const loop = async (k: number) => {
    const mine = workplaceIds.filter((_, i) => i % CONCURRENCY === k);
    for (let i = 0; !done(accepted); i += 1) {
      const id = mine[i % mine.length] as string;
      const state = states.get(id) === '110' ? '000' : '110';
      try {
        const { statusCode, body } = await pool.request(
          SOURCE === 'external'
            ? {
                path: '/api/v2/events',
                method: 'POST',
                headers,
                body: JSON.stringify({
                  eventType: 'EXTERNAL',
                  objectType: 'WORKPLACE',
                  objectId: id,
                  eventName: 'bench',
                  data: { workplaceId: id, n: i },
                }),
              }
            : { path: `/api/v2/workplaces/${id}/operatingState/${state}`, method: 'POST', headers },
        );
        await body.dump();
        if (statusCode !== 200 && statusCode !== 201) throw new Error(`HTTP ${statusCode}`);
        if (SOURCE === 'state') states.set(id, state);
        accepted += 1;
      } catch (error) {
        if (errors === 0) console.log(`  first error: ${(error as Error).message}`);
        errors += 1;
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, (_, k) => loop(k)));
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  return { accepted, errors, seconds, perS: accepted / seconds };
}

async function createCallback(service: Service): Promise<string> {
  const answer = await fetch(`${service.url}/api/v2/callbacks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${service.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      eventType: EVENT_TYPE,
      url: `${BROKER}/${PREFIX}/${GROUP}`,
      maxUnconfirmedMessages: 100_000,
    }),
  });
  if (answer.status !== 201) throw new Error(`callback not created: ${answer.status} ${await answer.text()}`);
  return ((await answer.json()) as { properties: { id: string } }).properties.id;
}

/** The callback's failed attempts and discarded notifications so far. */
async function callbackCounts(service: Service, id: string) {
  const answer = await fetch(`${service.url}/api/v2/callbacks/${id}`, {
    headers: { authorization: `Bearer ${service.token}` },
  });
  const { properties } = (await answer.json()) as {
    properties: { failedAttempts: number; discardedNotifications: number };
  };
  return { failedAttempts: properties.failedAttempts, discarded: properties.discardedNotifications };
}

/** Distinct deliveries of a report: count, duplicates, latency of the events in `window`. */
function deliveries(report: Report, expected: number, window?: Window) {
  const events = Object.values(report.events);
  const measured = window ? events.filter(([eventAt]) => inWindow(eventAt, window)) : events;
  const latencies = measured.map(([eventAt, first]) => first - eventAt);
  const firsts = events.map(([, first]) => first);
  return {
    expected,
    delivered: events.length,
    duplicates: report.duplicates,
    allDelivered: events.length === expected,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    maxMs: Math.max(...latencies),
    firstAt: Math.min(...firsts),
    lastAt: Math.max(...firsts),
  };
}

/** Distinct deliveries per second of wall time, second by second from the first receipt. */
function perSecond(report: Report): number[] {
  const firsts = Object.values(report.events).map(([, first]) => first);
  const start = Math.min(...firsts);
  const counts: number[] = [];
  for (const time of firsts) {
    const second = Math.floor((time - start) / 1000);
    counts[second] = (counts[second] ?? 0) + 1;
  }
  return Array.from(counts, (count) => count ?? 0);
}

async function benchBackend(backend: Backend, subscriber: Receiver) {
  console.log(`\n[${backend}] seeding ${WORKPLACES} workplaces...`);
  const seeded = await seedDatabase(backend, 'mqtt', WORKPLACES);
  const ids = seeded.workplaceIds;
  // The service takes MQTT callbacks on one port (BRIDGE_CALLBACK_MQTT_PORT): the broker's.
  const port = new URL(BROKER).port || '1883';
  const start = (options: StartOptions = {}) =>
    startService(backend, seeded.target, {
      logLevel: LOG_LEVEL,
      profileDir: PROFILE_DIR,
      ...options,
      env: { BRIDGE_CALLBACK_MQTT_PORT: port, ...options.env },
    });
  try {
    // 1. The callback and its first delivery (the sample).
    let service = await start();
    let callbackId: string;
    let sample: NonNullable<Report['sample']>;
    let live: Awaited<ReturnType<typeof produce>>;
    let liveDelivery: ReturnType<typeof deliveries> & { deliveriesPerS: number; drainMs: number };
    let rawBefore: Raw[] = [];
    try {
      callbackId = await createCallback(service);
      subscriber.send({ type: 'reset' });
      const warm = await produce(service, ids, (accepted) => accepted >= 1); // one per loop
      await drain(subscriber, GROUP, warm.accepted, STALL_MS);
      const first = await subscriber.report(GROUP);
      if (!first.sample) throw new Error('the first event was not delivered');
      sample = first.sample;
      console.log(`[${backend}] delivery body ${Buffer.byteLength(sample.body)} bytes`);

      // 2. Raw before.
      rawBefore = await rawRuns(subscriber, sample);

      // 3. Live: events as fast as the API takes them, delivered as they come.
      subscriber.send({ type: 'reset' });
      const window = windowFor(DURATION_S);
      live = await produce(service, ids, () => Date.now() >= window.to);
      await drain(subscriber, GROUP, live.accepted, STALL_MS);
      const report = await subscriber.report(GROUP);
      const measured = deliveries(report, live.accepted, window);
      liveDelivery = {
        ...measured,
        deliveriesPerS: report.receipts.filter((time) => inWindow(time, window)).length / DURATION_S,
        drainMs: Math.max(0, measured.lastAt - window.to),
      };
      console.log(
        `[${backend}] live      ${(live.accepted / live.seconds).toFixed(0).padStart(6)} events/s  ` +
          `${liveDelivery.deliveriesPerS.toFixed(0).padStart(6)} deliveries/s  ` +
          `p50 ${liveDelivery.p50Ms.toFixed(1)} ms  p99 ${liveDelivery.p99Ms.toFixed(1)} ms  ` +
          `${liveDelivery.delivered}/${liveDelivery.expected}`,
      );
    } finally {
      await service.stop();
    }

    // 4. Backlog: EVENTS events with delivery off, then a service that delivers them.
    service = await start({ env: { BRIDGE_DELIVERY_ENABLED: 'false' } });
    let written: Awaited<ReturnType<typeof produce>>;
    try {
      written = await produce(service, ids, (accepted) => accepted >= EVENTS);
    } finally {
      await service.stop();
    }
    console.log(`[${backend}] backlog of ${written.accepted} events written at ${written.perS.toFixed(0)}/s`);
    subscriber.send({ type: 'reset' });
    const startedAt = Date.now();
    service = await start();
    let backlog: ReturnType<typeof deliveries> & {
      deliveriesPerS: number;
      /** From launching the service to its first delivery (start-up and the fan-out of the backlog). */
      firstReceiptMs: number;
      perSecond: number[];
      failedAttempts: number;
      discarded: number;
    };
    let rawAfter: Raw[] = [];
    try {
      await drain(subscriber, GROUP, written.accepted, STALL_MS);
      const report = await subscriber.report(GROUP);
      const measured = deliveries(report, written.accepted);
      backlog = {
        ...measured,
        deliveriesPerS: ((measured.delivered - 1) / (measured.lastAt - measured.firstAt)) * 1000,
        firstReceiptMs: measured.firstAt - startedAt,
        perSecond: perSecond(report),
        ...(await callbackCounts(service, callbackId)),
      };
      console.log(
        `[${backend}] backlog   ${backlog.deliveriesPerS.toFixed(0).padStart(6)} deliveries/s  ` +
          `${backlog.delivered}/${backlog.expected} in ${((backlog.lastAt - backlog.firstAt) / 1000).toFixed(1)} s ` +
          `(first receipt ${backlog.firstReceiptMs} ms after the service was launched)`,
      );
      // 5. Raw after (the service idle, as before).
      rawAfter = await rawRuns(subscriber, sample);
    } finally {
      await service.stop();
    }
    const rawMean = (window: number) =>
      [...rawBefore, ...rawAfter]
        .filter((raw) => raw.window === window)
        .reduce((sum, raw, _, all) => sum + raw.pubackedPerS / all.length, 0);
    const ratio = backlog.deliveriesPerS / rawMean(WINDOW);
    return {
      backend,
      bodyBytes: Buffer.byteLength(sample.body),
      raw: { before: rawBefore, after: rawAfter },
      live: { events: live, delivery: liveDelivery },
      backlog: { written, delivery: backlog },
      ratio,
      binding: backend === 'postgres', // the target holds on PostgreSQL
      met: ratio >= TARGET_RATIO && backlog.allDelivered && liveDelivery.allDelivered,
      ratioToWide: backlog.deliveriesPerS / rawMean(RAW_WIDE),
    };
  } finally {
    await seeded.drop();
  }
}

type Result = Awaited<ReturnType<typeof benchBackend>>;

/** The table: [title, width] per column; a negative width aligns left. */
const COLUMNS: [string, number][] = [
  ['backend', -8],
  ['run', -25],
  ['window', 6],
  ['msgs/s', 7],
  ['received', -14],
  ['p50 ms', 7],
  ['p99 ms', 7],
  ['drain ms', 8],
];
const table = textTable(COLUMNS);

function report(results: Result[]) {
  console.log(`\n${table.header()}`);
  for (const r of results) {
    const raw = (when: string) => (run: Raw) => [
      r.backend,
      `raw mqtt.js ${when}`,
      String(run.window),
      rate(run.pubackedPerS),
      `${rate(run.receivedPerS)}/s`,
    ];
    const { live, backlog } = r;
    const rows = [
      ...r.raw.before.map(raw('before')),
      [
        r.backend,
        `service live (${rate(live.events.perS)} ev/s)`,
        String(WINDOW),
        rate(live.delivery.deliveriesPerS),
        `${live.delivery.delivered}/${live.delivery.expected}`,
        ms(live.delivery.p50Ms),
        ms(live.delivery.p99Ms),
        live.delivery.drainMs.toFixed(0),
      ],
      [
        r.backend,
        'service backlog',
        String(WINDOW),
        rate(backlog.delivery.deliveriesPerS),
        `${backlog.delivery.delivered}/${backlog.delivery.expected}`,
      ],
      ...r.raw.after.map(raw('after')),
    ];
    for (const row of rows) console.log(table.row(row));
  }
  console.log(
    `(raw: PUBACKs/s in the measured window, the subscriber's receipts beside; service: distinct deliveries/s; ` +
      `latency: event -> receipt in the live run)\n`,
  );
  const lines = results.map((r) => {
    const d = r.backlog.delivery;
    const raws = [...r.raw.before, ...r.raw.after].filter((raw) => raw.window === WINDOW);
    return (
      `P5 ${r.backend} MQTT delivery / raw mqtt.js = ${r.ratio.toFixed(2)} ` +
      `(${rate(d.deliveriesPerS)} deliveries/s of a ${r.backlog.written.accepted}-event backlog / ` +
      `${raws.map((raw) => rate(raw.pubackedPerS)).join(' and ')} PUBACKs/s at window ${WINDOW}; ` +
      `${r.ratioToWide.toFixed(2)} of raw at window ${RAW_WIDE}; ` +
      `${d.allDelivered && r.live.delivery.allDelivered ? 'every event delivered' : 'NOT every event delivered'}, ` +
      `live p99 event -> receipt ${ms(r.live.delivery.p99Ms)} ms) ` +
      `(target >= ${TARGET_RATIO}: ${r.binding ? (r.met ? 'MET' : 'NOT MET') : 'info only'})`
    );
  });
  for (const line of lines) console.log(line);
  return lines;
}

async function main(): Promise<void> {
  const loadBefore = loadavg();
  const code = revision();
  console.log(
    `commit ${code.commit}${code.srcModified ? ` with src/ modified (diff ${code.srcDiffSha1})` : ''}; ` +
      `${SOURCE} events, window ${WINDOW} (per callback ${SERVICE.perCallback}, instance ${SERVICE.maxInFlight})`,
  );
  const ownBroker = BROKER === '' ? await Mosquitto.start(['max_queued_messages 0']) : undefined;
  if (ownBroker) BROKER = `mqtt://127.0.0.1:${ownBroker.port}`;
  const subscriber = await Receiver.start(new URL('./mqttSubscriber.ts', import.meta.url), [BROKER, PREFIX]);
  const results: Result[] = [];
  try {
    for (const backend of BACKENDS) {
      states.clear();
      results.push(await benchBackend(backend, subscriber));
    }
  } finally {
    subscriber.stop();
    await ownBroker?.close();
  }
  const verdicts = report(results);
  writeResults(RESULTS_FILE, {
    date: new Date().toISOString(),
    code,
    machine: machineInfo(loadBefore),
    settings: {
      source: SOURCE,
      events: EVENTS,
      durationS: DURATION_S,
      warmupS: WARMUP_S,
      rawDurationS: RAW_DURATION_S,
      rawWindows: RAW_WINDOWS,
      concurrency: CONCURRENCY,
      workplaces: WORKPLACES,
      broker: ownBroker ? 'own Mosquitto, max_queued_messages 0' : BROKER,
      serviceLogLevel: LOG_LEVEL,
      delivery: {
        perCallback: SERVICE.perCallback,
        maxInFlight: SERVICE.maxInFlight,
        pollMs: SERVICE.pollMs,
      },
    },
    target: { ratio: TARGET_RATIO },
    results,
    verdicts,
  });
  // Last: the figure asked for, on PostgreSQL where the target binds.
  const binding = results.find((r) => r.binding);
  if (binding) {
    console.log(
      `\nP5 postgres MQTT delivery / raw mqtt.js = ${binding.ratio.toFixed(2)} (target >= ${TARGET_RATIO}: ${binding.met ? 'MET' : 'NOT MET'})`,
    );
  }
}

await main();
