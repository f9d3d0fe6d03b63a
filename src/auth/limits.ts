// Guards of the token endpoint: a limit on failed attempts per key (a source address), and the
// error of a full hash queue (src/auth/fairHashBudget.ts).

import { FailureRecords } from './failureRecords.ts';

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
export class FailureLimiter {
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #windows: FailureRecords<Window>;

  constructor(limit: number, windowMs: number, now: NowMs = Date.now, maxKeys = 100_000) {
    this.#limit = limit;
    this.#windowMs = windowMs;
    this.#windows = new FailureRecords(now, (window, at) => window.start + windowMs <= at, maxKeys);
  }

  /** Whole seconds until `key` may try again; 0 when it may now. */
  retryAfter(key: string): number {
    const window = this.#windows.get(key);
    if (!window || window.failures < this.#limit) return 0;
    return Math.max(1, Math.ceil((window.start + this.#windowMs - this.#windows.now()) / 1000));
  }

  fail(key: string): void {
    const window = this.#windows.get(key);
    if (window) window.failures += 1;
    else this.#windows.set(key, { start: this.#windows.now(), failures: 1 });
  }

  reset(key: string): void {
    this.#windows.delete(key);
  }
}

export class QueueFullError extends Error {}
