// R7 soak run: `npm run soak`. The service as deployed (`bridge start`, PostgreSQL by default) with
// two callbacks subscribed, and SOAK_CLIENTS concurrent clients for SOAK_DURATION seconds, each
// looping over a mix of what applications do:
//   45 % reads (a workplace, a page of workplaces, the newest events, a page of operations)
//   20 % operating-state changes of the client's own workplace (110 <-> 000: each is one event)
//   15 % EXTERNAL events published (POST /events)
//   20 % a production order with one operation: created, moved RELEASED -> SETUP -> PROCESSING,
//        read back, deleted
// It holds when: no error answer and no failed request, the service's RSS (sampled every
// SOAK_SAMPLE_S seconds) flat after the warm-up (the least-squares slope adds less than 5 % of the
// mean over 10 minutes), and every
// state-change and EXTERNAL event delivered to its callback once the load stops.
//
// Settings (environment): SOAK_DURATION (s, 600), SOAK_CLIENTS (100), SOAK_SAMPLE_S (10),
// SOAK_WARMUP_S (60: RSS samples before it are left out of the slope), BENCH_BACKENDS (postgres),
// BENCH_ADMIN_URL. Results: bench/results/soak-latest.json.
import { fork } from 'node:child_process';
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import { readRss, revision, type Service, sampleRss, startService } from './service.ts';
import { type Backend, machineInfo, percentile, seedDatabase, writeResults } from './support.ts';

const env = process.env;
const DURATION_S = Number(env.SOAK_DURATION ?? 600);
const CLIENTS = Number(env.SOAK_CLIENTS ?? 100);
const SAMPLE_S = Number(env.SOAK_SAMPLE_S ?? 10);
const WARMUP_S = Number(env.SOAK_WARMUP_S ?? 60);
const BACKEND = (env.BENCH_BACKENDS ?? 'postgres').split(',')[0] as Backend;
const RECEIVER_SCRIPT = new URL('./deliveryReceiver.ts', import.meta.url);
const RESULTS_FILE = new URL('./results/soak-latest.json', import.meta.url);
/** How long deliveries may make no progress after the load before the run gives up waiting. */
const STALL_MS = 60_000;

// biome-ignore lint/suspicious/noExplicitAny: answers are read by path, as a client would
type JsonObject = Record<string, any>;

type Kind = 'read' | 'stateChange' | 'external' | 'order';
const MIX: [Kind, number][] = [
  ['read', 0.45],
  ['stateChange', 0.2],
  ['external', 0.15],
  ['order', 0.2],
];

interface Tally {
  requests: number;
  errors: { status: number; method: string; path: string; body: string }[];
  latenciesMs: number[];
  /** Events the callbacks must deliver: state changes and EXTERNAL events acknowledged. */
  expected: { states: number; external: number };
  byKind: Record<Kind, number>;
}

/** The receiver child (bench/deliveryReceiver.ts): counts distinct deliveries per path group. */
async function startReceiver() {
  const child = fork(RECEIVER_SCRIPT, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`receiver exited early: ${code}`)));
  });
  const count = (group: string) =>
    new Promise<{ deliveries: number; requests: number }>((resolve) => {
      child.once('message', (message) => resolve(message as { deliveries: number; requests: number }));
      child.send({ type: 'count', group });
    });
  return { url: `http://127.0.0.1:${port}`, count, stop: () => child.disconnect() };
}

function pick(): Kind {
  let roll = Math.random();
  for (const [kind, share] of MIX) {
    roll -= share;
    if (roll < 0) return kind;
  }
  return 'read';
}

