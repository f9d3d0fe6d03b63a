// Several writes in one round trip (docs/decisions/0009-writes-in-one-round-trip.md): the
// statements a write makes after its reads are sent as one statement of data-modifying CTEs, so a
// command costs one round trip for all of them instead of one each. Each database round trip costs
// the service a socket write and a wake-up of the server, the largest part of a command's work.
import type { Queryable } from './database.ts';

interface Statement {
  sql: string;
  params: readonly unknown[];
}

const WRITE = /^\s*(INSERT|UPDATE|DELETE)\b/i;

/**
 * Runs the writes `work` makes through `batch` as one statement on `tx`. The writes are collected
 * (each `batch.query` resolves at once with no rows) and sent when `work` has returned; an error
 * of any of them rejects this call.
 *
 * What may go through `batch`, as PostgreSQL runs data-modifying CTEs: INSERT, UPDATE or DELETE
 * without RETURNING, each blind to the others' effects (one snapshot), in no set order, and never
 * two writes of the same row. So: several events go in one `appendEvents`, whose rows are
 * numbered in the order given; a write whose error the caller maps (a duplicate number) stays out.
 */
export async function inOneStatement(
  tx: Queryable,
  work: (batch: Queryable) => Promise<void>,
): Promise<void> {
  const statements: Statement[] = [];
  await work({
    async query<Row>(sql: string, params: readonly unknown[] = []): Promise<Row[]> {
      if (!WRITE.test(sql) || /\bRETURNING\b/i.test(sql)) {
        throw new Error(`inOneStatement takes writes without RETURNING only: ${sql.slice(0, 60)}`);
      }
      statements.push({ sql, params });
      return [];
    },
  });
  const last = statements.pop();
  if (last === undefined) return;
  const params: unknown[] = [];
  // Each statement's $n become $(n + the parameters before it). Repository SQL has no `$` in literals.
  const renumbered = ({ sql, params: own }: Statement) => {
    const offset = params.length;
    params.push(...own);
    return sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`);
  };
  const ctes = statements.map((statement, index) => `w${index} AS (${renumbered(statement)})`);
  const main = renumbered(last);
  await tx.query(ctes.length === 0 ? main : `WITH ${ctes.join(', ')} ${main}`, params);
}
