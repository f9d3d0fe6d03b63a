// Maintained row counts (migration 016, docs/architecture.md "Maintained counts"): the totals of
// the tables that grow without bound are kept by the writing transactions, so a page's `total`
// costs a few rows at a million rows as at ten. Other filters still count the rows they match.
import type { Queryable } from './database.ts';

/**
 * The tables with maintained counts, and the owner column whose per-value counts are kept too
 * (null: the whole table only). Must agree with the triggers of migration 016 (a test checks).
 */
export const MAINTAINED_COUNTS: Readonly<Record<string, string | null>> = {
  events: null,
  production_orders: null,
  operations: null,
  recorded_time_series: 'device_id',
  recorded_output_quantities: 'operation_id',
  recorded_operating_states: 'workplace_id',
  recorded_operation_phases: 'operation_id',
  recorded_staff_activities: 'staff_member_id',
};

export interface CountedScope {
  table: string;
  /** '' for the whole table, else the owner's id. */
  scope: string;
}

/**
 * The maintained count that answers `SELECT count(*) FROM <from> WHERE <where>`, if there is one:
 * no condition on a counted table, or only its owner column equal to `$1`.
 */
export function countedScope(
  from: string,
  where: readonly string[],
  params: readonly unknown[],
): CountedScope | undefined {
  const [table, alias, ...rest] = from.trim().split(/\s+/);
  if (table === undefined || rest.length > 0 || !Object.hasOwn(MAINTAINED_COUNTS, table)) return undefined;
  if (where.length === 0) return { table, scope: '' };
  const owner = MAINTAINED_COUNTS[table];
  const [condition] = where;
  const ownerEquals = [`${owner} = $1`, `${alias}.${owner} = $1`];
  if (owner === null || where.length > 1 || condition === undefined || !ownerEquals.includes(condition))
    return undefined;
  // Owner ids are uuids, stored in their lower-case text form.
  return { table, scope: String(params[0]).toLowerCase() };
}

/** The sum of a count's shards. */
export async function readCount(db: Queryable, { table, scope }: CountedScope): Promise<number> {
  const [row] = await db.query<{ total: number }>(
    'SELECT coalesce(sum(n), 0)::int AS total FROM row_counts WHERE table_name = $1 AND scope = $2',
    [table, scope],
  );
  return row?.total ?? 0;
}

/**
 * Folds the shards of connections that have closed into shard 0 and drops counts that reached
 * zero (a deleted device's), so the shards stay as many as the open connections. Instances take
 * turns (an advisory lock); a shard still open is never touched, so no writer waits for this.
 */
export async function foldCounts(tx: Queryable): Promise<void> {
  const [turn] = await tx.query<{ mine: boolean }>(
    "SELECT pg_try_advisory_xact_lock(hashtext('bridge-row-counts')) AS mine",
  );
  if (!turn?.mine) return;
  await tx.query(
    `WITH closed AS (
       DELETE FROM row_counts WHERE shard <> 0
         AND shard <> pg_backend_pid() AND shard NOT IN (SELECT pid FROM pg_stat_activity WHERE pid IS NOT NULL)
       RETURNING table_name, scope, n)
     INSERT INTO row_counts AS r (table_name, scope, shard, n)
     SELECT table_name, scope, 0, sum(n) FROM closed GROUP BY table_name, scope
     ON CONFLICT (table_name, scope, shard) DO UPDATE SET n = r.n + excluded.n`,
  );
  await tx.query('DELETE FROM row_counts WHERE shard = 0 AND n = 0');
}
