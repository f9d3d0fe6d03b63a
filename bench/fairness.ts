// P6 and R9 isolation benchmark (docs/quality.md): `npm run bench:fairness`.
//
// A healthy callback's delivery latency (event write -> receipt at a real HTTP receiver) without
// and with STUCK receivers that take each delivery and never answer, against the same service in
// the same run. Ratio = median p99 with them / median p99 without (target <= 1.2).
//
// The service runs as `bridge start` in a child process with the delivery settings as shipped
// (1000 in flight, 100 per callback, 5 s timeout, 10 s retry) on a fresh seeded database. The
// healthy receiver is bench/deliveryReceiver.ts in a child process; the stuck receivers are
// node:http servers in this process that count the requests they hold and never answer. Load:
// operating-state changes at a fixed rate (open loop: one every 1000/RATE ms whatever the
// answers; the workplaces in turn), WARMUP + DURATION s per phase. One callback on
// WORKPLACE_OPERATING_STATE_CHANGED goes to the healthy receiver throughout; ROUNDS rounds of two
// phases, in turns first and second (the machine is shared: single runs vary a lot):
//   alone   only the healthy callback
//   stuck   STUCK more callbacks on the same events, one per stuck receiver (registered for the
//           phase, deleted after it)
// With BENCH_CONTROL=1 each round also has a control phase: STUCK callbacks to receivers that
// answer, the cost of fanning every event out STUCK + 1 times without a stuck receiver (on PGlite
// that is more deliveries than it keeps up with at the default rate).
// Each phase waits until every change has reached the healthy receiver (or none has for 30 s).
// Latency = first receipt - the event's timestamp, for events written in the measured window.
//
// Settings (environment): BENCH_BACKENDS ("postgres,pglite", one after the other; BENCH_BACKEND, one
// of them, as before), BENCH_RATE (changes/s,
// 20), BENCH_DURATION (s, 20), BENCH_WARMUP (s, 3), BENCH_ROUNDS (5), BENCH_STUCK (20),
// BENCH_WORKPLACES (50), BENCH_CONTROL ("0"), BENCH_LOG_LEVEL (service log level, "error"),
// BENCH_ADMIN_URL.
// Results: printed (ratio last) and bench/results/fairness-<backend>-latest.json.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import { drain, Receiver } from './receiverProcess.ts';
import { revision, type Service, startService } from './service.ts';
import {
  type Backend,
  inWindow,
  machineInfo,
  median,
  percentile,
  seedDatabase,
  windowAfter,
  writeResults,
} from './support.ts';

const env = process.env;
const BACKENDS = (env.BENCH_BACKENDS ?? env.BENCH_BACKEND ?? 'postgres,pglite').split(',') as Backend[];
const RATE = Number(env.BENCH_RATE ?? 20);
const DURATION_S = Number(env.BENCH_DURATION ?? 20);
const WARMUP_S = Number(env.BENCH_WARMUP ?? 3);
const ROUNDS = Number(env.BENCH_ROUNDS ?? 5);
const STUCK = Number(env.BENCH_STUCK ?? 20);
const WORKPLACES = Number(env.BENCH_WORKPLACES ?? 50);
const CONTROL = env.BENCH_CONTROL === '1';
// The stuck receivers' timeouts are expected: warnings would be one line per stuck callback.
const LOG_LEVEL = env.BENCH_LOG_LEVEL ?? 'error';
const resultsFile = (backend: Backend) =>
  new URL(`./results/fairness-${backend}-latest.json`, import.meta.url);
const EVENT_TYPE = 'WORKPLACE_OPERATING_STATE_CHANGED';
const GROUP = 'p6';
const STALL_MS = 30_000;
const TARGET_P99_RATIO = 1.2;

/**
 * Receivers that take a request and never answer. They count the requests they hold per path:
 * each phase's callbacks get a path of their own, since the sends of the previous phase's
 * (deleted) callbacks are still held until they time out.
 */
class StuckReceivers {
  readonly #servers: Server[] = [];
  readonly #held = new Map<string, number>();
  /** The most requests held at once for one callback. */
  maxHeld = 0;
  received = 0;

  static async start(count: number): Promise<StuckReceivers> {
    const receivers = new StuckReceivers();
    for (let index = 0; index < count; index += 1) {
      const server = createServer((request) => receivers.#hold(`${index} ${request.url}`, request));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      receivers.#servers.push(server);
    }
    return receivers;
  }

  #hold(key: string, request: IncomingMessage): void {
    this.received += 1;
    const held = (this.#held.get(key) ?? 0) + 1;
    this.#held.set(key, held);
    this.maxHeld = Math.max(this.maxHeld, held);
    request.resume();
    // Given up by the service: 'end' as soon as it closes its side ('close' comes a loop phase later).
    let given = false;
    const givenUp = () => {
      if (given) return;
      given = true;
      this.#held.set(key, (this.#held.get(key) ?? 1) - 1);
    };
    request.socket.once('end', givenUp).once('error', givenUp).once('close', givenUp);
  }

  urls(path: string): string[] {
    return this.#servers.map((server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`);
  }

  async stop(): Promise<void> {
    await Promise.all(
      this.#servers.map((server) => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        return closed;
      }),
    );
  }
}

