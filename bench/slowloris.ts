// Slowloris from one address (issue finding 1): `npm run bench:slowloris`.
// SOCKETS connections from 127.0.0.2 each send a request line and then one header line every
// DRIP_MS, never ending their headers; whenever the server closes one, it reconnects after
// RECONNECT_MS. Meanwhile a client at 127.0.0.1 sends an authenticated GET of one workplace at
// RATE req/s (open loop). Its p99 with the attack over its p99 without, in the same run against
// the same service process: goal < 2. A request that fails counts as 10 s. Each probe request
// opens a new connection, as a client arriving during the attack would.
//
// Rounds: ROUNDS (3) fresh service processes, each measured unloaded then loaded; medians.
// Settings (environment): BENCH_BACKEND (postgres), BENCH_DURATION (s, 15), BENCH_RATE (20),
// BENCH_SOCKETS (1100), BENCH_DRIP_MS (4000), BENCH_RECONNECT_MS (1000), BENCH_ROUNDS (3),
// BENCH_SERVICE_ROOT (another checkout's service, for a before/after comparison).
// Results: bench/results/slowloris-latest.json.
import { fork } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { loadavg, setPriority } from 'node:os';
import {
  cpuMs,
  type ProbeResult,
  probe,
  ratio,
  round as round1,
  SERVICE_ROOT,
  startBridge,
} from './abuseSupport.ts';
import { type Backend, machineInfo, median, seedDatabase, writeResults } from './support.ts';

const env = process.env;
const BACKEND = (env.BENCH_BACKEND ?? 'postgres') as Backend;
const DURATION_MS = Number(env.BENCH_DURATION ?? 15) * 1000;
const RATE = Number(env.BENCH_RATE ?? 20);
const SOCKETS = Number(env.BENCH_SOCKETS ?? 1100);
const DRIP_MS = Number(env.BENCH_DRIP_MS ?? 4000);
const RECONNECT_MS = Number(env.BENCH_RECONNECT_MS ?? 1000);
const ROUNDS = Number(env.BENCH_ROUNDS ?? 3);
const RESULTS_FILE = new URL('./results/slowloris-latest.json', import.meta.url);
const ATTACK_ADDRESS = '127.0.0.2';

// --- the attacker child ------------------------------------------------------------------------
function attacker(port: number): void {
  let open = 0;
  let connects = 0;
  let stopped = false;
  const sockets = new Set<Socket>();
  const one = () => {
    if (stopped) return;
    connects += 1;
    const socket = connect({ host: '127.0.0.1', port, localAddress: ATTACK_ADDRESS });
    sockets.add(socket);
    let drip: NodeJS.Timeout | undefined;
    socket.on('error', () => {});
    socket.once('connect', () => {
      open += 1;
      socket.write('GET /health/live HTTP/1.1\r\nHost: localhost\r\n');
      drip = setInterval(() => socket.write(`X-Slow-${Math.random().toString(36).slice(2)}: 1\r\n`), DRIP_MS);
    });
    socket.once('close', (hadError) => {
      if (socket.remotePort !== undefined || hadError) open = Math.max(0, open - 1);
      clearInterval(drip);
      sockets.delete(socket);
      setTimeout(one, RECONNECT_MS);
    });
  };
  for (let i = 0; i < SOCKETS; i += 1) one();
  const report = setInterval(() => process.send?.({ open, connects }), 1000);
  process.on('message', () => {
    stopped = true;
    clearInterval(report);
    for (const socket of sockets) socket.destroy();
    process.exit(0);
  });
}

// --- the measuring side --------------------------------------------------------------------------
interface Round {
  unloaded: ProbeResult;
  loaded: ProbeResult;
  attackerConnects: number;
  p99Ratio: number;
  /** The service's CPU time per second of each phase (ms/s): the attack's cost, load-independent. */
  serviceCpuMsPerS: { unloaded: number; loaded: number };
}

