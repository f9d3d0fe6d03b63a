// P1/P2 read benchmark (docs/quality.md): the real service against a bare Fastify +
// driver baseline on the same database, side by side in one run, as ratios. `npm run bench:api`.
//
// Per backend (PostgreSQL, then PGlite): a fresh seeded database (1 capacity group, 1,000
// workplaces, one client and token), then REPEATS rounds; each round starts the baseline and the
// service one after the other (order swapped every round), each in its own child process (the
// service with the Node flags of `bridge start`, docs/operations.md "Memory"), and
// drives P1 (one workplace) and P2 (page of 100 + total) with autocannon from this process:
// warm-up, then a measured run. Medians of the rounds are quoted; ratio = service / baseline req/s.
// Before the first load the two servers' bodies are compared key for key (hosts aside): a baseline
// that no longer gives the service's representation stops the run.
//
// Settings (environment):
//   BENCH_DURATION (s, 10), BENCH_WARMUP (s, 3), BENCH_REPEATS (3), BENCH_CONNECTIONS (10)
//   BENCH_BACKENDS ("postgres,pglite"), BENCH_SCENARIOS ("P1,P2")
//   BENCH_LOG_LEVEL     service log level, "info" as shipped (the log itself goes to /dev/null)
//   BENCH_ADMIN_URL     PostgreSQL to create the benchmark database in
//   BENCH_BASELINE_SQL  "bare": diagnosis, the baseline reads no groups (its bodies show none)
//   BENCH_CPU_PROF      "1": .cpuprofile files of the service children in .tmp/bench-profiles/
import { fork } from 'node:child_process';
import { loadavg } from 'node:os';
import autocannon from 'autocannon';
import type { ServerKind } from './apiServer.ts';
import { NODE_FLAGS } from './service.ts';
import { type Backend, machineInfo, median, seedDatabase, writeResults } from './support.ts';

const env = process.env;
const DURATION_S = Number(env.BENCH_DURATION ?? 10);
const WARMUP_S = Number(env.BENCH_WARMUP ?? 3);
const REPEATS = Number(env.BENCH_REPEATS ?? 3);
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 10);
const BACKENDS = (env.BENCH_BACKENDS ?? 'postgres,pglite').split(',') as Backend[];
const LOG_LEVEL = env.BENCH_LOG_LEVEL ?? 'info';
const PROFILE_DIR =
  env.BENCH_CPU_PROF === '1' ? new URL('../.tmp/bench-profiles/', import.meta.url) : undefined;
const SERVER_SCRIPT = new URL('./apiServer.ts', import.meta.url);
const RESULTS_FILE = new URL('./results/api-latest.json', import.meta.url);
const WORKPLACES = 1000;

interface Scenario {
  id: 'P1' | 'P2';
  what: string;
  target: number;
  path: (workplaceId: string) => string;
}
const SCENARIOS: Scenario[] = [
  { id: 'P1', what: 'GET one workplace', target: 0.7, path: (id) => `/api/v2/workplaces/${id}` },
  { id: 'P2', what: 'GET page of 100 + total', target: 0.7, path: () => '/api/v2/workplaces?limit=100' },
];
const ACTIVE = SCENARIOS.filter((s) => (env.BENCH_SCENARIOS ?? 'P1,P2').split(',').includes(s.id));
const KINDS: ServerKind[] = ['baseline', 'service'];