/** The last state set per workplace ('999' as seeded); the next change flips 110 <-> 000. */
const states = new Map<string, string>();

/** Changes at RATE per second for WARMUP + DURATION s, each on the next workplace not busy. */
async function changeLoad(service: Service, workplaceIds: string[]) {
  const pool = new Pool(service.url, { connections: 16 });
  const headers = { authorization: `Bearer ${service.token}` };
  const window = windowAfter(WARMUP_S, DURATION_S);
  const busy = new Set<string>();
  const sent = new Set<Promise<void>>();
  let accepted = 0;
  let errors = 0;
  let skipped = 0;
  const change = async (id: string) => {
    const state = states.get(id) === '110' ? '000' : '110';
    try {
      const path = `/api/v2/workplaces/${id}/operatingState/${state}`;
      const { statusCode, body } = await pool.request({ path, method: 'POST', headers });
      await body.dump();
      if (statusCode !== 200) throw new Error(`HTTP ${statusCode}`);
      states.set(id, state);
      accepted += 1;
    } catch (error) {
      if (errors === 0) console.log(`  first error: ${(error as Error).message}`);
      errors += 1;
    }
  };
  const started = performance.now();
  for (let turn = 0; Date.now() < window.to; turn += 1) {
    const wait = started + (turn * 1000) / RATE - performance.now();
    if (wait > 0) await sleep(wait);
    const id = workplaceIds[turn % workplaceIds.length] as string;
    if (busy.has(id)) {
      skipped += 1; // its previous change is still being answered: the next state is not known yet
      continue;
    }
    busy.add(id);
    const one = change(id).finally(() => {
      busy.delete(id);
      sent.delete(one);
    });
    sent.add(one);
  }
  await Promise.all(sent);
  await pool.close();
  return { window, accepted, errors, skipped };
}

