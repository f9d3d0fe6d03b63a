// R11 token endpoint flood (shared quality bar): while 16 loops send wrong secrets as fast as they
// can, a valid client must get its token in < 0.5 s and the API's p99 must stay within 1.5 x of
// the same load without the flood. `npm run bench:token-flood`.
//
// The service runs as `bridge start` in a child process (settings as shipped, request log at info
// sent to /dev/null) on a fresh seeded database. Each phase gets a fresh service process:
//   baseline      API load + a valid client asking for a token every TOKEN_EVERY_MS, no flood
//   flood         the same, plus FLOOD_LOOPS loops of wrong secrets from 127.0.0.2 (another
//                 loopback address: the valid client and the API load come from 127.0.0.1)
//   rotating      the same, plus FLOOD_LOOPS loops of random client ids, each request from a new
//                 127.x.y.z address (a new connection bound to it): per-address limits cannot help
//   flood-open    the same flood with the limits opened up (no failure limits, 64 hashes at once,
//                 no per-address share, no refusal delay):
//                 what the flood does without the protection (skip with BENCH_UNPROTECTED=0)
// The API load is open-loop (a request every 1000/API_RATE ms whatever the answers), so its p99 is
// latency, not queueing behind a saturated client. The flood runs in its own child process so
// this process only measures. Results: printed (ratios last) and bench/results/token-flood-latest.json.
//
// Settings (environment): BENCH_BACKEND ("postgres" or "pglite"; postgres), BENCH_DURATION (s, 15),
// BENCH_API_RATE (req/s, 50), BENCH_FLOOD_LOOPS (16), BENCH_TOKEN_EVERY_MS (500),
// BENCH_UNPROTECTED ("1"), BENCH_ADMIN_URL, BENCH_SERVICE_ROOT (another checkout's service, for a
// before/after comparison).
import { type ChildProcess, fork, spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { Agent, Client, Pool, request } from 'undici';
import { SERVICE_ROOT } from './abuseSupport.ts';
import { type Backend, machineInfo, median, percentile, seedDatabase, writeResults } from './support.ts';

const env = process.env;
const BACKEND = (env.BENCH_BACKEND ?? 'postgres') as Backend;
const DURATION_MS = Number(env.BENCH_DURATION ?? 15) * 1000;
const API_RATE = Number(env.BENCH_API_RATE ?? 50);
const FLOOD_LOOPS = Number(env.BENCH_FLOOD_LOOPS ?? 16);
const TOKEN_EVERY_MS = Number(env.BENCH_TOKEN_EVERY_MS ?? 500);
const UNPROTECTED = env.BENCH_UNPROTECTED !== '0';
const RESULTS_FILE = new URL('./results/token-flood-latest.json', import.meta.url);
const CLI = `${SERVICE_ROOT}/src/cli/main.ts`;
const VALID = { id: 'bench-valid-client', secret: 'bench-valid-client-secret-0123456789' };
const FLOOD_ADDRESS = '127.0.0.2';
const FORM = 'application/x-www-form-urlencoded';

type Phase = 'baseline' | 'flood' | 'rotating' | 'flood-open';

const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

// --- the flood child: FLOOD_LOOPS loops of wrong secrets until told to stop --------------------
/** A loopback address other than 127.0.0.1 and 127.0.0.2 (all of 127/8 is loopback on Linux). */
const randomLoopback = () =>
  `127.${1 + Math.floor(Math.random() * 254)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;

async function rotatingRequest(url: string, attempt: number): Promise<number> {
  const client = new Client(url, { localAddress: randomLoopback() });
  try {
    const id = `rotating-${Math.random().toString(36).slice(2)}`;
    const response = await client.request({
      method: 'POST',
      path: '/oauth/token',
      headers: { 'content-type': FORM, authorization: basic(id, `wrong-${attempt}`) },
      body: 'grant_type=client_credentials',
    });
    await response.body.dump();
    return response.statusCode;
  } finally {
    await client.close();
  }
}

async function floodChild(url: string, mode: string): Promise<void> {
  const agent = new Agent({ localAddress: FLOOD_ADDRESS, connections: FLOOD_LOOPS });
  const statuses: Record<string, number> = {};
  let stopped = false;
  process.on('message', () => {
    stopped = true;
  });
  const loop = async (index: number) => {
    for (let attempt = 0; !stopped; attempt += 1) {
      if (mode === 'rotating') {
        try {
          const status = await rotatingRequest(url, attempt);
          statuses[status] = (statuses[status] ?? 0) + 1;
        } catch (error) {
          const key = `error ${(error as NodeJS.ErrnoException).code ?? 'unknown'}`;
          statuses[key] = (statuses[key] ?? 0) + 1;
        }
        continue;
      }
      // Half the loops guess secrets of ever new ids, half of one id (not VALID's).
      const id = index % 2 === 0 ? `flood-${index}-${attempt}` : 'bench-bystander';
      try {
        const response = await request(`${url}/oauth/token`, {
          method: 'POST',
          dispatcher: agent,
          headers: { 'content-type': FORM, authorization: basic(id, `wrong-${attempt}`) },
          body: 'grant_type=client_credentials',
        });
        await response.body.dump();
        statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
      } catch (error) {
        const key = `error ${(error as NodeJS.ErrnoException).code ?? 'unknown'}`;
        statuses[key] = (statuses[key] ?? 0) + 1;
      }
    }
  };
  process.send?.({ started: true });
  await Promise.all(Array.from({ length: FLOOD_LOOPS }, (_, index) => loop(index)));
  await agent.close();
  process.send?.({ statuses });
  process.disconnect();
}

// --- the service --------------------------------------------------------------------------------
async function startService(target: string, phase: Phase): Promise<{ url: string; stop(): Promise<void> }> {
  const open =
    phase === 'flood-open'
      ? {
          BRIDGE_TOKEN_FAILURES_PER_CLIENT: '100000',
          BRIDGE_TOKEN_FAILURES_PER_ADDRESS: '100000',
          BRIDGE_TOKEN_HASH_CONCURRENCY: '64',
          BRIDGE_TOKEN_HASH_QUEUE: '10000',
          BRIDGE_TOKEN_HASHES_PER_ADDRESS: '10000',
          BRIDGE_TOKEN_REFUSAL_DELAY_MS: '0',
          BRIDGE_TOKEN_BACKOFF_AFTER_FAILURES: '100000',
          BRIDGE_TOKEN_HASH_QUEUE_PER_CLIENT: '10000',
        }
      : {};
  const child = spawn(process.execPath, [CLI, 'start'], {
    env: {
      PATH: env.PATH ?? '',
      BRIDGE_HOST: '127.0.0.1',
      BRIDGE_PORT: '0',
      BRIDGE_EMBEDDED_MQTT: 'off',
      BRIDGE_DELIVERY_ENABLED: 'false',
      BRIDGE_BOOTSTRAP_CLIENT_ID: VALID.id,
      BRIDGE_BOOTSTRAP_CLIENT_SECRET: VALID.secret,
      ...(BACKEND === 'postgres' ? { DATABASE_URL: target } : { BRIDGE_DATA_DIR: target }),
      ...open,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(seen);
      if (match?.[1]) {
        // From here on the log is read and dropped, as a log shipper would take it away.
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        resolve(match[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`service exited early (${code})\n${seen}`)));
  });
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

// --- the measuring side -------------------------------------------------------------------------
interface PhaseResult {
  phase: Phase;
  api: { requests: number; failed: number; p50Ms: number; p99Ms: number; maxMs: number };
  token: { requests: number; statuses: Record<string, number>; p50Ms: number; p99Ms: number; maxMs: number };
  flood: { statuses: Record<string, number>; perSecond: number } | undefined;
}

async function apiLoad(url: string, token: string, path: string, until: () => boolean) {
  const pool = new Pool(url, { connections: 32 });
  const latencies: number[] = [];
  let failed = 0;
  const inFlight = new Set<Promise<void>>();
  const started = performance.now();
  for (let sent = 0; until(); sent += 1) {
    // Open loop: request n goes out at n / rate, whatever happened to the ones before.
    const due = started + (sent * 1000) / API_RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const begin = performance.now();
    const call = pool
      .request({ method: 'GET', path, headers: { authorization: `Bearer ${token}` } })
      .then(async (response) => {
        await response.body.dump();
        if (response.statusCode !== 200) failed += 1;
        latencies.push(performance.now() - begin);
      })
      .catch(() => {
        failed += 1;
      })
      .finally(() => inFlight.delete(call));
    inFlight.add(call);
  }
  await Promise.all(inFlight);
  await pool.close();
  return {
    requests: latencies.length,
    failed,
    p50Ms: round(percentile(latencies, 50)),
    p99Ms: round(percentile(latencies, 99)),
    maxMs: round(Math.max(...latencies)),
  };
}

async function tokenRequests(url: string, until: () => boolean) {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  while (until()) {
    const begin = performance.now();
    const response = await request(`${url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': FORM, authorization: basic(VALID.id, VALID.secret) },
      body: 'grant_type=client_credentials',
    });
    await response.body.dump();
    latencies.push(performance.now() - begin);
    statuses[response.statusCode] = (statuses[response.statusCode] ?? 0) + 1;
    await new Promise((resolve) => setTimeout(resolve, TOKEN_EVERY_MS));
  }
  return {
    requests: latencies.length,
    statuses,
    p50Ms: round(median(latencies)),
    p99Ms: round(percentile(latencies, 99)),
    maxMs: round(Math.max(...latencies)),
  };
}

