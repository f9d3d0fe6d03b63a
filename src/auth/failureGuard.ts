// What the token endpoint's guards share (src/auth/limits.ts, src/auth/pairBackoff.ts): a record
// of each key's failures, the wait those failures earn, and forgetting: a record is forgotten
// once it expires or when too many keys are remembered.
import type { NowMs } from './limits.ts';

/** How a guard counts a key's failures and how long they make it wait. */
export interface FailurePolicy<R> {
  /** The record after one more failure at `now`; `record` is undefined at a key's first. */
  fail: (record: R | undefined, now: number) => R;
  /** When the key may try again, in milliseconds on the guard's clock (past: now). */
  retryAt: (record: R) => number;
  /** Whether the record is over at `now`: the key is forgotten. */
  expired: (record: R, now: number) => boolean;
}

/**
 * Failures by key, on the time `now` reads. At most `maxKeys` keys are remembered (oldest written
 * first out), so a flood of fresh keys cannot grow memory without bound.
 */
export class FailureGuard<R> {
  readonly #policy: FailurePolicy<R>;
  readonly #now: NowMs;
  readonly #maxKeys: number;
  readonly #records = new Map<string, R>();

  constructor(policy: FailurePolicy<R>, now: NowMs, maxKeys: number) {
    this.#policy = policy;
    this.#now = now;
    this.#maxKeys = maxKeys;
  }

  /** Whole seconds until `key` may try again; 0 when it may now. */
  retryAfter(key: string): number {
    const record = this.#get(key);
    if (record === undefined) return 0;
    const left = this.#policy.retryAt(record) - this.#now();
    return left > 0 ? Math.ceil(left / 1000) : 0;
  }

  fail(key: string): void {
    const record = this.#policy.fail(this.#get(key), this.#now());
    this.#records.delete(key);
    if (this.#records.size >= this.#maxKeys) {
      const oldest = this.#records.keys().next().value;
      if (oldest !== undefined) this.#records.delete(oldest);
    }
    this.#records.set(key, record);
  }

  reset(key: string): void {
    this.#records.delete(key);
  }

  /** The record of `key`, unless it has expired. */
  #get(key: string): R | undefined {
    const record = this.#records.get(key);
    if (record !== undefined && this.#policy.expired(record, this.#now())) {
      this.#records.delete(key);
      return undefined;
    }
    return record;
  }
}
