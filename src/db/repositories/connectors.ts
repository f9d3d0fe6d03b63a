// Connectors: their configuration, the status their running instance reports, and the lease that
// says which instance runs each one (docs/resources/connectors.md, "Ownership").
import type {
  Connector,
  ConnectorState,
  ConnectorType,
  Mapping,
  SecurityMode,
} from '../../domain/connectors.ts';
import { isUuid } from '../../domain/ids.ts';
import type { Queryable } from '../database.ts';
import { countRows, type OffsetPage, type OffsetRequest } from '../paging.ts';

interface Row {
  id: string;
  name: string;
  type: ConnectorType;
  url: string;
  username: string | null;
  password: string | null;
  security_mode: SecurityMode;
  enabled: boolean;
  mappings: Mapping[] | string;
  revision: number;
  state: ConnectorState;
  state_since: Date;
  last_error: string | null;
  last_message_at: Date | null;
  messages_received: string | number;
  values_applied: string | number;
  values_rejected: string | number;
  created_at: Date;
  updated_at: Date;
}

const toConnector = (row: Row): Connector => ({
  id: row.id,
  name: row.name,
  type: row.type,
  url: row.url,
  username: row.username,
  password: row.password,
  securityMode: row.security_mode,
  enabled: row.enabled,
  mappings: typeof row.mappings === 'string' ? JSON.parse(row.mappings) : row.mappings,
  revision: row.revision,
  status: {
    state: row.state,
    since: row.state_since,
    lastError: row.last_error,
    lastMessageAt: row.last_message_at,
    messagesReceived: Number(row.messages_received),
    valuesApplied: Number(row.values_applied),
    valuesRejected: Number(row.values_rejected),
  },
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

export async function listConnectors(db: Queryable, page: OffsetRequest): Promise<OffsetPage<Connector>> {
  const rows = await db.query<Row>('SELECT * FROM connectors ORDER BY name, id LIMIT $1 OFFSET $2', [
    page.limit,
    page.offset,
  ]);
  return { items: rows.map(toConnector), total: await countRows(db, 'connectors', [], []) };
}

export async function findConnector(
  db: Queryable,
  id: string,
  forUpdate = false,
): Promise<Connector | undefined> {
  if (!isUuid(id)) return undefined;
  const rows = await db.query<Row>(
    `SELECT * FROM connectors WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] === undefined ? undefined : toConnector(rows[0]);
}

export async function insertConnector(db: Queryable, connector: Connector): Promise<void> {
  const { status } = connector;
  await db.query(
    `INSERT INTO connectors (id, name, type, url, username, password, security_mode, enabled, mappings,
       revision, state, state_since, last_error, last_message_at, messages_received, values_applied,
       values_rejected, lease_owner, lease_expires_at, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, NULL, NULL, $18, $19)`,
    [
      connector.id,
      connector.name,
      connector.type,
      connector.url,
      connector.username,
      connector.password,
      connector.securityMode,
      connector.enabled,
      JSON.stringify(connector.mappings),
      connector.revision,
      status.state,
      status.since,
      status.lastError,
      status.lastMessageAt,
      status.messagesReceived,
      status.valuesApplied,
      status.valuesRejected,
      connector.createdAt,
      connector.updatedAt,
    ],
  );
}

/** A new configuration (and revision); the status is set by the caller where it changes. */
export async function updateConnector(db: Queryable, connector: Connector): Promise<void> {
  await db.query(
    `UPDATE connectors SET name = $2, type = $3, url = $4, username = $5, password = $6, security_mode = $7,
       enabled = $8, mappings = $9, revision = $10, state = $11, state_since = $12, last_error = $13,
       updated_at = $14
     WHERE id = $1`,
    [
      connector.id,
      connector.name,
      connector.type,
      connector.url,
      connector.username,
      connector.password,
      connector.securityMode,
      connector.enabled,
      JSON.stringify(connector.mappings),
      connector.revision,
      connector.status.state,
      connector.status.since,
      connector.status.lastError,
      connector.updatedAt,
    ],
  );
}

export async function deleteConnector(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM connectors WHERE id = $1', [id]);
}

/**
 * Takes or renews the leases of every enabled connector that is free, expired or already this
 * owner's, and returns those connectors. One UPDATE: a row another transaction holds is waited
 * for and its condition checked again on the new version (so of two claimers only one wins, and
 * a row locked for a status report is not mistaken for a lost lease).
 */
export async function claimConnectorLeases(
  db: Queryable,
  owner: string,
  now: Date,
  expiresAt: Date,
): Promise<Connector[]> {
  const rows = await db.query<Row>(
    `UPDATE connectors SET lease_owner = $1, lease_expires_at = $3
     WHERE enabled AND (lease_owner IS NULL OR lease_owner = $1 OR lease_expires_at < $2)
     RETURNING *`,
    [owner, now, expiresAt],
  );
  return rows.map(toConnector);
}

/** Gives a lease up (the owner stops the connector); another instance may take it at once. */
export async function releaseConnectorLease(db: Queryable, id: string, owner: string): Promise<void> {
  await db.query(
    'UPDATE connectors SET lease_owner = NULL, lease_expires_at = NULL WHERE id = $1 AND lease_owner = $2',
    [id, owner],
  );
}

/** The lease owner of a connector, locked for a status change; undefined without the row. */
export async function lockConnectorState(
  db: Queryable,
  id: string,
): Promise<{ owner: string | null; state: ConnectorState; name: string; type: ConnectorType } | undefined> {
  const rows = await db.query<{
    lease_owner: string | null;
    state: ConnectorState;
    name: string;
    type: ConnectorType;
  }>('SELECT lease_owner, state, name, type FROM connectors WHERE id = $1 FOR UPDATE', [id]);
  const row = rows[0];
  return row === undefined
    ? undefined
    : { owner: row.lease_owner, state: row.state, name: row.name, type: row.type };
}

export async function setConnectorState(
  db: Queryable,
  id: string,
  state: ConnectorState,
  since: Date,
  lastError: string | null,
): Promise<void> {
  await db.query('UPDATE connectors SET state = $2, state_since = $3, last_error = $4 WHERE id = $1', [
    id,
    state,
    since,
    lastError,
  ]);
}

export async function setConnectorLastError(db: Queryable, id: string, lastError: string): Promise<void> {
  await db.query('UPDATE connectors SET last_error = $2 WHERE id = $1', [id, lastError]);
}

export interface CounterDelta {
  messagesReceived: number;
  valuesApplied: number;
  valuesRejected: number;
  lastMessageAt: Date | null;
  /** A new lastError to show; null keeps the stored one. */
  lastError: string | null;
}

/** Adds what the owner counted since its last report; only while it holds the lease. */
export async function addConnectorCounts(
  db: Queryable,
  id: string,
  owner: string,
  delta: CounterDelta,
): Promise<void> {
  await db.query(
    `UPDATE connectors SET messages_received = messages_received + $3, values_applied = values_applied + $4,
       values_rejected = values_rejected + $5,
       last_message_at = COALESCE($6, last_message_at), last_error = COALESCE($7, last_error)
     WHERE id = $1 AND lease_owner = $2`,
    [
      id,
      owner,
      delta.messagesReceived,
      delta.valuesApplied,
      delta.valuesRejected,
      delta.lastMessageAt,
      delta.lastError,
    ],
  );
}
