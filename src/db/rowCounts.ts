// Maintained row counts (migration 016, docs/decisions/0008-maintained-counts.md): the totals of
// the tables that grow without bound are kept by the writing transactions, so a page's `total`
// costs a few rows at a million rows as at ten. Other filters still count the rows they match.
import type { Queryable } from './database.ts';

/**
 * The tables with maintained counts: `owner`, the owner column whose per-value counts are kept
 * (scope: the owner's id; migration 016), and `filters`, columns whose per-value counts are kept
 * (scope: `column=value`; migration 020). Must agree with the triggers (a test checks).
 */
export const MAINTAINED_COUNTS: Readonly<Record<string, { owner?: string; filters?: readonly string[] }>> = {
  events: {},
  production_orders: {},
  operations: { filters: ['operation_phase_id', 'workplace_id'] },
  recorded_time_series: { owner: 'device_id' },
  recorded_output_quantities: { owner: 'operation_id' },
  recorded_operating_states: { owner: 'workplace_id' },
  recorded_operation_phases: { owner: 'operation_id' },
  recorded_staff_activities: { owner: 'staff_member_id' },
  literals: {},
};

export interface CountedScope {
  table: string;
  /** '' for the whole table, the owner's id, or `column=value`. */
  scope: string;
}

/** `column = $1`, with or without the table's alias and a cast of the parameter. */
const equalsFirst = (condition: string, alias: string | undefined) => {
  const match = /^(?:(\w+)\.)?(\w+) = \$1(?:::\w+)?$/.exec(condition);
  if (!match || (match[1] !== undefined && match[1] !== alias)) return undefined;
  return match[2];
};

/**
 * The maintained count that answers `SELECT count(*) FROM <from> WHERE <where>`, if there is one:
 * no condition on a counted table, or only one of its counted columns equal to `$1`.
 */
export function countedScope(
  from: string,
  where: readonly string[],
  params: readonly unknown[],
): CountedScope | undefined {
  const [table, alias, ...rest] = from.trim().split(/\s+/);
  if (table === undefined || rest.length > 0 || !Object.hasOwn(MAINTAINED_COUNTS, table)) return undefined;
  if (where.length === 0) return { table, scope: '' };
  const [condition] = where;
  const column = where.length === 1 && condition !== undefined ? equalsFirst(condition, alias) : undefined;
  const counted = MAINTAINED_COUNTS[table];
  if (column === undefined || counted === undefined || typeof params[0] !== 'string') return undefined;
  // Ids are uuids, stored in their lower-case text form; other values as they are.
  if (column === counted.owner) return { table, scope: params[0].toLowerCase() };
  if (!counted.filters?.includes(column)) return undefined;
  const value =
    column.endsWith('_id') && /^[0-9a-f-]{36}$/i.test(params[0]) ? params[0].toLowerCase() : params[0];
  return { table, scope: `${column}=${value}` };
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
