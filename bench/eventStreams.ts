// Event streams, P10: `npm run bench:event-streams`.
// STREAMS Server-Sent Event streams (`GET /api/v2/events/stream`) stay open on one service
// instance while a publisher posts EVENTS EXTERNAL events at RATE per second. Every stream must
// receive every event; the figure is the p99 over all (event, stream) pairs of the time from the
// publish request leaving the publisher to the event's arrival at the stream: an upper bound on
// "after commit", as the commit happens inside that request. Goal: p99 < 100 ms.
//
// Baseline, same run: a bare node:http server that writes each published event to the same
// number of open SSE responses, measured by the same receivers. It shows what the harness and the
// loopback cost by themselves (the receivers share the machine's cores with the server).
//
// The receivers run in a child process of their own, spread over source addresses 127.0.1.x (the
// service holds at most BRIDGE_HTTP_MAX_CONNECTIONS_PER_ADDRESS connections per address).
// Rounds: ROUNDS fresh service processes on one seeded database; medians.
// Settings (environment): BENCH_BACKEND (postgres), BENCH_STREAMS (1000), BENCH_EVENTS (200),
// BENCH_RATE (20), BENCH_ROUNDS (3), BENCH_SERVICE_ROOT (another checkout's service).
// Results: bench/results/event-streams-latest.json.
import { type ChildProcess, fork } from 'node:child_process';
import { createServer, request as httpRequest, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { SERVICE_ROOT, startBridge } from './abuseSupport.ts';
import { revision } from './service.ts';
import {
  type Backend,
  largest,
  machineInfo,
  median,
  percentile,
  seedDatabase,
  writeResults,
} from './support.ts';

const env = process.env;
const BACKEND = (env.BENCH_BACKEND ?? 'postgres') as Backend;
const STREAMS = Number(env.BENCH_STREAMS ?? 1000);
const EVENTS = Number(env.BENCH_EVENTS ?? 200);
const RATE = Number(env.BENCH_RATE ?? 20);
const ROUNDS = Number(env.BENCH_ROUNDS ?? 3);
const RESULTS_FILE = new URL('./results/event-streams-latest.json', import.meta.url);
const P99_TARGET_MS = 100;
const STREAMS_PER_ADDRESS = 50;
/** How long the last event may take to reach every stream before the round counts it lost. */
const SETTLE_MS = 10_000;
// One client opens every stream, so its share and the instance's caps are raised to fit them.
const SERVICE_ENV = {
  BRIDGE_EVENT_STREAM_MAX_PER_CLIENT: String(STREAMS),
  BRIDGE_EVENT_STREAM_MAX_STREAMS: String(STREAMS),
  BRIDGE_HTTP_MAX_CONNECTIONS: String(STREAMS + 100),
};

/** Wall-clock milliseconds with sub-millisecond resolution, comparable across processes. */
const now = () => performance.timeOrigin + performance.now();

// --- the receivers child -------------------------------------------------------------------------
type ToReceivers =
  | { open: { url: string; token: string; streams: number; events: number } }
  | { report: true };
type FromReceivers = { opened: number } | { failed: string } | { arrivals: number[][] };

/** Opens the streams; records when each event (by its `seq`) first arrives at each stream. */
function receivers(): void {
  const arrivals: Float64Array[] = [];
  process.on('message', (message: ToReceivers) => {
    if ('report' in message) {
      process.send?.({ arrivals: arrivals.map((times) => [...times]) } satisfies FromReceivers);
      return;
    }
    const { url, token, streams, events } = message.open;
    let opened = 0;
    for (let i = 0; i < streams; i += 1) {
      const times = new Float64Array(events).fill(Number.NaN);
      arrivals.push(times);
      const target = new URL(url);
      const req = httpRequest({
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
        localAddress: `127.0.1.${1 + Math.floor(i / STREAMS_PER_ADDRESS)}`,
        agent: false,
      });
      req.on('response', (response) => {
        if (response.statusCode !== 200) {
          process.send?.({ failed: `stream ${i}: HTTP ${response.statusCode}` } satisfies FromReceivers);
          return;
        }
        opened += 1;
        if (opened === streams) process.send?.({ opened } satisfies FromReceivers);
        let rest = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          const at = now();
          const text = rest + chunk;
          const end = text.lastIndexOf('\n');
          rest = text.slice(end + 1);
          for (const match of text.slice(0, end).matchAll(/"seq":(\d+)/g)) {
            const seq = Number(match[1]);
            if (seq < events && Number.isNaN(times[seq])) times[seq] = at;
          }
        });
      });
      req.on('error', (error) =>
        process.send?.({ failed: `stream ${i}: ${error.message}` } satisfies FromReceivers),
      );
      req.end();
    }
  });
}

// --- the measuring side --------------------------------------------------------------------------
interface Run {
  streams: number;
  events: number;
  /** Pairs (event, stream) that arrived, of streams x events. */
  received: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** The publish requests' own time (send -> answer), p99. */
  publishP99Ms: number;
}

function ask<T extends FromReceivers>(
  child: ChildProcess,
  message: ToReceivers,
  pick: (m: FromReceivers) => T | undefined,
) {
  return new Promise<T>((resolve, reject) => {
    const onMessage = (m: FromReceivers) => {
      if ('failed' in m) {
        child.off('message', onMessage);
        reject(new Error(m.failed));
        return;
      }
      const picked = pick(m);
      if (picked === undefined) return;
      child.off('message', onMessage);
      resolve(picked);
    };
    child.on('message', onMessage);
    child.send(message);
  });
}

