// Where background work gets the time from. Production runs on the system clock; tests pass a
// ManualClock and move it, so a retry 10 s away or a shift ending in an hour is due at once,
// without waiting in real time.

export interface Clock {
  now(): Date;
  /** Resolves once `ms` have passed on this clock, or at once when `signal` aborts. Never rejects. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => new Date(),
  sleep(ms, signal) {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
    });
  },
};

interface Sleeper {
  until: number;
  resolve: () => void;
}

/** A clock that stands still until the test moves it; moving it ends the sleeps now due. */
export class ManualClock implements Clock {
  #now: number;
  #sleepers = new Set<Sleeper>();

  constructor(start: Date = new Date()) {
    this.#now = start.getTime();
  }

  now(): Date {
    return new Date(this.#now);
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (ms <= 0 || signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const sleeper: Sleeper = {
        until: this.#now + ms,
        resolve: () => {
          this.#sleepers.delete(sleeper);
          signal?.removeEventListener('abort', sleeper.resolve);
          resolve();
        },
      };
      this.#sleepers.add(sleeper);
      signal?.addEventListener('abort', sleeper.resolve, { once: true });
    });
  }

  advance(ms: number): void {
    if (ms < 0) throw new RangeError('a clock does not run backwards');
    this.set(new Date(this.#now + ms));
  }

  /** Moves the clock to `time` (never backwards). */
  set(time: Date): void {
    if (time.getTime() < this.#now) throw new RangeError('a clock does not run backwards');
    this.#now = time.getTime();
    for (const sleeper of [...this.#sleepers]) if (sleeper.until <= this.#now) sleeper.resolve();
  }
}
