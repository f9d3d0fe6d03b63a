// Guards of the token endpoint: a limit on failed attempts per key (client id, source address)
// and a semaphore that bounds how many secret hashes run at once.

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

/** Runs at most `limit` tasks at once; up to `maxWaiting` more wait in order, beyond that QueueFullError. */
export class Semaphore {
  readonly #limit: number;
  readonly #maxWaiting: number;
  readonly #waiting: (() => void)[] = [];
  #running = 0;

  constructor(limit: number, maxWaiting: number) {
    this.#limit = limit;
    this.#maxWaiting = maxWaiting;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.#running >= this.#limit) {
      if (this.#waiting.length >= this.#maxWaiting) throw new QueueFullError('all hash slots are busy');
      // The slot is handed over by the task that ends, so #running stays counted.
      await new Promise<void>((resolve) => this.#waiting.push(resolve));
    } else {
      this.#running += 1;
    }
    try {
      return await task();
    } finally {
      const next = this.#waiting.shift();
      if (next) next();
      else this.#running -= 1;
    }
  }
}
