// Guards of the token endpoint: a limit on failed attempts per key (a source address), and the
// error of a full hash queue (src/auth/fairHashBudget.ts).

import { FailureGuard } from './failureGuard.ts';

/** Reads the time in milliseconds, like Date.now (the app derives it from its Clock); tests drive their own. */
export type NowMs = () => number;

interface Window {
  start: number;
  failures: number;
}

/**
 * At most `limit` failures per key in a fixed window of `windowMs`; a key over it waits until its
 * window ends. Only failures are counted, so a client that authenticates is never slowed.
 */
export const failureLimiter = (limit: number, windowMs: number, now: NowMs = Date.now, maxKeys = 100_000) =>
  new FailureGuard<Window>(
    {
      fail: (window, at) =>
        window === undefined ? { start: at, failures: 1 } : { ...window, failures: window.failures + 1 },
      retryAt: (window) => (window.failures < limit ? 0 : window.start + windowMs),
      expired: (window, at) => window.start + windowMs <= at,
    },
    now,
    maxKeys,
  );

export class QueueFullError extends Error {}
