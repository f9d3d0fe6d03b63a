// Stored first answers to POSTs that carried an Idempotency-Key (migration 025).
import type { Queryable } from '../database.ts';

export interface StoredAnswer {
  fingerprint: string;
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

export async function findStoredAnswer(
  db: Queryable,
  clientId: string,
  key: string,
  notBefore: Date,
): Promise<StoredAnswer | undefined> {
  const [row] = await db.query<StoredAnswer>(
    `SELECT fingerprint, status, headers, body FROM idempotency_keys
     WHERE client_id = $1 AND key = $2 AND created_at >= $3`,
    [clientId, key, notBefore],
  );
  return row;
}

/**
 * Stores the answer in the transaction of the write it answers. A row of the same key older than
 * `notBefore` has expired and is replaced; a current one makes this a unique violation.
 */
export async function insertStoredAnswer(
  tx: Queryable,
  clientId: string,
  key: string,
  answer: StoredAnswer,
  now: Date,
  notBefore: Date,
): Promise<void> {
  await tx.query('DELETE FROM idempotency_keys WHERE client_id = $1 AND key = $2 AND created_at < $3', [
    clientId,
    key,
    notBefore,
  ]);
  await tx.query(
    `INSERT INTO idempotency_keys (client_id, key, fingerprint, status, headers, body, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [clientId, key, answer.fingerprint, answer.status, JSON.stringify(answer.headers), answer.body, now],
  );
}

/** Deletes up to `limit` answers stored before `before`; the count deleted. */
export async function pruneStoredAnswers(db: Queryable, before: Date, limit: number): Promise<number> {
  const [row] = await db.query<{ deleted: number }>(
    `WITH deleted AS (
       DELETE FROM idempotency_keys WHERE (client_id, key) IN (
         SELECT client_id, key FROM idempotency_keys WHERE created_at < $1
         ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING 1)
     SELECT count(*)::int AS deleted FROM deleted`,
    [before, limit],
  );
  return row?.deleted ?? 0;
}
