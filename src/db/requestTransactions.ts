// A transaction that spans a whole request (docs/api.md, "Retried writes"). While a request that
// carries an Idempotency-Key runs, every statement of the code it calls goes into one
// transaction, which commits together with the request's stored answer: either both are written
// or neither. Transactions that code opens inside it become savepoints. The scope is the
// request's asynchronous context; work outside it (background loops, other requests) uses the
// database as usual.
import { AsyncLocalStorage } from 'node:async_hooks';
import { type Database, DatabaseTimeoutError, type Queryable } from './database.ts';

interface Scope {
  tx: Queryable;
  /**
   * open: the request's statements go into `tx`. done: the request's code has finished and the
   * commit alone uses `tx`. abandoned: rolled back while the request's code may still run; its
   * statements fail rather than be written outside the transaction.
   */
  state: 'open' | 'done' | 'abandoned';
  savepoints: number;
  limitMs: number;
}

export interface RequestTransaction {
  /** Runs `fn`, and everything it starts, with its statements inside the transaction. */
  run(fn: () => void): void;
  /** Runs `last` inside the transaction, then commits; rejects when either fails (rolled back). */
  commit(last: (tx: Queryable) => Promise<void>): Promise<void>;
  /** Rolls back; never rejects. */
  rollback(): Promise<void>;
}

export interface RequestTransactions extends Database {
  /** Opens a transaction; rolled back if neither committed nor rolled back within `limitMs`. */
  begin(limitMs: number): Promise<RequestTransaction>;
}

/** A statement of a request whose transaction was rolled back because it took too long (504). */
class AbandonedTransactionError extends DatabaseTimeoutError {}

const scopes = new AsyncLocalStorage<Scope>();
const ROLLED_BACK = Symbol('rolled back');

type Outcome = { commit: true; last: (tx: Queryable) => Promise<void> } | { commit: false };

/** `db` with request-wide transactions; the same object when it has them already. */
export function withRequestTransactions(db: Database): RequestTransactions {
  if ('begin' in db) return db as RequestTransactions;
  const current = () => {
    const scope = scopes.getStore();
    if (scope?.state === 'abandoned') throw new AbandonedTransactionError(scope.limitMs);
    return scope?.state === 'open' ? scope : undefined;
  };
  return {
    kind: db.kind,
    query: async (sql, params) => (current()?.tx ?? db).query(sql, params),
    exec: (sql) => db.exec(sql),
    transaction: async (work) => {
      const scope = current();
      if (!scope) return db.transaction(work);
      scope.savepoints += 1;
      const name = `request_savepoint_${scope.savepoints}`;
      await scope.tx.query(`SAVEPOINT ${name}`);
      try {
        const result = await work(scope.tx);
        await scope.tx.query(`RELEASE SAVEPOINT ${name}`);
        return result;
      } catch (error) {
        // The transaction may be gone with the connection; the first error is the one to report.
        await scope.tx.query(`ROLLBACK TO SAVEPOINT ${name}`).catch(() => undefined);
        throw error;
      }
    },
    ...(db.poolStats ? { poolStats: () => db.poolStats?.() } : {}),
    ...(db.separate
      ? { separate: (poolSize: number) => (db.separate as (n: number) => Database)(poolSize) }
      : {}),
    close: () => db.close(),
    begin: (limitMs) => begin(db, limitMs),
  };
}

async function begin(db: Database, limitMs: number): Promise<RequestTransaction> {
  let end!: (outcome: Outcome) => void;
  const ended = new Promise<Outcome>((resolve) => {
    end = resolve;
  });
  let started!: (tx: Queryable) => void;
  const ready = new Promise<Queryable>((resolve) => {
    started = resolve;
  });
  const finished = db.transaction(async (tx) => {
    started(tx);
    const outcome = await ended;
    if (!outcome.commit) throw ROLLED_BACK;
    await outcome.last(tx);
  });
  // Failing to open (the database is away) rejects here; the request answers 503.
  const tx = await Promise.race([
    ready,
    finished.then(() => {
      throw new Error('the request transaction ended before it began');
    }),
  ]);
  const scope: Scope = { tx, state: 'open', savepoints: 0, limitMs };
  let settled = false;
  const close = (outcome: Outcome, state: Scope['state']) => {
    clearTimeout(limit);
    if (!settled) {
      scope.state = state;
      end(outcome);
    }
    settled = true;
    return finished;
  };
  // A request that never answers must not hold a connection (PGlite's only one) for ever.
  const limit = setTimeout(() => {
    close({ commit: false }, 'abandoned').catch(() => undefined);
  }, limitMs);
  limit.unref();
  return {
    run: (fn) => scopes.run(scope, fn),
    commit: (last) => close({ commit: true, last }, 'done'),
    rollback: () => close({ commit: false }, 'done').catch(() => undefined),
  };
}
