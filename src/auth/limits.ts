// Guards of the token endpoint: a limit on failed attempts per key (a source address), and the
// error of a full hash queue (src/auth/fairHashBudget.ts).

/** Reads the time in milliseconds, like Date.now (the app derives it from its Clock); tests drive their own. */
export type NowMs = () => number;

interface Window {
  start: number;
  failures: number;
}

/**
 * At most `limit` failures per key in a fixed window of `windowMs`; a key over it waits until its
 * window ends. Only failures are counted, so a client that authenticates is never slowed.
 * At most `maxKeys` keys are remembered (oldest dropped first), so a flood of fresh ids cannot
 * grow memory without bound.
 */
export class FailureLimiter {
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #now: NowMs;
  readonly #maxKeys: number;
  readonly #windows = new Map<string, Window>();

  constructor(limit: number, windowMs: number, now: NowMs = Date.now, maxKeys = 100_000) {
    this.#limit = limit;
    this.#windowMs = windowMs;
    this.#now = now;
    this.#maxKeys = maxKeys;
  }

  /** Whole seconds until `key` may try again; 0 when it may now. */
  retryAfter(key: string): number {
    const window = this.#current(key);
    if (!window || window.failures < this.#limit) return 0;
    return Math.max(1, Math.ceil((window.start + this.#windowMs - this.#now()) / 1000));
  }

  fail(key: string): void {
    const window = this.#current(key);
    if (window) {
      window.failures += 1;
      return;
    }
    if (this.#windows.size >= this.#maxKeys) {
      const oldest = this.#windows.keys().next().value;
      if (oldest !== undefined) this.#windows.delete(oldest);
    }
    this.#windows.set(key, { start: this.#now(), failures: 1 });
  }

  reset(key: string): void {
    this.#windows.delete(key);
  }

  #current(key: string): Window | undefined {
    const window = this.#windows.get(key);
    if (window && window.start + this.#windowMs <= this.#now()) {
      this.#windows.delete(key);
      return undefined;
    }
    return window;
  }
}

export class QueueFullError extends Error {}