interface Sample {
  rps: number;
  p50: number;
  p99: number;
}
interface Series {
  backend: Backend;
  scenario: Scenario['id'];
  server: ServerKind;
  runs: Sample[];
  median: Sample;
  /** Size of one response body, to show both servers answer with objects of the same size. */
  bodyBytes: number;
}
/** Starts one server in a child process; resolves with its base URL and a stop function. */
async function startServer(kind: ServerKind, backend: Backend, target: string) {
  const profile = kind === 'service' && PROFILE_DIR !== undefined;
  // The service runs with the Node flags `bridge start` gives it (its shebang line); the baseline bare.
  const flags = kind === 'service' ? NODE_FLAGS : [];
  const child = fork(SERVER_SCRIPT, [kind, backend, target], {
    execArgv: [...flags, ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR?.pathname}`] : [])],
    env: { ...env, BENCH_LOG_LEVEL: LOG_LEVEL },
    // The service's request log goes to stdout: dropped, as a log shipper would take it away.
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (message) => resolve((message as { port: number }).port));
    child.once('exit', (code) => reject(new Error(`${kind} server (${backend}) exited early: ${code}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      child.send('stop');
      await exited;
    },
  };
}

/** One answer's body, with the server's own origin replaced so that both servers' bodies compare. */
async function bodyOf(
  url: string,
  headers: Record<string, string>,
): Promise<{ text: string; bytes: number }> {
  const response = await fetch(url, { headers });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  return { text: body.replaceAll(new URL(url).origin, 'http://origin'), bytes: Buffer.byteLength(body) };
}

/**
 * The first key path where two JSON values differ (undefined when equal), so that a baseline
 * that no longer gives the service's representation stops the run instead of flattering it.
 */
function firstDifference(a: unknown, b: unknown, path = ''): string | undefined {
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null) {
    return Object.is(a, b) ? undefined : `${path || '(root)'}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = [...Object.keys(left), ...Object.keys(right).filter((key) => !(key in left))];
  for (const key of keys) {
    if (!(key in left) || !(key in right))
      return `${path}.${key}: only in the ${key in left ? 'baseline' : 'service'}`;
    const difference = firstDifference(left[key], right[key], `${path}.${key}`);
    if (difference !== undefined) return difference;
  }
  return undefined;
}

async function load(url: string, headers: Record<string, string>): Promise<Sample> {
  const options = { url, connections: CONNECTIONS, headers };
  await autocannon({ ...options, duration: WARMUP_S });
  const result = await autocannon({ ...options, duration: DURATION_S });
  if (result.errors > 0 || result.non2xx > 0) {
    throw new Error(`${url}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
  }
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99 };
}

async function benchBackend(backend: Backend): Promise<Series[]> {
  console.log(`\n[${backend}] seeding 1 capacity group and ${WORKPLACES} workplaces...`);
  const seeded = await seedDatabase(backend, 'api', WORKPLACES);
  // Both servers get the same request, Authorization header included; the baseline ignores it.
  const headers = { authorization: `Bearer ${seeded.token}` };
  const series = new Map<string, Series>();
  const bodies = new Map<string, string>();
  try {
    for (let round = 0; round < REPEATS; round += 1) {
      const order = round % 2 === 0 ? KINDS : [...KINDS].reverse(); // alternate who goes first
      for (const kind of order) {
        const server = await startServer(kind, backend, seeded.target);
        try {
          for (const scenario of ACTIVE) {
            const url = server.url + scenario.path(seeded.workplaceIds[WORKPLACES / 2] as string);
            const key = `${scenario.id}:${kind}`;
            const entry = series.get(key) ?? {
              backend,
              scenario: scenario.id,
              server: kind,
              runs: [],
              median: { rps: 0, p50: 0, p99: 0 },
              bodyBytes: 0,
            };
            series.set(key, entry);
            const body = await bodyOf(url, headers);
            entry.bodyBytes = body.bytes;
            bodies.set(key, body.text);
            const baselineBody = bodies.get(`${scenario.id}:baseline`);
            const serviceBody = bodies.get(`${scenario.id}:service`);
            if (baselineBody !== undefined && serviceBody !== undefined) {
              const difference = firstDifference(JSON.parse(baselineBody), JSON.parse(serviceBody));
              if (difference !== undefined)
                throw new Error(`${scenario.id}: the baseline's body is not the service's (${difference})`);
            }
            const sample = await load(url, headers);
            entry.runs.push(sample);
            console.log(
              `[${backend}] round ${round + 1} ${scenario.id} ${kind.padEnd(8)} ` +
                `${sample.rps.toFixed(0).padStart(6)} req/s  p50 ${sample.p50} ms  p99 ${sample.p99} ms`,
            );
          }
        } finally {
          await server.stop();
        }
      }
    }
  } finally {
    await seeded.drop();
  }
  for (const entry of series.values()) {
    entry.median = {
      rps: median(entry.runs.map((run) => run.rps)),
      p50: median(entry.runs.map((run) => run.p50)),
      p99: median(entry.runs.map((run) => run.p99)),
    };
  }
  return [...series.values()];
}