/** One API client: a connection pool of its own, its own workplace, a loop until `until`. */
async function client(service: Service, workplaceId: string, until: number, tally: Tally, index: number) {
  const pool = new Pool(service.url, { connections: 1 });
  const headers = { authorization: `Bearer ${service.token}`, 'content-type': 'application/json' };
  const call = async (method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) => {
    const started = performance.now();
    tally.requests += 1;
    try {
      const response = await pool.request({
        method,
        path,
        headers: body === undefined ? { authorization: headers.authorization } : headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.body.text();
      tally.latenciesMs.push(performance.now() - started);
      if (response.statusCode >= 400) {
        tally.errors.push({ status: response.statusCode, method, path, body: text.slice(0, 300) });
        return undefined;
      }
      return text === '' ? {} : (JSON.parse(text) as JsonObject);
    } catch (error) {
      tally.errors.push({ status: 0, method, path, body: (error as Error).message });
      return undefined;
    }
  };
  let state = '000';
  let turn = 0;
  try {
    while (Date.now() < until) {
      const kind = pick();
      tally.byKind[kind] += 1;
      turn += 1;
      if (kind === 'read') {
        const reads = [
          `/api/v2/workplaces/${workplaceId}`,
          '/api/v2/workplaces?limit=100',
          '/api/v2/events?limit=20',
          '/api/v2/operations?limit=50',
        ];
        await call('GET', reads[turn % reads.length] as string);
      } else if (kind === 'stateChange') {
        state = state === '110' ? '000' : '110';
        if (await call('POST', `/api/v2/workplaces/${workplaceId}/operatingState/${state}`)) {
          tally.expected.states += 1;
        }
      } else if (kind === 'external') {
        const sent = await call('POST', '/api/v2/events', {
          eventType: 'EXTERNAL',
          objectType: 'WORKPLACE',
          objectId: workplaceId,
          data: { client: index, turn },
        });
        if (sent) tally.expected.external += 1;
      } else {
        const order = await call('POST', '/api/v2/productionOrders', {
          number: `SOAK-${index}-${turn}`,
          targetQuantity: 10,
          operations: [{ number: '0010', workplaceId, targetQuantity: 10 }],
        });
        const operationId = order?._embedded?.operations?.[0]?.properties?.id as string | undefined;
        if (!order || !operationId) continue;
        for (const phase of ['SETUP', 'PROCESSING'])
          await call('POST', `/api/v2/operations/${operationId}/${phase}`);
        await call('GET', `/api/v2/operations/${operationId}`);
        await call('DELETE', `/api/v2/productionOrders/${order.properties.id}`);
      }
    }
  } finally {
    await pool.close();
  }
}

async function main(): Promise<void> {
  const loadBefore = loadavg();
  const code = revision();
  console.log(`soak: ${CLIENTS} clients for ${DURATION_S} s on ${BACKEND}, commit ${code.commit}`);
  const seeded = await seedDatabase(BACKEND, 'soak', CLIENTS);
  const receiver = await startReceiver();
  let service: Service | undefined;
  try {
    service = await startService(BACKEND, seeded.target);
    const admin = new Pool(service.url, { connections: 1 });
    for (const [eventType, group] of [
      ['WORKPLACE_OPERATING_STATE_CHANGED', 'states'],
      ['EXTERNAL', 'external'],
    ]) {
      const response = await admin.request({
        method: 'POST',
        path: '/api/v2/callbacks',
        headers: { authorization: `Bearer ${service.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ eventType, url: `${receiver.url}/${group}` }),
      });
      if (response.statusCode !== 201)
        throw new Error(`callback: ${response.statusCode} ${await response.body.text()}`);
      await response.body.dump();
    }
    await admin.close();

    const tally: Tally = {
      requests: 0,
      errors: [],
      latenciesMs: [],
      expected: { states: 0, external: 0 },
      byKind: { read: 0, stateChange: 0, external: 0, order: 0 },
    };
    const startedAt = Date.now();
    const rss = sampleRss(service.pid, { sampleS: SAMPLE_S, warmupS: WARMUP_S });
    const progress = setInterval(() => {
      const elapsed = Math.round((Date.now() - startedAt) / 1000);
      console.log(
        `  ${elapsed} s: ${tally.requests} requests, ${tally.errors.length} errors, RSS ${readRss(service?.pid ?? 0)} MiB`,
      );
    }, 60_000);
    const until = startedAt + DURATION_S * 1000;
    await Promise.all(
      seeded.workplaceIds
        .slice(0, CLIENTS)
        .map((id, index) => client(service as Service, id, until, tally, index)),
    );
    clearInterval(progress);
    const memory = rss.stop();
    const loadS = (Date.now() - startedAt) / 1000;

    // Every acknowledged state change and EXTERNAL event reaches its callback.
    const delivered = { states: 0, external: 0 };
    let lastProgress = Date.now();
    for (;;) {
      const states = (await receiver.count('states')).deliveries;
      const external = (await receiver.count('external')).deliveries;
      if (states !== delivered.states || external !== delivered.external) lastProgress = Date.now();
      Object.assign(delivered, { states, external });
      if (states >= tally.expected.states && external >= tally.expected.external) break;
      if (Date.now() - lastProgress > STALL_MS) break;
      await sleep(500);
    }
    const drainS = (Date.now() - startedAt) / 1000 - loadS;

    const result = {
      requests: tally.requests,
      requestsPerS: Math.round(tally.requests / loadS),
      errors: tally.errors.length,
      firstErrors: tally.errors.slice(0, 10),
      byKind: tally.byKind,
      latencyMs: {
        p50: Number(percentile(tally.latenciesMs, 50).toFixed(1)),
        p99: Number(percentile(tally.latenciesMs, 99).toFixed(1)),
      },
      expected: tally.expected,
      delivered,
      allDelivered:
        delivered.states >= tally.expected.states && delivered.external >= tally.expected.external,
      drainS: Number(drainS.toFixed(1)),
      rss: memory,
    };
    // Flat: what the trend adds over 10 minutes is under 5 % of the steady RSS. The heap saw-tooths
    // with garbage collection; a falling trend is no growth.
    const { flat } = memory;
    const holds = result.errors === 0 && result.allDelivered && flat;
    console.log(
      [
        `requests ${result.requests} (${result.requestsPerS}/s), errors ${result.errors}, p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms`,
        `delivered states ${delivered.states}/${tally.expected.states}, external ${delivered.external}/${tally.expected.external} (${result.drainS} s after the load)`,
        `RSS max ${memory.maxMiB} MiB, mean ${memory.meanMiB} MiB, slope after ${WARMUP_S} s: ${memory.slopeMiBPer10Min} MiB per 10 min (${flat ? 'flat' : 'growing'})`,
        `R7 ${holds ? 'holds' : 'does NOT hold'}`,
      ].join('\n'),
    );
    writeResults(RESULTS_FILE, {
      date: new Date().toISOString(),
      code,
      machine: machineInfo(loadBefore),
      settings: {
        durationS: DURATION_S,
        clients: CLIENTS,
        sampleS: SAMPLE_S,
        warmupS: WARMUP_S,
        backend: BACKEND,
      },
      result,
      verdict: { flat, holds },
    });
    if (!holds) process.exitCode = 1;
  } finally {
    await service?.stop();
    receiver.stop();
    await seeded.drop();
  }
}

await main();
