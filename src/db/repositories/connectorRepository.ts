// Connectors: their configuration, the status their running instance reports, and the lease that
// says which instance runs each one (docs/resources/connectors.md, "Ownership").
import type {
  Connector,
  ConnectorError,
  ConnectorState,
  ConnectorType,
  Mapping,
  SecurityMode,
} from '../../domain/connectors.ts';
import type { Queryable } from '../database.ts';
import type { OffsetPage, OffsetRequest } from '../paging.ts';
import {
  deleteById,
  fromJsonb,
  insertRow,
  lockableFind,
  NO_FILTER,
  offsetPageOf,
  sameNamed,
  type Table,
  updateById,
} from '../table.ts';

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
  recent_errors: StoredError[] | string;
  last_message_at: Date | null;
  messages_received: string | number;
  values_applied: string | number;
  values_rejected: string | number;
  created_at: Date;
  updated_at: Date;
}

/** A ConnectorError as the recent_errors JSON holds it. */
interface StoredError {
  at: string;
  message: string;
  repeated: number;
}

const fromStored = (stored: StoredError[] | string): ConnectorError[] =>
  fromJsonb(stored).map((error) => ({
    at: new Date(error.at),
    message: error.message,
    repeated: error.repeated,
  }));

const toStored = (errors: readonly ConnectorError[]): string =>
  JSON.stringify(errors.map((error) => ({ ...error, at: error.at.toISOString() })));

const toConnector = (row: Row): Connector => ({
  id: row.id,
  name: row.name,
  type: row.type,
  url: row.url,
  username: row.username,
  password: row.password,
  securityMode: row.security_mode,
  enabled: row.enabled,
  mappings: fromJsonb(row.mappings),
  revision: row.revision,
  status: {
    state: row.state,
    since: row.state_since,
    lastError: row.last_error,
    recentErrors: fromStored(row.recent_errors),
    lastMessageAt: row.last_message_at,
    messagesReceived: Number(row.messages_received),
    valuesApplied: Number(row.values_applied),
    valuesRejected: Number(row.values_rejected),
  },
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const CONNECTORS: Table<Row, Connector> = { from: 'connectors', toItem: toConnector };

export async function listConnectors(db: Queryable, page: OffsetRequest): Promise<OffsetPage<Connector>> {
  return offsetPageOf(db, CONNECTORS, NO_FILTER, 'name, id', page);
}

export const findConnector = lockableFind(CONNECTORS);

/** The configuration columns and the status an update writes (not the counters, not the lease). */
const configurationColumns = sameNamed<Connector>()(
  'name type url username password securityMode enabled revision updatedAt',
);

const configuration = (connector: Connector) => ({
  ...configurationColumns(connector),
  mappings: JSON.stringify(connector.mappings),
  state: connector.status.state,
  state_since: connector.status.since,
  last_error: connector.status.lastError,
});

/** A new connector: no lease yet (lease_owner and lease_expires_at stay NULL). */
export async function insertConnector(db: Queryable, connector: Connector): Promise<void> {
  const { status } = connector;
  await insertRow(db, 'connectors', {
    id: connector.id,
    ...configuration(connector),
    last_message_at: status.lastMessageAt,
    messages_received: status.messagesReceived,
    values_applied: status.valuesApplied,
    values_rejected: status.valuesRejected,
    created_at: connector.createdAt,
  });
}

/** A new configuration (and revision); the status is set by the caller where it changes. */
export async function updateConnector(db: Queryable, connector: Connector): Promise<void> {
  await updateById(db, 'connectors', connector.id, configuration(connector));
}

export async function deleteConnector(db: Queryable, id: string): Promise<void> {
  await deleteById(db, 'connectors', id);
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

/** The lease owner of a connector and its status, locked for a status change; undefined without the row. */
export async function lockConnectorState(
  db: Queryable,
  id: string,
): Promise<
  | {
      owner: string | null;
      state: ConnectorState;
      name: string;
      type: ConnectorType;
      recentErrors: ConnectorError[];
    }
  | undefined
> {
  const rows = await db.query<{
    lease_owner: string | null;
    state: ConnectorState;
    name: string;
    type: ConnectorType;
    recent_errors: StoredError[] | string;
  }>('SELECT lease_owner, state, name, type, recent_errors FROM connectors WHERE id = $1 FOR UPDATE', [id]);
  const row = rows[0];
  return row === undefined
    ? undefined
    : {
        owner: row.lease_owner,
        state: row.state,
        name: row.name,
        type: row.type,
        recentErrors: fromStored(row.recent_errors),
      };
}

export async function setConnectorState(
  db: Queryable,
  id: string,
  state: ConnectorState,
  since: Date,
  lastError: string | null,
  recentErrors: readonly ConnectorError[],
): Promise<void> {
  await db.query(
    'UPDATE connectors SET state = $2, state_since = $3, last_error = $4, recent_errors = $5::jsonb WHERE id = $1',
    [id, state, since, lastError, toStored(recentErrors)],
  );
}

export async function setConnectorLastError(
  db: Queryable,
  id: string,
  lastError: string,
  recentErrors: readonly ConnectorError[],
): Promise<void> {
  await db.query('UPDATE connectors SET last_error = $2, recent_errors = $3::jsonb WHERE id = $1', [
    id,
    lastError,
    toStored(recentErrors),
  ]);
}

export interface CounterDelta {
  messagesReceived: number;
  valuesApplied: number;
  valuesRejected: number;
  lastMessageAt: Date | null;
  /** The problems since the last report, oldest first (the last one becomes lastError). */
  errors: ConnectorError[];
}

/**
 * Adds what the owner counted since its last report; only while it holds the lease.
 * `recentErrors`: the new history, or null to keep the stored one (and last_error).
 */
export async function addConnectorCounts(
  db: Queryable,
  id: string,
  owner: string,
  delta: CounterDelta,
  recentErrors: readonly ConnectorError[] | null,
): Promise<void> {
  await db.query(
    `UPDATE connectors SET messages_received = messages_received + $3, values_applied = values_applied + $4,
       values_rejected = values_rejected + $5,
       last_message_at = COALESCE($6, last_message_at), last_error = COALESCE($7, last_error),
       recent_errors = COALESCE($8::jsonb, recent_errors)
     WHERE id = $1 AND lease_owner = $2`,
    [
      id,
      owner,
      delta.messagesReceived,
      delta.valuesApplied,
      delta.valuesRejected,
      delta.lastMessageAt,
      delta.errors.at(-1)?.message ?? null,
      recentErrors === null ? null : toStored(recentErrors),
    ],
  );
}
