// The readiness probe's one statement.
import type { Queryable } from '../database.ts';

/** Resolves when the database answers a trivial query; rejects (timeout, unreachable) otherwise. */
export async function ping(db: Queryable): Promise<void> {
  await db.query('SELECT 1');
}