async function round(target: string, token: string, path: string): Promise<Round> {
  const service = await startBridge(BACKEND, target, {});
  try {
    const port = Number(new URL(service.url).port);
    // Warm-up, not measured.
    const warm = performance.now() + 2000;
    await probe(service.url, path, token, RATE, () => performance.now() < warm);
    const cpuAt = () => ({ cpu: cpuMs(service.pid), at: performance.now() });
    const perSecond = (from: { cpu: number; at: number }) => {
      const to = cpuAt();
      return round1(((to.cpu - from.cpu) * 1000) / (to.at - from.at));
    };
    const unloadedFrom = cpuAt();
    const end1 = performance.now() + DURATION_MS;
    const unloaded = await probe(service.url, path, token, RATE, () => performance.now() < end1, {
      fresh: true,
    });
    const unloadedCpu = perSecond(unloadedFrom);
    const child = fork(new URL(import.meta.url), ['attack', String(port)], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    // The attacker's own CPU would be another host's: it runs at the lowest priority so that it
    // takes what the service leaves instead of competing with it on this machine.
    if (child.pid !== undefined) setPriority(child.pid, 19);
    let last = { open: 0, connects: 0 };
    child.on('message', (message: { open: number; connects: number }) => {
      last = message;
    });
    // Let the attack take hold: every socket opened once (then held or refused), plus a moment.
    const holdBy = performance.now() + 60_000;
    while (last.connects < SOCKETS && performance.now() < holdBy) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const connectsBefore = last.connects;
    const loadedFrom = cpuAt();
    const end2 = performance.now() + DURATION_MS;
    const loaded = await probe(service.url, path, token, RATE, () => performance.now() < end2, {
      fresh: true,
    });
    const loadedCpu = perSecond(loadedFrom);
    child.send('stop');
    await new Promise((resolve) => child.once('exit', resolve));
    return {
      unloaded,
      loaded,
      attackerConnects: last.connects - connectsBefore,
      p99Ratio: ratio(loaded.p99Ms, unloaded.p99Ms),
      serviceCpuMsPerS: { unloaded: unloadedCpu, loaded: loadedCpu },
    };
  } finally {
    await service.stop();
  }
}

async function main(): Promise<void> {
  const loadAverageBefore = loadavg();
  console.log(`[${BACKEND}] seeding... (service code: ${SERVICE_ROOT})`);
  const seeded = await seedDatabase(BACKEND, 'slowloris', 100);
  const path = `/api/v2/workplaces/${seeded.workplaceIds[50]}`;
  const rounds: Round[] = [];
  try {
    for (let i = 0; i < ROUNDS; i += 1) {
      const result = await round(seeded.target, seeded.token, path);
      rounds.push(result);
      console.log(
        `round ${i + 1}: unloaded p50 ${result.unloaded.p50Ms} p99 ${result.unloaded.p99Ms} ms (${result.unloaded.failed} failed) | ` +
          `loaded p50 ${result.loaded.p50Ms} p99 ${result.loaded.p99Ms} ms (${result.loaded.failed} failed of ${result.loaded.requests}) | ` +
          `attacker connects ${result.attackerConnects} | ratio ${result.p99Ratio} | ` +
          `service CPU ${result.serviceCpuMsPerS.unloaded} -> ${result.serviceCpuMsPerS.loaded} ms/s`,
      );
    }
  } finally {
    await seeded.drop();
  }
  const summary = {
    p99Ratio: median(rounds.map((r) => r.p99Ratio)),
    p99RatioTarget: 2,
    unloadedP99Ms: median(rounds.map((r) => r.unloaded.p99Ms)),
    loadedP99Ms: median(rounds.map((r) => r.loaded.p99Ms)),
    loadedFailed: rounds.reduce((sum, r) => sum + r.loaded.failed, 0),
    serviceCpuMsPerSUnloaded: median(rounds.map((r) => r.serviceCpuMsPerS.unloaded)),
    serviceCpuMsPerSLoaded: median(rounds.map((r) => r.serviceCpuMsPerS.loaded)),
  };
  writeResults(RESULTS_FILE, {
    benchmark: 'slowloris from one address',
    backend: BACKEND,
    date: new Date().toISOString(),
    serviceRoot: SERVICE_ROOT,
    settings: {
      durationS: DURATION_MS / 1000,
      rate: RATE,
      sockets: SOCKETS,
      dripMs: DRIP_MS,
      reconnectMs: RECONNECT_MS,
      rounds: ROUNDS,
    },
    machine: machineInfo(loadAverageBefore),
    rounds,
    summary,
  });
  console.log(`\nwritten to ${RESULTS_FILE.pathname}`);
  console.log(
    `loaded p99 / unloaded p99 (median of ${ROUNDS}): ${summary.p99Ratio} (goal < 2); failed under attack: ${summary.loadedFailed}; load average ${loadAverageBefore.map((v) => v.toFixed(1)).join(' ')}`,
  );
}

if (process.argv[2] === 'attack') attacker(Number(process.argv[3]));
else await main();
