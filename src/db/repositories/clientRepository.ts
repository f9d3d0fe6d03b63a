import type { Queryable } from '../database.ts';

export interface OAuthClient {
  clientId: string;
  name: string;
  secretHash: string;
  scopes: string[];
  createdAt: Date;
}

interface Row {
  client_id: string;
  name: string;
  secret_hash: string;
  scopes: string[];
  created_at: Date;
}

const toClient = (row: Row): OAuthClient => ({
  clientId: row.client_id,
  name: row.name,
  secretHash: row.secret_hash,
  scopes: row.scopes,
  createdAt: row.created_at,
});

export async function findClient(db: Queryable, clientId: string): Promise<OAuthClient | undefined> {
  const rows = await db.query<Row>('SELECT * FROM oauth_clients WHERE client_id = $1', [clientId]);
  return rows[0] === undefined ? undefined : toClient(rows[0]);
}

export async function listClients(db: Queryable): Promise<OAuthClient[]> {
  return (await db.query<Row>('SELECT * FROM oauth_clients ORDER BY created_at, client_id')).map(toClient);
}

export async function countClients(db: Queryable): Promise<number> {
  const [row] = await db.query<{ total: number }>('SELECT count(*)::int AS total FROM oauth_clients');
  return row?.total ?? 0;
}

/** Inserts the client, or replaces its secret and scopes when the id exists (bootstrap settings). */
export async function upsertClient(db: Queryable, client: OAuthClient): Promise<void> {
  await db.query(
    `INSERT INTO oauth_clients (client_id, name, secret_hash, scopes, created_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (client_id) DO UPDATE SET secret_hash = EXCLUDED.secret_hash, scopes = EXCLUDED.scopes`,
    [client.clientId, client.name, client.secretHash, client.scopes, client.createdAt],
  );
}

export async function insertClient(db: Queryable, client: OAuthClient): Promise<void> {
  await db.query(
    'INSERT INTO oauth_clients (client_id, name, secret_hash, scopes, created_at) VALUES ($1, $2, $3, $4, $5)',
    [client.clientId, client.name, client.secretHash, client.scopes, client.createdAt],
  );
}

export async function deleteClient(db: Queryable, clientId: string): Promise<boolean> {
  const rows = await db.query('DELETE FROM oauth_clients WHERE client_id = $1 RETURNING client_id', [
    clientId,
  ]);
  return rows.length > 0;
}

/** The named signing key, created on first use; concurrent first starts agree on one key. */
export async function signingKey(db: Queryable, name: string, candidate: string): Promise<string> {
  await db.query(
    'INSERT INTO signing_keys (name, secret, created_at) VALUES ($1, $2, now()) ON CONFLICT (name) DO NOTHING',
    [name, candidate],
  );
  const [row] = await db.query<{ secret: string }>('SELECT secret FROM signing_keys WHERE name = $1', [name]);
  if (!row) throw new Error(`signing key ${name} missing after insert`);
  return row.secret;
}

/** A page of clients in the order `clients list` shows them. */
export async function listClientsPage(
  db: Queryable,
  page: { limit: number; offset: number },
): Promise<{ items: OAuthClient[]; total: number }> {
  const rows = await db.query<Row>(
    'SELECT * FROM oauth_clients ORDER BY created_at, client_id LIMIT $1 OFFSET $2',
    [page.limit, page.offset],
  );
  return { items: rows.map(toClient), total: await countClients(db) };
}