function report(all: Series[]) {
  const find = (backend: Backend, scenario: string, server: ServerKind) =>
    all.find((s) => s.backend === backend && s.scenario === scenario && s.server === server);
  const ratios = BACKENDS.flatMap((backend) =>
    ACTIVE.map((scenario) => {
      const service = find(backend, scenario.id, 'service');
      const base = find(backend, scenario.id, 'baseline');
      const ratio = base && service ? service.median.rps / base.median.rps : 0;
      // Each round's pair ran back to back: its ratio shows how much the noise moved the median.
      const perRound = (service?.runs ?? []).map((run, i) => run.rps / (base?.runs[i]?.rps ?? Number.NaN));
      // The targets hold on PostgreSQL; PGlite figures are for information.
      const binding = backend === 'postgres';
      return {
        id: scenario.id,
        backend,
        ratio,
        perRound,
        target: scenario.target,
        binding,
        met: ratio >= scenario.target,
      };
    }),
  );

  console.log('\nbackend   test  server    req/s median (runs)            p50 ms  p99 ms  body bytes');
  const rank = (s: Series) => [BACKENDS.indexOf(s.backend), s.scenario, KINDS.indexOf(s.server)].join();
  for (const s of [...all].sort((a, b) => rank(a).localeCompare(rank(b)))) {
    const runs = s.runs.map((run) => run.rps.toFixed(0)).join(', ');
    console.log(
      `${s.backend.padEnd(9)} ${s.scenario.padEnd(5)} ${s.server.padEnd(9)} ` +
        `${s.median.rps.toFixed(0).padStart(6)} (${runs})`.padEnd(32) +
        `${String(s.median.p50).padStart(6)}  ${String(s.median.p99).padStart(6)}  ${String(s.bodyBytes).padStart(10)}`,
    );
  }
  console.log('');
  for (const r of ratios) {
    const verdict = r.binding ? (r.met ? 'MET' : 'NOT MET') : 'info only';
    const what = SCENARIOS.find((scenario) => scenario.id === r.id)?.what;
    console.log(
      `${r.id} ${r.backend.padEnd(8)} service/baseline = ${r.ratio.toFixed(2)}  ` +
        `(rounds ${r.perRound.map((x) => x.toFixed(2)).join(' ')}; target >= ${r.target}: ${verdict}; ${what})`,
    );
  }
  return ratios;
}

async function main(): Promise<void> {
  const loadBefore = loadavg();
  const series: Series[] = [];
  for (const backend of BACKENDS) series.push(...(await benchBackend(backend)));
  const ratios = report(series);
  const settings = {
    durationS: DURATION_S,
    warmupS: WARMUP_S,
    repeats: REPEATS,
    connections: CONNECTIONS,
    serviceLogLevel: LOG_LEVEL,
    baselineSql:
      env.BENCH_BASELINE_SQL === 'bare' ? 'bare (no groups)' : "the service's (workplace with its groups)",
    workplaces: WORKPLACES,
  };
  const machine = machineInfo(loadBefore);
  writeResults(RESULTS_FILE, { date: new Date().toISOString(), machine, settings, series, ratios });
}

await main();
