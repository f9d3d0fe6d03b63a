// What this run covers. `npm test` is the fast suite; `npm run test:all` (BRIDGE_TEST_FULL=1, what
// CI runs) adds the fault runs and the long sweeps. Tests that need a service the README does not
// ask a user to install skip with a one-line reason when it is absent, and fail when CI=true.
import { execFileSync } from 'node:child_process';
import { connect } from 'node:net';
import { BACKENDS, type Backend } from './databases.ts';

export const CI = process.env.CI === 'true';

/** The full suite: fault runs and long sweeps too (BRIDGE_TEST_FULL=1, `npm run test:all`). */
export const FULL = process.env.BRIDGE_TEST_FULL === '1';

/** A `skip` option for what only the full suite runs: false when it runs, else the reason. */
export function fullOnly(what: string): false | string {
  return FULL ? false : `${what}: full suite only (npm run test:all)`;
}

/**
 * A `skip` option for a test that needs `service`: false when it is available, else a one-line
 * reason (`hint` says how to get it). With CI=true a missing service is an error, not a skip.
 */
export function needs(service: string, available: boolean, hint: string): false | string {
  if (available) return false;
  const reason = `${service} not available (${hint})`;
  if (CI) throw new Error(`CI=true, and ${reason}: CI needs it`);
  return reason;
}

/** Whether something accepts TCP connections on 127.0.0.1:`port` (bounded by `timeoutMs`). */
export function portOpen(port: number, timeoutMs = 1500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.setTimeout(timeoutMs, () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Whether `command` is on the PATH. */
export function commandExists(command: string): boolean {
  try {
    execFileSync('sh', ['-c', 'command -v "$0"', command], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * A `skip` reason for a long sweep on `backend`: the fast suite sweeps one backend (PostgreSQL
 * when reachable, else PGlite), the full suite every one.
 */
export function sweepSkip(backend: Backend): false | string {
  if (FULL || backend === BACKENDS.at(-1)) return false;
  return `the sweep runs on ${BACKENDS.at(-1)} in the fast suite; on every backend in the full suite (npm run test:all)`;
}
