// Retried POSTs (docs/api.md, "Retried writes"): a client that sends an Idempotency-Key gets, for
// a day, the first answer to that key again instead of a second write. The answer is stored in the
// transaction of the write (src/db/requestTransactions.ts), so a write whose answer was lost (a
// cut connection, a 503 after the commit) is found by its retry.
import { type Database, isUniqueViolation } from '../db/database.ts';
import {
  findStoredAnswer,
  insertStoredAnswer,
  type StoredAnswer,
} from '../db/repositories/idempotencyKeyRepository.ts';
import {
  type RequestTransaction,
  type RequestTransactions,
  withRequestTransactions,
} from '../db/requestTransactions.ts';

export type { StoredAnswer };
/** A request's writes, open until committed with its answer or rolled back. */
export type OpenWrite = RequestTransaction;

/** How long a key's answer is kept and given again. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;

export type Commit =
  | { stored: true }
  /** Another request with the key committed first: its answer. */
  | { stored: false; first: StoredAnswer | undefined };

export class IdempotentWrites {
  /** The database the API's code uses: its statements join a request's transaction when one is open. */
  readonly database: Database;
  readonly #db: RequestTransactions;
  readonly #now: () => number;

  readonly #limitMs: number;

  /** `limitMs`: how long a request's transaction may stay open before it is rolled back. */
  constructor(db: Database, limitMs: number, now: () => number = Date.now) {
    this.#db = withRequestTransactions(db);
    this.database = this.#db;
    this.#limitMs = limitMs;
    this.#now = now;
  }

  /** The stored answer to the client's key, when one is younger than a day. */
  find(clientId: string, key: string): Promise<StoredAnswer | undefined> {
    return findStoredAnswer(this.#db, clientId, key, this.#oldest());
  }

  /** Opens the transaction the request's writes go into. */
  begin(): Promise<RequestTransaction> {
    return this.#db.begin(this.#limitMs);
  }

  /**
   * Stores the answer and commits the request's writes with it. When a concurrent request with the
   * same key stored its answer first, nothing of this one is kept and that answer is returned.
   */
  async commit(
    transaction: RequestTransaction,
    clientId: string,
    key: string,
    answer: StoredAnswer,
  ): Promise<Commit> {
    const now = this.#now();
    try {
      await transaction.commit((tx) =>
        insertStoredAnswer(tx, clientId, key, answer, new Date(now), this.#oldest()),
      );
      return { stored: true };
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      return { stored: false, first: await this.find(clientId, key) };
    }
  }

  #oldest(): Date {
    return new Date(this.#now() - IDEMPOTENCY_KEY_TTL_MS);
  }
}
