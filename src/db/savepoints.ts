// Work that must commit or roll back with an enclosing transaction, though it was written to open
// its own (a service's write called by a command, docs/resources/commands.md).
import type { Database, Queryable } from './database.ts';

let counter = 0;

/** Runs `work` in a savepoint of `tx`: its writes are undone when it throws, and `tx` stays usable. */
export async function inSavepoint<T>(tx: Queryable, work: () => Promise<T>): Promise<T> {
  counter = (counter + 1) % 1_000_000;
  const name = `work_${counter}`;
  await tx.query(`SAVEPOINT ${name}`);
  try {
    const result = await work();
    await tx.query(`RELEASE SAVEPOINT ${name}`);
    return result;
  } catch (error) {
    // The connection may be gone with the transaction; the first error is the one to report.
    await tx.query(`ROLLBACK TO SAVEPOINT ${name}`).catch(() => undefined);
    throw error;
  }
}

/**
 * `db` as seen from inside the transaction `tx`: statements run in `tx`, and the transactions
 * opened on it are savepoints of `tx`, so they commit only when `tx` does.
 */
export function insideTransaction(db: Database, tx: Queryable): Database {
  return {
    kind: db.kind,
    query: (sql, params) => tx.query(sql, params),
    exec: () => Promise.reject(new Error('no migrations inside a transaction')),
    transaction: (work) => inSavepoint(tx, () => work(tx)),
    close: () => Promise.reject(new Error('the enclosing transaction owns the connection')),
  };
}
