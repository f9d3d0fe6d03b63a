// Backoff for failed client authentications per (client id, source address) pair. Someone who
// guesses a client's secret slows down only their own pair: the client at its own address is not
// affected, so knowing a client id is not enough to lock it out. The wait is bounded.
import { FailureRecords } from './failureRecords.ts';
import type { NowMs } from './limits.ts';

interface Failures {
  count: number;
  last: number;
}

export class PairBackoff {
  readonly #free: number;
  readonly #maxMs: number;
  readonly #pairs: FailureRecords<Failures>;

  /**
   * `free` failures cost nothing; each further one doubles the wait, from 1 s up to `maxSeconds`.
   * A pair is forgotten once it has not failed for twice the longest wait.
   */
  constructor(free: number, maxSeconds: number, now: NowMs = Date.now, maxKeys = 100_000) {
    this.#free = free;
    this.#maxMs = maxSeconds * 1000;
    this.#pairs = new FailureRecords(now, (failures, at) => at - failures.last > 2 * this.#maxMs, maxKeys);
  }

  /** Whole seconds until the pair may try again; 0 when it may now. */
  retryAfter(clientId: string, address: string): number {
    const failures = this.#pairs.get(keyOf(clientId, address));
    if (failures === undefined || failures.count < this.#free) return 0;
    const waitMs = Math.min(this.#maxMs, 1000 * 2 ** (failures.count - this.#free));
    const left = failures.last + waitMs - this.#pairs.now();
    return left > 0 ? Math.ceil(left / 1000) : 0;
  }

  fail(clientId: string, address: string): void {
    const key = keyOf(clientId, address);
    const failures = this.#pairs.get(key);
    this.#pairs.set(key, { count: (failures?.count ?? 0) + 1, last: this.#pairs.now() });
  }

  reset(clientId: string, address: string): void {
    this.#pairs.delete(keyOf(clientId, address));
  }
}

const keyOf = (clientId: string, address: string) => `${address.length}:${address}:${clientId}`;
