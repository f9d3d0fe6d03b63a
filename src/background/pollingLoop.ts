// Background work as one concept: a loop that runs a cycle, then sleeps for an interval on an
// injected clock unless something woke it meanwhile. Delivery and the shift clock are two of these.
import type { Clock } from './clock.ts';

/** The part of a logger a loop needs (a Fastify logger is one). */
export interface LoopLogger {
  warn(details: object, message: string): void;
}

export interface PollingLoopOptions {
  /** Names the loop in log lines, e.g. 'delivery'. */
  name: string;
  intervalMs: number;
  clock: Clock;
  log: LoopLogger;
  /**
   * One round of work. A failure is logged and the loop goes on at the next interval. `signal`
   * aborts when the loop stops: a round that repeats itself (a full batch) should end then.
   */
  cycle: (signal: AbortSignal) => Promise<void>;
}

/** Why a sleep was cut short: woken for work, not an error. */
const WOKEN = 'woken';

export class PollingLoop {
  readonly #options: PollingLoopOptions;
  readonly #stopping = new AbortController();
  #running = false;
  #loop: Promise<void> | undefined;
  #sleep: AbortController | undefined;
  #pending = false;
  #waiting: (() => void)[] = [];
  #stopped: Promise<void> | undefined;

  constructor(options: PollingLoopOptions) {
    this.#options = options;
  }

  start(): void {
    if (this.#running || this.#stopping.signal.aborted) return;
    this.#running = true;
    this.#loop = this.#run();
  }

  /** Something changed: run a cycle now instead of at the end of the interval. */
  wake(): void {
    this.#pending = true;
    // With a reason: abort() without one builds a DOMException, and a busy delivery loop is
    // woken often enough that building one each time would show in its profile.
    this.#sleep?.abort(WOKEN);
  }

  /**
   * Wakes the loop; resolves once a cycle that began after this call has ended (at once when the
   * loop is not running). Lets a test that moved the clock wait for the loop to act on it.
   */
  nextCycle(): Promise<void> {
    if (!this.#running) return Promise.resolve();
    const done = new Promise<void>((resolve) => this.#waiting.push(resolve));
    this.wake();
    return done;
  }

  /** Stops the loop; resolves once the cycle in progress has ended. Idempotent. */
  stop(): Promise<void> {
    this.#stopped ??= this.#stop();
    return this.#stopped;
  }

  async #stop(): Promise<void> {
    this.#running = false;
    this.#stopping.abort();
    this.wake();
    await this.#loop;
  }

  async #run(): Promise<void> {
    const { clock, intervalMs, log, name, cycle } = this.#options;
    while (this.#running) {
      this.#pending = false;
      const waiting = this.#waiting;
      this.#waiting = [];
      try {
        await cycle(this.#stopping.signal);
      } catch (error) {
        log.warn({ err: error }, `${name} cycle failed; retrying`);
      }
      for (const resolve of waiting) resolve();
      if (!this.#pending && this.#running) {
        this.#sleep = new AbortController();
        await clock.sleep(intervalMs, this.#sleep.signal);
        this.#sleep = undefined;
      }
    }
    for (const resolve of this.#waiting.splice(0)) resolve();
  }
}
