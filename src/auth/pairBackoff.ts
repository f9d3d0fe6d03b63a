// Backoff for failed client authentications per (client id, source address) pair. Someone who
// guesses a client's secret slows down only their own pair: the client at its own address is not
// affected, so knowing a client id is not enough to lock it out. The wait is bounded.
import { FailureGuard } from './failureGuard.ts';
import type { NowMs } from './limits.ts';

interface Failures {
  count: number;
  last: number;
}

/**
 * `free` failures cost nothing; each further one doubles the wait, from 1 s up to `maxSeconds`.
 * A pair (its key `pairKey`) is forgotten once it has not failed for twice the longest wait.
 */
export function pairBackoff(free: number, maxSeconds: number, now: NowMs = Date.now, maxKeys = 100_000) {
  const maxMs = maxSeconds * 1000;
  return new FailureGuard<Failures>(
    {
      fail: (failures, at) => ({ count: (failures?.count ?? 0) + 1, last: at }),
      retryAt: (failures) =>
        failures.count < free ? 0 : failures.last + Math.min(maxMs, 1000 * 2 ** (failures.count - free)),
      expired: (failures, at) => at - failures.last > 2 * maxMs,
    },
    now,
    maxKeys,
  );
}

/** The key of a (client id, address) pair: lengths first, so no pair's key is another's or a bare client id. */
export const pairKey = (clientId: string, address: string) => `${address.length}:${address}:${clientId}`;
