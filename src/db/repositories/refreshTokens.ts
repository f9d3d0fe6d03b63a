import type { Queryable } from '../database.ts';

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
  await db.query(
    `INSERT INTO refresh_tokens (token_hash, chain_id, client_id, scopes, created_at, expires_at, used_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      token.tokenHash,
      token.chainId,
      token.clientId,
      token.scopes,
      token.createdAt,
      token.expiresAt,
      token.usedAt,
    ],
  );
}

export async function findRefreshToken(
  db: Queryable,
  tokenHash: string,
): Promise<RefreshTokenRow | undefined> {
  const rows = await db.query<Row>('SELECT * FROM refresh_tokens WHERE token_hash = $1', [tokenHash]);
  return rows[0] === undefined ? undefined : toToken(rows[0]);
}

/** Marks an unspent token spent; undefined when it was already spent (or is gone). */
export async function spendRefreshToken(
  db: Queryable,
  tokenHash: string,
  at: Date,
): Promise<RefreshTokenRow | undefined> {
  const rows = await db.query<Row>(
    'UPDATE refresh_tokens SET used_at = $2 WHERE token_hash = $1 AND used_at IS NULL RETURNING *',
    [tokenHash, at],
  );
  return rows[0] === undefined ? undefined : toToken(rows[0]);
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
