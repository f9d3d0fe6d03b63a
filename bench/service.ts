// The service under benchmark as deployed (`bridge start` in a child process), and what every
// benchmark records about it: its memory and the code it ran.
import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Backend } from './support.ts';

const env = process.env;
const CLI = new URL('../src/cli/main.ts', import.meta.url).pathname;
/** The Node flags the `bridge` command runs with (its shebang line; docs/operations.md, "Memory"). */
export const NODE_FLAGS = (/^#!\/usr\/bin\/env -S node (.*)/.exec(readFileSync(CLI, 'utf8'))?.[1] ?? '')
  .split(' ')
  .filter((flag) => flag !== '');

export interface StartOptions {
  /** The service's BRIDGE_LOG_LEVEL (warn: a delivery problem should not go unseen). */
  logLevel?: string;
  /** Where --cpu-prof writes the service's profile, when profiling. */
  profileDir?: URL | undefined;
  /** Further BRIDGE_* settings for this run. */
  env?: Record<string, string>;
}

export interface Service {
  url: string;
  pid: number;
  token: string;
  stop(): Promise<void>;
}

/** A free port for the service (`bridge start` does not report an ephemeral one). */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
    probe.once('error', reject);
  });

/** `bridge start` in a child process, as deployed; resolves once it is ready, with a token. */
export async function startService(
  backend: Backend,
  target: string,
  { logLevel = 'warn', profileDir, env: extraEnv = {} }: StartOptions = {},
): Promise<Service> {
  const url = `http://127.0.0.1:${await freePort()}`;
  const client = { id: 'bench-delivery', secret: randomBytes(18).toString('base64url') };
  const childEnv: NodeJS.ProcessEnv = {
    ...env,
    BRIDGE_HOST: '127.0.0.1',
    BRIDGE_PORT: new URL(url).port,
    BRIDGE_EMBEDDED_MQTT: 'off',
    BRIDGE_LOG_LEVEL: logLevel,
    ...extraEnv,
    BRIDGE_BOOTSTRAP_CLIENT_ID: client.id,
    BRIDGE_BOOTSTRAP_CLIENT_SECRET: client.secret,
  };
  delete childEnv.DATABASE_URL;
  if (backend === 'postgres') childEnv.DATABASE_URL = target;
  else childEnv.BRIDGE_DATA_DIR = target;
  const execArgv = [
    ...NODE_FLAGS,
    ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir.pathname}`] : []),
  ];
  // The log (warnings only by default) is shown: a delivery problem should not go unseen.
  const child = spawn(process.execPath, [...execArgv, CLI, 'start'], { env: childEnv, stdio: 'inherit' });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let early: number | null | undefined;
  void exited.then((code) => {
    early = code;
  });
  for (let waited = 0; ; waited += 100) {
    if (early !== undefined) throw new Error(`service (${backend}) exited early: ${early}`);
    if (waited > 60_000) throw new Error(`service (${backend}) not ready after 60 s`);
    const ready = await fetch(`${url}/health/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    await sleep(100);
  }
  const basic = Buffer.from(`${client.id}:${client.secret}`).toString('base64');
  const answer = await fetch(`${url}/oauth/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  const { access_token: token } = (await answer.json()) as { access_token: string };
  return {
    url,
    pid: child.pid as number,
    token,
    stop: async () => {
      child.kill('SIGTERM'); // graceful: finishes sends in flight; lets --cpu-prof write its file
      await exited;
    },
  };
}

/** RSS of a process (VmRSS), MiB. */
export const readRss = (pid: number) =>
  Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024);

/**
 * RSS of a process every `sampleS` s until stopped: max, mean and the trend (least-squares slope)
 * of the samples from `warmupS` s on, in MiB per 10 minutes; flat when it adds less than 5 % of
 * the mean per 10 minutes.
 */
export function sampleRss(pid: number, { sampleS, warmupS }: { sampleS: number; warmupS: number }) {
  const startedAt = Date.now();
  const samples: { atS: number; rssMiB: number }[] = [];
  const read = () => samples.push({ atS: Math.round((Date.now() - startedAt) / 1000), rssMiB: readRss(pid) });
  read();
  const timer = setInterval(read, sampleS * 1000);
  return {
    stop: () => {
      clearInterval(timer);
      read();
      const steady = samples.filter((sample) => sample.atS >= warmupS);
      const n = steady.length;
      const meanX = steady.reduce((sum, s) => sum + s.atS, 0) / n;
      const meanY = steady.reduce((sum, s) => sum + s.rssMiB, 0) / n;
      const covariance = steady.reduce((sum, s) => sum + (s.atS - meanX) * (s.rssMiB - meanY), 0);
      const variance = steady.reduce((sum, s) => sum + (s.atS - meanX) ** 2, 0);
      const slopePerS = n >= 2 && variance > 0 ? covariance / variance : 0;
      const slopeMiBPer10Min = Number((slopePerS * 600).toFixed(1));
      const meanMiB = Math.round(meanY);
      return {
        samples,
        first: samples[0]?.rssMiB ?? 0,
        last: samples.at(-1)?.rssMiB ?? 0,
        maxMiB: Math.max(...samples.map((sample) => sample.rssMiB)),
        meanMiB,
        slopeMiBPer10Min,
        flat: slopeMiBPer10Min < 0.05 * meanMiB,
      };
    },
  };
}

/** The code measured: HEAD, and whether (and how) src/ differs from it. */
export function revision() {
  const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).trim();
  const diff = git('diff', 'HEAD', '--', 'src');
  return {
    commit: git('rev-parse', '--short', 'HEAD'),
    srcModified: diff !== '',
    srcDiffSha1: diff === '' ? null : createHash('sha1').update(diff).digest('hex').slice(0, 12),
  };
}