async function createCallback(service: Service, url: string): Promise<string> {
  const answer = await fetch(`${service.url}/api/v2/callbacks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${service.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ eventType: EVENT_TYPE, url }),
  });
  if (answer.status !== 201) throw new Error(`callback not created: ${answer.status} ${await answer.text()}`);
  return ((await answer.json()) as { properties: { id: string } }).properties.id;
}

async function deleteCallback(service: Service, id: string): Promise<void> {
  const answer = await fetch(`${service.url}/api/v2/callbacks/${id}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${service.token}` },
  });
  if (answer.status !== 204) throw new Error(`callback not deleted: ${answer.status}`);
}

/** One phase: the load, then every change at the healthy receiver; its latency figures. */
async function phase(
  backend: Backend,
  service: Service,
  receiver: Receiver,
  workplaceIds: string[],
  name: string,
) {
  receiver.send({ type: 'reset' });
  const load = await changeLoad(service, workplaceIds);
  await drain(receiver, GROUP, load.accepted, STALL_MS);
  const report = await receiver.report(GROUP);
  const events = Object.values(report.events);
  const measured = events.filter(([eventAt]) => inWindow(eventAt, load.window));
  const latencies = measured.map(([eventAt, first]) => first - eventAt);
  // When the slowest ones were written (s into the window): periodic or scattered.
  const slowest = measured
    .map(([eventAt, first]) => ({ atS: (eventAt - load.window.from) / 1000, latencyMs: first - eventAt }))
    .sort((a, b) => b.latencyMs - a.latencyMs)
    .slice(0, 8);
  const delivered = events.length;
  const result = {
    name,
    changes: load.accepted,
    errors: load.errors,
    skipped: load.skipped,
    delivered,
    duplicates: report.duplicates,
    measured: latencies.length,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    maxMs: Math.max(...latencies),
    slowest,
  };
  console.log(
    `[${backend}] ${name.padEnd(22)} ${result.changes} changes, ${delivered} delivered, ` +
      `p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms, max ${result.maxMs.toFixed(1)} ms`,
  );
  return result;
}

async function benchBackend(backend: Backend): Promise<void> {
  const loadBefore = loadavg();
  const code = revision();
  console.log(
    `commit ${code.commit}${code.srcModified ? ` with src/ modified (diff ${code.srcDiffSha1})` : ''}; ` +
      `${backend}, ${RATE} changes/s, ${WARMUP_S} + ${DURATION_S} s per phase, ${STUCK} stuck receivers`,
  );
  const seeded = await seedDatabase(backend, 'fairness', WORKPLACES);
  const receiver = await Receiver.start();
  const stuckReceivers = await StuckReceivers.start(STUCK);
  type Phase = Awaited<ReturnType<typeof phase>> & { kind: string; round: number };
  const phases: Phase[] = [];
  try {
    const service = await startService(backend, seeded.target, { logLevel: LOG_LEVEL });
    try {
      /** Callbacks on the same events to these receivers; returns a function that deletes them. */
      const subscribe = async (urls: string[]) => {
        const ids: string[] = [];
        for (const url of urls) ids.push(await createCallback(service, url));
        return async () => {
          for (const id of ids) await deleteCallback(service, id);
        };
      };
      const healthy = await createCallback(service, `${receiver.url}/${GROUP}`);
      const phaseWith = async (kind: 'alone' | 'control' | 'stuck', round: number) => {
        const urls =
          kind === 'alone'
            ? []
            : kind === 'stuck'
              ? stuckReceivers.urls(`/stuck/${round}`)
              : Array.from({ length: STUCK }, (_, index) => `${receiver.url}/control/${index}`);
        const unsubscribe = await subscribe(urls);
        const measured = await phase(
          backend,
          service,
          receiver,
          seeded.workplaceIds,
          `${kind} (round ${round})`,
        );
        phases.push({ kind, round, ...measured });
        await unsubscribe(); // before the stuck receivers go away, so nothing more is sent to them
      };
      for (let round = 1; round <= ROUNDS; round += 1) {
        const kinds = ['alone', ...(CONTROL ? ['control' as const] : []), 'stuck'] as const;
        for (const kind of round % 2 === 1 ? kinds : [...kinds].reverse()) await phaseWith(kind, round);
      }
      await deleteCallback(service, healthy);
    } finally {
      await stuckReceivers.stop(); // cut the held requests: the service stops without waiting for them
      await service.stop();
    }
  } finally {
    receiver.stop();
    await seeded.drop();
  }
  const of = (kind: string) => phases.filter((p) => p.kind === kind);
  const medians = (kind: string) => ({
    p50Ms: median(of(kind).map((p) => p.p50Ms)),
    p99Ms: median(of(kind).map((p) => p.p99Ms)),
  });
  const alone = medians('alone');
  const beside = medians('stuck');
  const control = CONTROL ? medians('control') : undefined;
  const { received: stuckRequests, maxHeld: stuckMaxHeld } = stuckReceivers;
  const ratio = {
    p50: beside.p50Ms / alone.p50Ms,
    p99: beside.p99Ms / alone.p99Ms,
    ...(control ? { p99OverControl: beside.p99Ms / control.p99Ms } : {}),
  };
  const everyOne = phases.every((p) => p.delivered === p.changes);
  const met = ratio.p99 <= TARGET_P99_RATIO && everyOne;
  // The targets bind on PostgreSQL (docs/quality.md); PGlite is reported for information.
  const binding = backend === 'postgres';
  const verdict =
    `P6 ${backend}: healthy callback p99 with ${STUCK} stuck receivers / without = ${ratio.p99.toFixed(2)} ` +
    `(medians of ${ROUNDS} rounds: ${beside.p99Ms.toFixed(0)} / ${alone.p99Ms.toFixed(0)} ms; ` +
    `p50 ${beside.p50Ms.toFixed(0)} / ${alone.p50Ms.toFixed(0)} ms = ${ratio.p50.toFixed(2)}${ratio.p99OverControl === undefined ? '' : `; over ${STUCK} answering ones instead ${ratio.p99OverControl.toFixed(2)}`}), ` +
    `${everyOne ? 'every change delivered' : 'NOT every change delivered'}; ` +
    `a stuck callback had at most ${stuckMaxHeld} request(s) held at once, ${stuckRequests} in all ` +
    `(target <= ${TARGET_P99_RATIO}: ${binding ? (met ? 'MET' : 'NOT MET') : `${met ? 'met' : 'not met'}, info only`})`;
  console.log(`\n${verdict}`);
  writeResults(resultsFile(backend), {
    date: new Date().toISOString(),
    code,
    machine: machineInfo(loadBefore),
    settings: {
      backend,
      ratePerS: RATE,
      durationS: DURATION_S,
      warmupS: WARMUP_S,
      rounds: ROUNDS,
      stuck: STUCK,
      workplaces: WORKPLACES,
      control: CONTROL,
      serviceLogLevel: LOG_LEVEL,
    },
    target: { p99Ratio: TARGET_P99_RATIO },
    phases,
    medians: { alone, stuck: beside, ...(control ? { control } : {}) },
    stuckReceivers: { requests: stuckRequests, maxHeld: stuckMaxHeld },
    ratio,
    binding,
    met,
    verdict,
  });
}

for (const backend of BACKENDS) await benchBackend(backend);
