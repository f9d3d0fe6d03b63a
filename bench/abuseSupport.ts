// Shared by the abuse benchmarks (bench/slowloris.ts, bench/greedyReaders.ts, bench/tokenFlood.ts):
// the service as `bridge start` in a child process, an open-loop probe of one API request, and
// the child's resident memory. BENCH_SERVICE_ROOT runs another checkout's service (e.g. the code
// before a change) under the same benchmark, for figures side by side.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Pool } from 'undici';
import type { Backend } from './support.ts';
import { percentile } from './support.ts';

const ROOT = process.env.BENCH_SERVICE_ROOT ?? new URL('..', import.meta.url).pathname;
export const SERVICE_ROOT = ROOT;

export interface Service {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * `bridge start` on `target` (DATABASE_URL or PGlite data directory) with `env` added. `BRIDGE_*`
 * settings in the benchmark's own environment reach the service too, to measure another value.
 */
export async function startBridge(
  backend: Backend,
  target: string,
  env: Record<string, string>,
): Promise<Service> {
  const child = spawn(
    process.execPath,
    ['--max-semi-space-size=16', '--heap-growing-percent=100', `${ROOT}/src/cli/main.ts`, 'start'],
    {
      env: {
        PATH: process.env.PATH ?? '',
        BRIDGE_HOST: '127.0.0.1',
        BRIDGE_PORT: '0',
        BRIDGE_EMBEDDED_MQTT: 'off',
        BRIDGE_DELIVERY_ENABLED: 'false',
        BRIDGE_CONNECTORS_ENABLED: 'false',
        BRIDGE_DEMO: 'off',
        ...(backend === 'postgres' ? { DATABASE_URL: target } : { BRIDGE_DATA_DIR: target }),
        ...env,
        ...Object.fromEntries(Object.entries(process.env).filter(([name]) => name.startsWith('BRIDGE_'))),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
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
    pid: child.pid as number,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export interface ProbeResult {
  requests: number;
  failed: number;
  p50Ms: number;
  /** Failed requests count as `failureMs` (they got no answer at all). */
  p99Ms: number;
  maxMs: number;
}

/** Open loop: a GET every 1000/rate ms whatever happened to the ones before, until `until()` is false. */
export async function probe(
  url: string,
  path: string,
  token: string,
  rate: number,
  until: () => boolean,
  options: { localAddress?: string; failureMs?: number; timeoutMs?: number; fresh?: boolean } = {},
): Promise<ProbeResult> {
  const failureMs = options.failureMs ?? 10_000;
  // `fresh`: every request on a new connection (a client that connects now, not one that holds an
  // old keep-alive connection).
  const pool = new Pool(url, {
    connections: 16,
    ...(options.fresh ? { pipelining: 0, keepAliveTimeout: 1, keepAliveMaxTimeout: 1 } : {}),
    headersTimeout: options.timeoutMs ?? 10_000,
    bodyTimeout: options.timeoutMs ?? 10_000,
    ...(options.localAddress ? { localAddress: options.localAddress } : {}),
  });
  const latencies: number[] = [];
  let failed = 0;
  const inFlight = new Set<Promise<void>>();
  const started = performance.now();
  for (let sent = 0; until(); sent += 1) {
    const due = started + (sent * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const begin = performance.now();
    const call = pool
      .request({
        method: 'GET',
        path,
        headers: { authorization: `Bearer ${token}`, ...(options.fresh ? { connection: 'close' } : {}) },
      })
      .then(async (response) => {
        await response.body.dump();
        if (response.statusCode !== 200) throw new Error(String(response.statusCode));
        latencies.push(performance.now() - begin);
      })
      .catch(() => {
        failed += 1;
        latencies.push(failureMs);
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
    maxMs: round(latencies.reduce((max, value) => Math.max(max, value), 0)),
  };
}

/** The process's resident set in MiB (Linux /proc). */
export function rssMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN);
  return Math.round((kib / 1024) * 10) / 10;
}

/** Samples `rssMiB(pid)` every `everyMs` until stopped; returns the largest seen. */
export function sampleRss(pid: number, everyMs = 200): { stop(): number } {
  let max = 0;
  const timer = setInterval(() => {
    try {
      max = Math.max(max, rssMiB(pid));
    } catch {
      // the process ended
    }
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return max;
    },
  };
}

/**
 * The process's CPU time (user + system) in ms (Linux /proc): what a phase cost the service,
 * independent of how busy the rest of the machine was.
 */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15)
  return (ticks * 1000) / CLOCK_TICKS_PER_SECOND;
}
/** USER_HZ: 100 on every Linux this runs on (`getconf CLK_TCK`). */
const CLOCK_TICKS_PER_SECOND = 100;

export const round = (value: number) => Math.round(value * 10) / 10;
export const ratio = (a: number, b: number) => Number((a / b).toFixed(2));