/**
 * Opens the streams in a receivers child, publishes EVENTS at RATE (open loop) and collects the
 * arrivals. `publish(seq)` posts one event whose data carries `"seq":<seq>`.
 */
async function measure(
  streamUrl: string,
  token: string,
  publish: (seq: number) => Promise<void>,
): Promise<Run> {
  const child = fork(new URL(import.meta.url).pathname, ['receivers'], { stdio: 'inherit' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    await ask(child, { open: { url: streamUrl, token, streams: STREAMS, events: EVENTS } }, (m) =>
      'opened' in m ? m : undefined,
    );
    const sentAt = new Float64Array(EVENTS);
    const publishMs: number[] = [];
    const started = now();
    const sends: Promise<void>[] = [];
    for (let seq = 0; seq < EVENTS; seq += 1) {
      const due = started + (seq * 1000) / RATE;
      const wait = due - now();
      if (wait > 0) await sleep(wait);
      sentAt[seq] = now();
      sends.push(publish(seq).then(() => void publishMs.push(now() - (sentAt[seq] as number))));
    }
    await Promise.all(sends);
    await sleep(SETTLE_MS);
    const { arrivals } = await ask(child, { report: true }, (m) => ('arrivals' in m ? m : undefined));
    const latencies: number[] = [];
    for (const times of arrivals) {
      times.forEach((at, seq) => {
        if (at !== null && Number.isFinite(at)) latencies.push(at - (sentAt[seq] as number));
      });
    }
    const round1 = (value: number) => Math.round(value * 10) / 10;
    return {
      streams: arrivals.length,
      events: EVENTS,
      received: latencies.length,
      p50Ms: round1(percentile(latencies, 50)),
      p99Ms: round1(percentile(latencies, 99)),
      maxMs: round1(largest(latencies)),
      publishP99Ms: round1(percentile(publishMs, 99)),
    };
  } finally {
    child.kill();
    await exited;
  }
}

/** The bare baseline: an SSE fan-out server with nothing behind it. */
async function bareRun(): Promise<Run> {
  const open = new Set<ServerResponse>();
  let position = 0;
  const server = createServer((req, res) => {
    if (req.method === 'GET') {
      res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store' });
      res.write(': open\n\n');
      open.add(res);
      res.on('close', () => open.delete(res));
      return;
    }
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => {
      position += 1;
      const frame = `id: ${position}\ndata: ${JSON.stringify({ eventType: 'EXTERNAL', data: JSON.parse(body) })}\n\n`;
      for (const res of open) res.write(frame);
      res.writeHead(201).end();
    });
  });
  server.maxConnections = STREAMS + 100;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    return await measure(`${url}/stream`, 'none', async (seq) => {
      const answer = await request(`${url}/publish`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ seq }),
      });
      await answer.body.dump();
    });
  } finally {
    for (const res of open) res.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

async function serviceRun(target: string, token: string): Promise<Run> {
  const service = await startBridge(BACKEND, target, SERVICE_ENV);
  try {
    return await measure(`${service.url}/api/v2/events/stream`, token, async (seq) => {
      const answer = await request(`${service.url}/api/v2/events`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ eventType: 'EXTERNAL', eventName: 'bench', data: { seq } }),
      });
      await answer.body.dump();
      if (answer.statusCode !== 201) throw new Error(`publish answered ${answer.statusCode}`);
    });
  } finally {
    await service.stop();
  }
}

async function main(): Promise<void> {
  const loadAverageBefore = loadavg();
  const seeded = await seedDatabase(BACKEND, 'streams', 1);
  const rounds: { bare: Run; service: Run }[] = [];
  try {
    for (let round = 1; round <= ROUNDS; round += 1) {
      const bare = await bareRun();
      const service = await serviceRun(seeded.target, seeded.token);
      rounds.push({ bare, service });
      console.log(
        `round ${round}: service p50 ${service.p50Ms} ms, p99 ${service.p99Ms} ms, ${service.received} of ${STREAMS * EVENTS} received; bare p99 ${bare.p99Ms} ms`,
      );
    }
  } finally {
    await seeded.drop();
  }
  const p99Ms = median(rounds.map((r) => r.service.p99Ms));
  const allReceived = rounds.every((r) => r.service.received === STREAMS * EVENTS);
  const summary = {
    p99Ms,
    p99MsTarget: P99_TARGET_MS,
    p50Ms: median(rounds.map((r) => r.service.p50Ms)),
    bareP99Ms: median(rounds.map((r) => r.bare.p99Ms)),
    p99MsRounds: rounds.map((r) => r.service.p99Ms),
    received: rounds.map((r) => r.service.received),
    expected: STREAMS * EVENTS,
    met: allReceived && p99Ms < P99_TARGET_MS,
  };
  console.log(summary);
  writeResults(RESULTS_FILE, {
    date: new Date().toISOString(),
    code: revision(),
    backend: BACKEND,
    serviceRoot: SERVICE_ROOT,
    settings: { streams: STREAMS, events: EVENTS, rate: RATE, rounds: ROUNDS, serviceEnv: SERVICE_ENV },
    machine: machineInfo(loadAverageBefore),
    summary,
    rounds,
  });
}

if (process.argv[2] === 'receivers') receivers();
else await main();
