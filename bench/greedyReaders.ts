// Memory under greedy readers (issue finding 6): `npm run bench:greedy-readers`.
// The event log is seeded with EVENTS EXTERNAL events of EVENT_KB of data each, so one page of
// 100 is several MB. Then, each against a fresh service process (same database), with the
// service's resident memory (VmRSS) sampled every 200 ms and a probe at 127.0.0.1 asking one
// workplace at PROBE_RATE req/s (open loop; a failure counts as 10 s):
//   idle      the probe alone: the unloaded p99
//   readers   READERS clients each reading pages of 100 events in a loop, reading every byte
//   streams   STREAMS event streams whose clients never read, while a writer publishes events of
//             EVENT_KB at WRITE_RATE per second (the streams must hold or drop them)
// Goal: RSS max <= 400 MiB in both, and the probe keeps being answered. The two loaded phases run
// ROUNDS times each (the RSS peak is noisy: it depends on when the heap is collected); the summary
// gives the median.
// Settings (environment): BENCH_BACKEND (postgres), BENCH_DURATION (s, 20), BENCH_READERS (32),
// BENCH_STREAMS (500), BENCH_EVENTS (200), BENCH_EVENT_KB (58), BENCH_WRITE_RATE (10),
// BENCH_PROBE_RATE (10), BENCH_ROUNDS (3), BENCH_SERVICE_ROOT (another checkout's service, for before/after).
// Results: bench/results/greedy-readers-latest.json.
import { connect, type Socket } from 'node:net';
import { loadavg } from 'node:os';
import { Pool, request } from 'undici';
import { type ProbeResult, probe, ratio, SERVICE_ROOT, sampleRss, startBridge } from './abuseSupport.ts';
import { type Backend, machineInfo, seedDatabase, writeResults } from './support.ts';

const env = process.env;
const BACKEND = (env.BENCH_BACKEND ?? 'postgres') as Backend;
const DURATION_MS = Number(env.BENCH_DURATION ?? 20) * 1000;
const READERS = Number(env.BENCH_READERS ?? 32);
const STREAMS = Number(env.BENCH_STREAMS ?? 500);
const EVENTS = Number(env.BENCH_EVENTS ?? 200);
const EVENT_KB = Number(env.BENCH_EVENT_KB ?? 58);
const WRITE_RATE = Number(env.BENCH_WRITE_RATE ?? 10);
const PROBE_RATE = Number(env.BENCH_PROBE_RATE ?? 10);
const ROUNDS = Number(env.BENCH_ROUNDS ?? 3);
const RESULTS_FILE = new URL('./results/greedy-readers-latest.json', import.meta.url);
// Streams for one client beyond the default of 5: the benchmark's clients all use one token.
const SERVICE_ENV = {
  BRIDGE_EVENT_STREAM_MAX_PER_CLIENT: String(STREAMS),
  BRIDGE_EVENT_STREAM_MAX_STREAMS: String(STREAMS),
};

const bigData = () => ({ blob: 'x'.repeat(EVENT_KB * 1024 - 20), at: Math.random() });

async function publish(url: string, token: string): Promise<number> {
  const response = await request(`${url}/api/v2/events`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ eventType: 'EXTERNAL', eventName: 'bench', data: bigData() }),
  });
  await response.body.dump();
  return response.statusCode;
}

interface Phase {
  phase: 'idle' | 'readers' | 'streams';
  round: number;
  rssMaxMiB: number;
  probe: ProbeResult;
  work: Record<string, number>;
}

async function phase(
  name: Phase['phase'],
  round: number,
  target: string,
  token: string,
  path: string,
  load: (url: string, until: () => boolean) => Promise<Record<string, number>>,
): Promise<Phase> {
  const service = await startBridge(BACKEND, target, SERVICE_ENV);
  try {
    const rss = sampleRss(service.pid);
    const end = performance.now() + DURATION_MS;
    const until = () => performance.now() < end;
    const [probed, work] = await Promise.all([
      probe(service.url, path, token, PROBE_RATE, until),
      load(service.url, until),
    ]);
    const rssMaxMiB = rss.stop();
    return { phase: name, round, rssMaxMiB, probe: probed, work };
  } finally {
    await service.stop();
  }
}

async function readers(url: string, token: string, until: () => boolean): Promise<Record<string, number>> {
  const pool = new Pool(url, { connections: READERS, bodyTimeout: 120_000, headersTimeout: 120_000 });
  const counts: Record<string, number> = { pages: 0, bytes: 0 };
  const reader = async () => {
    while (until()) {
      try {
        const response = await pool.request({
          method: 'GET',
          path: '/api/v2/events?limit=100',
          headers: { authorization: `Bearer ${token}` },
        });
        const body = Buffer.from(await response.body.arrayBuffer());
        counts[response.statusCode] = (counts[response.statusCode] ?? 0) + 1;
        if (response.statusCode === 200) {
          counts.pages = (counts.pages ?? 0) + 1;
          counts.bytes = (counts.bytes ?? 0) + body.length;
        }
      } catch {
        counts.error = (counts.error ?? 0) + 1;
      }
    }
  };
  await Promise.all(Array.from({ length: READERS }, reader));
  await pool.close();
  return counts;
}

