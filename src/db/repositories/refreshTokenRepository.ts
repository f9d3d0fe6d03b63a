import type { Queryable } from '../database.ts';
import { firstItem, insertRow } from '../table.ts';

export interface RefreshTokenRow {
  tokenHash: string;
  chainId: string;
  clientId: string;
  scopes: string[];
  createdAt: Date;
  expiresAt: Date;
  usedAt: Date | null;
}

interface Row {
  token_hash: string;
  chain_id: string;
  client_id: string;
  scopes: string[];
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

const toToken = (row: Row): RefreshTokenRow => ({
  tokenHash: row.token_hash,
  chainId: row.chain_id,
  clientId: row.client_id,
  scopes: row.scopes,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
  usedAt: row.used_at,
});

export async function insertRefreshToken(db: Queryable, token: RefreshTokenRow): Promise<void> {
  await insertRow(db, 'refresh_tokens', {
    token_hash: token.tokenHash,
    chain_id: token.chainId,
    client_id: token.clientId,
    scopes: token.scopes,
    created_at: token.createdAt,
    expires_at: token.expiresAt,
    used_at: token.usedAt,
  });
}

export async function findRefreshToken(
  db: Queryable,
  tokenHash: string,
): Promise<RefreshTokenRow | undefined> {
  return firstItem(db, 'SELECT * FROM refresh_tokens WHERE token_hash = $1', [tokenHash], toToken);
}

/** Marks an unspent token spent; undefined when it was already spent (or is gone). */
export async function spendRefreshToken(
  db: Queryable,
  tokenHash: string,
  at: Date,
): Promise<RefreshTokenRow | undefined> {
  return firstItem(
    db,
    'UPDATE refresh_tokens SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL RETURNING *',
    [tokenHash, at],
    toToken,
  );
}

export async function deleteRefreshTokenChain(db: Queryable, chainId: string): Promise<number> {
  const rows = await db.query('DELETE FROM refresh_tokens WHERE chain_id = $1 RETURNING token_hash', [
    chainId,
  ]);
  return rows.length;
}

export async function deleteExpiredRefreshTokens(db: Queryable, now: Date): Promise<void> {
  await db.query('DELETE FROM refresh_tokens WHERE expires_at < $1', [now]);
}

export async function countRefreshTokens(db: Queryable, clientId: string): Promise<number> {
  const [row] = await db.query<{ total: number }>(
    'SELECT count(*)::int AS total FROM refresh_tokens WHERE client_id = $1',
    [clientId],
  );
  return row?.total ?? 0;
}