function startFlood(
  url: string,
  mode: string,
): {
  child: ChildProcess;
  started: Promise<void>;
  result: Promise<Record<string, number>>;
} {
  const child = fork(new URL(import.meta.url), ['flood', url, mode], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let markStarted: () => void = () => {};
  const started = new Promise<void>((resolve) => {
    markStarted = resolve;
  });
  const result = new Promise<Record<string, number>>((resolve, reject) => {
    child.on('message', (message: { started?: boolean; statuses?: Record<string, number> }) => {
      if (message.started) markStarted();
      if (message.statuses) resolve(message.statuses);
    });
    child.once('exit', (code) => reject(new Error(`flood child exited (${code}) without results`)));
  });
  return { child, started, result };
}

async function runPhase(phase: Phase, target: string, token: string, path: string): Promise<PhaseResult> {
  const service = await startService(target, phase);
  try {
    // Warm-up: a few API calls and one token, not measured.
    for (let i = 0; i < 50; i += 1) {
      const response = await request(`${service.url}${path}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      await response.body.dump();
    }
    const flood = phase === 'baseline' ? undefined : startFlood(service.url, phase);
    await flood?.started;
    const floodStarted = performance.now();
    const end = performance.now() + DURATION_MS;
    const until = () => performance.now() < end;
    const [api, tokenResult] = await Promise.all([
      apiLoad(service.url, token, path, until),
      tokenRequests(service.url, until),
    ]);
    let floodResult: PhaseResult['flood'];
    if (flood) {
      flood.child.send('stop');
      const statuses = await flood.result;
      const total = Object.values(statuses).reduce((sum, count) => sum + count, 0);
      floodResult = { statuses, perSecond: round(total / ((performance.now() - floodStarted) / 1000)) };
    }
    return { phase, api, token: tokenResult, flood: floodResult };
  } finally {
    await service.stop();
  }
}

const round = (value: number) => Math.round(value * 10) / 10;
const ratio = (a: number, b: number) => Number((a / b).toFixed(2));

async function main(): Promise<void> {
  const loadAverageBefore = loadavg();
  console.log(`[${BACKEND}] seeding...`);
  const seeded = await seedDatabase(BACKEND, 'tokenflood', 100);
  const path = `/api/v2/workplaces/${seeded.workplaceIds[50]}`;
  const phases: Phase[] = UNPROTECTED
    ? ['baseline', 'flood', 'rotating', 'flood-open']
    : ['baseline', 'flood', 'rotating'];
  const results: PhaseResult[] = [];
  try {
    for (const phase of phases) {
      console.log(`[${BACKEND}] phase ${phase} (${DURATION_MS / 1000} s)...`);
      const result = await runPhase(phase, seeded.target, seeded.token, path);
      results.push(result);
      console.log(
        `  API ${result.api.requests} req, ${result.api.failed} failed, p50 ${result.api.p50Ms} ms, ` +
          `p99 ${result.api.p99Ms} ms, max ${result.api.maxMs} ms | token ${JSON.stringify(result.token.statuses)} ` +
          `p50 ${result.token.p50Ms} ms, max ${result.token.maxMs} ms` +
          (result.flood
            ? ` | flood ${result.flood.perSecond}/s ${JSON.stringify(result.flood.statuses)}`
            : ''),
      );
    }
  } finally {
    await seeded.drop();
  }
  const byPhase = (phase: Phase) => results.find((result) => result.phase === phase);
  const baseline = byPhase('baseline') as PhaseResult;
  const flood = byPhase('flood') as PhaseResult;
  const open = byPhase('flood-open');
  const rotating = byPhase('rotating') as PhaseResult;
  const summary = {
    rotatingValidTokenP99Ms: rotating.token.p99Ms,
    rotatingValidTokenP99MsTarget: 500,
    rotatingApiP99Ratio: ratio(rotating.api.p99Ms, baseline.api.p99Ms),
    rotatingValidTokenAllOk: Object.keys(rotating.token.statuses).every((status) => status === '200'),
    apiP99Ratio: ratio(flood.api.p99Ms, baseline.api.p99Ms),
    apiP99RatioTarget: 1.5,
    validTokenMaxMsUnderFlood: flood.token.maxMs,
    validTokenMaxMsTarget: 500,
    validTokenAllOkUnderFlood: Object.keys(flood.token.statuses).every((status) => status === '200'),
    ...(open
      ? {
          unprotectedApiP99Ratio: ratio(open.api.p99Ms, baseline.api.p99Ms),
          unprotectedValidTokenMaxMs: open.token.maxMs,
        }
      : {}),
  };
  writeResults(RESULTS_FILE, {
    benchmark: 'token endpoint flood (R11)',
    date: new Date().toISOString(),
    serviceRoot: SERVICE_ROOT,
    backend: BACKEND,
    settings: {
      durationS: DURATION_MS / 1000,
      apiRate: API_RATE,
      floodLoops: FLOOD_LOOPS,
      tokenEveryMs: TOKEN_EVERY_MS,
    },
    machine: machineInfo(loadAverageBefore),
    phases: results,
    summary,
  });
  console.log(`\nwritten to ${RESULTS_FILE.pathname}`);
  console.log(
    `valid client token under flood: max ${summary.validTokenMaxMsUnderFlood} ms (target < 500), all 200: ${summary.validTokenAllOkUnderFlood}`,
  );
  if (open) {
    console.log(
      `without the limits: API p99 ratio ${summary.unprotectedApiP99Ratio}, valid token max ${summary.unprotectedValidTokenMaxMs} ms`,
    );
  }
  console.log(`API p99 under flood / without: ${summary.apiP99Ratio} (target <= 1.5)`);
  console.log(
    `rotating addresses: valid token p99 ${summary.rotatingValidTokenP99Ms} ms (target < 500), API p99 ratio ${summary.rotatingApiP99Ratio} (target <= 1.5); load average ${loadAverageBefore.map((v) => v.toFixed(1)).join(' ')}`,
  );
}

if (process.argv[2] === 'flood') await floodChild(process.argv[3] as string, process.argv[4] as string);
else await main();