async function unreadStreams(
  url: string,
  token: string,
  until: () => boolean,
): Promise<Record<string, number>> {
  const port = Number(new URL(url).port);
  const sockets: Socket[] = [];
  const counts: Record<string, number> = { opened: 0, closedByServer: 0, published: 0 };
  let closing = false;
  for (let i = 0; i < STREAMS; i += 1) {
    // Spread over 50 loopback addresses, as streams of many hosts (one address holds at most
    // BRIDGE_HTTP_MAX_CONNECTIONS_PER_ADDRESS connections).
    const socket = connect({ host: '127.0.0.1', port, localAddress: `127.0.${1 + (i % 50)}.3` });
    socket.on('error', () => {});
    socket.once('connect', () => {
      counts.opened = (counts.opened ?? 0) + 1;
      socket.write(
        `GET /api/v2/events/stream HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${token}\r\n\r\n`,
      );
      // Never read: the answer piles up in the kernel, then in the service.
      socket.pause();
    });
    socket.once('close', () => {
      if (!closing) counts.closedByServer = (counts.closedByServer ?? 0) + 1;
    });
    sockets.push(socket);
  }
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const started = performance.now();
  for (let sent = 0; until(); sent += 1) {
    const wait = started + (sent * 1000) / WRITE_RATE - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const status = await publish(url, token).catch(() => 0);
    counts[`publish ${status}`] = (counts[`publish ${status}`] ?? 0) + 1;
    counts.published = (counts.published ?? 0) + 1;
  }
  closing = true;
  for (const socket of sockets) socket.destroy();
  return counts;
}

async function main(): Promise<void> {
  const loadAverageBefore = loadavg();
  console.log(`[${BACKEND}] seeding ${EVENTS} events of ${EVENT_KB} KB... (service code: ${SERVICE_ROOT})`);
  const seeded = await seedDatabase(BACKEND, 'greedy', 100);
  const path = `/api/v2/workplaces/${seeded.workplaceIds[50]}`;
  const phases: Phase[] = [];
  try {
    const seeder = await startBridge(BACKEND, seeded.target, SERVICE_ENV);
    try {
      for (let i = 0; i < EVENTS; i += 1) {
        const status = await publish(seeder.url, seeded.token);
        if (status !== 201) throw new Error(`publishing an event: ${status}`);
      }
    } finally {
      await seeder.stop();
    }
    const show = (p: Phase) =>
      console.log(
        `  ${p.phase} ${p.round}: RSS max ${p.rssMaxMiB} MiB | probe p50 ${p.probe.p50Ms} p99 ${p.probe.p99Ms} ms, ${p.probe.failed} failed of ${p.probe.requests} | ${JSON.stringify(p.work)}`,
      );
    phases.push(await phase('idle', 1, seeded.target, seeded.token, path, async () => ({})));
    show(phases.at(-1) as Phase);
    for (let round = 1; round <= ROUNDS; round += 1) {
      phases.push(
        await phase('readers', round, seeded.target, seeded.token, path, (url, until) =>
          readers(url, seeded.token, until),
        ),
      );
      show(phases.at(-1) as Phase);
      phases.push(
        await phase('streams', round, seeded.target, seeded.token, path, (url, until) =>
          unreadStreams(url, seeded.token, until),
        ),
      );
      show(phases.at(-1) as Phase);
    }
  } finally {
    await seeded.drop();
  }
  const idle = phases[0] as Phase;
  const of = (name: Phase['phase']) => phases.filter((p) => p.phase === name);
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
  const medianOf = (name: Phase['phase'], value: (p: Phase) => number) => median(of(name).map(value));
  const summary = {
    rssMaxMiBTarget: 400,
    idleRssMaxMiB: idle.rssMaxMiB,
    readersRssMaxMiB: medianOf('readers', (p) => p.rssMaxMiB),
    readersRssMaxMiBRounds: of('readers').map((p) => p.rssMaxMiB),
    streamsRssMaxMiB: medianOf('streams', (p) => p.rssMaxMiB),
    streamsRssMaxMiBRounds: of('streams').map((p) => p.rssMaxMiB),
    readersProbeP99Ratio: ratio(
      medianOf('readers', (p) => p.probe.p99Ms),
      idle.probe.p99Ms,
    ),
    streamsProbeP99Ratio: ratio(
      medianOf('streams', (p) => p.probe.p99Ms),
      idle.probe.p99Ms,
    ),
    probeFailed: phases.reduce((sum, p) => sum + p.probe.failed, 0),
  };
  writeResults(RESULTS_FILE, {
    benchmark: 'memory under greedy readers',
    backend: BACKEND,
    date: new Date().toISOString(),
    serviceRoot: SERVICE_ROOT,
    settings: {
      durationS: DURATION_MS / 1000,
      readers: READERS,
      streams: STREAMS,
      events: EVENTS,
      eventKb: EVENT_KB,
      writeRate: WRITE_RATE,
      probeRate: PROBE_RATE,
      rounds: ROUNDS,
    },
    machine: machineInfo(loadAverageBefore),
    phases,
    summary,
  });
  console.log(`\nwritten to ${RESULTS_FILE.pathname}`);
  console.log(
    `RSS max (median of ${ROUNDS}): ${READERS} readers ${summary.readersRssMaxMiB} MiB, ${STREAMS} unread streams ${summary.streamsRssMaxMiB} MiB (goal <= 400); probe p99 ratio ${summary.readersProbeP99Ratio} / ${summary.streamsProbeP99Ratio}, ${summary.probeFailed} failed; load average ${loadAverageBefore.map((v) => v.toFixed(1)).join(' ')}`,
  );
}

await main();
