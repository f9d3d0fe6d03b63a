// The real `bridge` process for black-box tests: spawn it with chosen settings, watch its output,
// wait for conditions with bounded polling, and always clean up (processes and temp dirs).
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from './wait.ts';

export const ROOT = new URL('../../', import.meta.url).pathname;
const CLI = join(ROOT, 'src/cli/main.ts');

/** First starts on an empty PGlite data directory create a database: slow on a busy machine. */
export const START_TIMEOUT_MS = 90_000;

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface BridgeProcess {
  child: ChildProcess;
  pid: number;
  stdout(): string;
  stderr(): string;
  /** stdout and stderr together: what an operator would see (and what must hold no secrets). */
  output(): string;
  /** The JSON log lines (pino writes them to stdout); other lines are skipped. */
  logs(): Record<string, unknown>[];
  exited: Promise<Exit>;
  /** Resolves once 'Server listening at ...' is logged; rejects if the process exits first. */
  listening(timeoutMs?: number): Promise<string>;
  /** Waits until the exit, bounded (60 s by default: a busy machine is slow, a hang is not); SIGKILLs and throws when the bound is passed. */
  exit(timeoutMs?: number): Promise<Exit>;
}

const running = new Set<BridgeProcess>();
const tempDirs = new Set<string>();

/**
 * Spawns `node src/cli/main.ts <args>` with exactly `env` on top of PATH: nothing of the test
 * runner's own environment (DATABASE_URL, BRIDGE_*) leaks in. The embedded MQTT broker is off so
 * parallel test processes do not compete for port 1883, and the demo plant is off.
 */
export function spawnBridge(env: Record<string, string>, args: string[] = ['start']): BridgeProcess {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? '',
      BRIDGE_HOST: '127.0.0.1',
      BRIDGE_PORT: '0',
      BRIDGE_EMBEDDED_MQTT: 'off',
      // The first-start demo seeds and simulates (docs/demo.md): only test/api/demo.test.ts wants it.
      BRIDGE_DEMO: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    err += chunk;
  });
  const exited = new Promise<Exit>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal }));
  });
  const proc: BridgeProcess = {
    child,
    pid: child.pid ?? -1,
    stdout: () => out,
    stderr: () => err,
    output: () => `${out}\n${err}`,
    logs: () => parseLogLines(out),
    exited,
    async listening(timeoutMs = START_TIMEOUT_MS) {
      let url: string | undefined;
      await waitUntil(
        () => {
          url = /Server listening at (https?:\/\/[\d.]+:\d+)/.exec(out)?.[1];
          return url !== undefined;
        },
        { timeoutMs, what: 'the server to listen', process: proc },
      );
      return url as string;
    },
    async exit(timeoutMs = 60_000) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<'timeout'>((resolve) => {
        timer = setTimeout(() => resolve('timeout'), timeoutMs);
      });
      const result = await Promise.race([exited, timeout]);
      clearTimeout(timer);
      if (result === 'timeout') {
        child.kill('SIGKILL');
        throw new Error(`process ${proc.pid} did not exit within ${timeoutMs} ms\n${proc.output()}`);
      }
      return result;
    },
  };
  running.add(proc);
  void exited.then(() => running.delete(proc));
  return proc;
}

function parseLogLines(text: string): Record<string, unknown>[] {
  const lines: Record<string, unknown>[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      lines.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // a line still being written
    }
  }
  return lines;
}

/**
 * Polls `condition` until it holds; fails after `timeoutMs` (a bound against hanging, not a
 * timing assertion), or at once when the watched process has exited. (waitFor of ./wait.ts.)
 */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  options: { timeoutMs?: number; what: string; process?: BridgeProcess },
): Promise<void> {
  let gone = false;
  void options.process?.exited.then(() => {
    gone = true;
  });
  const watched = options.process;
  try {
    await waitFor(options.what, condition, {
      timeoutMs: options.timeoutMs ?? 60_000,
      intervalMs: 50,
      // One more look after the exit: what the process wrote before it went counts.
      giveUp: () => (gone ? 'process exited' : undefined),
    });
  } catch (error) {
    if (!watched) throw error;
    if (gone && (await condition())) return;
    throw new Error(`${(error as Error).message}\n--- process output ---\n${watched.output()}`);
  }
}

/** SIGKILLs every process still running; for `after` hooks, so a failed test leaves nothing behind. */
export async function killAll(): Promise<void> {
  const left = [...running];
  for (const proc of left) proc.child.kill('SIGKILL');
  await Promise.all(left.map((proc) => proc.exited));
}

/** A new empty temp directory, removed by removeTempDirs(). */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `bridge-${prefix}-`));
  tempDirs.add(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

/** What a finished `bridge` command gave back. */
export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `bridge <args>` to its end with only the given settings (nothing inherited from this process's BRIDGE_*). */
export function runBridge(env: Record<string, string>, ...args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['src/cli/main.ts', ...args], {
      cwd: ROOT,
      // No service answers at port 1: `bridge clients` then uses the database, whatever runs on 8080.
      env: {
        PATH: process.env.PATH ?? '',
        BRIDGE_LOG_LEVEL: 'silent',
        BRIDGE_SERVICE_URL: 'http://127.0.0.1:1',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
