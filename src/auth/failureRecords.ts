// What the token endpoint's guards remember per key (src/auth/limits.ts, src/auth/pairBackoff.ts):
// a record of its failures, forgotten once it expires or when too many keys are remembered.
import type { NowMs } from './limits.ts';

/**
 * Failure records by key, on the time `now` reads. A record that `expired` says is over (at the
 * given time) is forgotten when next read. At
 * most `maxKeys` keys are remembered (oldest written first out), so a flood of fresh keys cannot
 * grow memory without bound.
 */
export class FailureRecords<R> {
  readonly now: NowMs;
  readonly #expired: (record: R, now: number) => boolean;
  readonly #maxKeys: number;
  readonly #records = new Map<string, R>();

  constructor(now: NowMs, expired: (record: R, now: number) => boolean, maxKeys: number) {
    this.now = now;
    this.#expired = expired;
    this.#maxKeys = maxKeys;
  }

  /** The record of `key`, unless it has expired. */
  get(key: string): R | undefined {
    const record = this.#records.get(key);
    if (record !== undefined && this.#expired(record, this.now())) {
      this.#records.delete(key);
      return undefined;
    }
    return record;
  }

  /** Writes the record of `key` as the newest one. */
  set(key: string, record: R): void {
    this.#records.delete(key);
    if (this.#records.size >= this.#maxKeys) {
      const oldest = this.#records.keys().next().value;
      if (oldest !== undefined) this.#records.delete(oldest);
    }
    this.#records.set(key, record);
  }

  delete(key: string): void {
    this.#records.delete(key);
  }
}
