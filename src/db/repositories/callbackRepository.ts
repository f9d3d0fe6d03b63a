import type { Callback } from '../../domain/callbacks.ts';
import { isUuid } from '../../domain/ids.ts';
import type { Queryable } from '../database.ts';
import { offsetList, ownedBy, ownedFind, type Table } from '../table.ts';

interface Row {
  id: string;
  client_id: string;
  event_type: string;
  url: string;
  event_name: string | null;
  object_ids: string[] | null;
  max_redeliver_attempts: number;
  max_unconfirmed_messages: number;
  signing_secret: string | null;
  creation_date: Date;
  last_triggered_date: Date | null;
  last_successful_date: Date | null;
  failed_attempts: string | number;
  discarded_notifications: string | number;
  link_root: string | null;
}

const toCallback = (row: Row): Callback => ({
  id: row.id,
  clientId: row.client_id,
  eventType: row.event_type,
  url: row.url,
  eventName: row.event_name,
  objectIds: row.object_ids,
  maxRedeliverAttempts: row.max_redeliver_attempts,
  maxUnconfirmedMessages: row.max_unconfirmed_messages,
  signingSecret: row.signing_secret,
  creationDate: row.creation_date,
  lastTriggeredDate: row.last_triggered_date,
  lastSuccessfulDate: row.last_successful_date,
  failedAttempts: Number(row.failed_attempts),
  discardedNotifications: Number(row.discarded_notifications),
  linkRoot: row.link_root,
});

const CALLBACKS: Table<Row, Callback> = { from: 'callbacks', toItem: toCallback };

export async function insertCallback(db: Queryable, callback: Callback): Promise<void> {
  await db.query(
    `INSERT INTO callbacks (id, client_id, event_type, url, event_name, object_ids, max_redeliver_attempts,
       max_unconfirmed_messages, signing_secret, creation_date, link_root, after_event_sequence, delivered_position)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, (SELECT coalesce(max(sequence), 0) FROM events),
       (SELECT coalesce(max(position), 0) FROM delivery_positions))`,
    [
      callback.id,
      callback.clientId,
      callback.eventType,
      callback.url,
      callback.eventName,
      callback.objectIds,
      callback.maxRedeliverAttempts,
      callback.maxUnconfirmedMessages,
      callback.signingSecret,
      callback.creationDate,
      callback.linkRoot,
    ],
  );
}

/** Callbacks of one client only: another client's callback is simply not found. */
export const findCallback = ownedFind(CALLBACKS, 'client_id');

export const listCallbacks = offsetList(CALLBACKS, 'creation_date, id', ownedBy('client_id'));

export async function deleteCallback(db: Queryable, clientId: string, id: string): Promise<boolean> {
  if (!isUuid(id)) return false;
  const rows = await db.query('DELETE FROM callbacks WHERE id = $1 AND client_id = $2 RETURNING id', [
    id,
    clientId,
  ]);
  return rows.length > 0;
}

export interface DeliveryAttempt {
  eventId: string;
  sequence: number;
  attempt: number;
  attemptedAt: Date;
  outcome: 'DELIVERED' | 'FAILED' | 'DISCARDED';
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

interface AttemptRow {
  event_id: string;
  sequence: string | number;
  attempt: number;
  attempted_at: Date;
  outcome: DeliveryAttempt['outcome'];
  status_code: number | null;
  error: string | null;
  duration_ms: number;
}

export async function listDeliveryAttempts(
  db: Queryable,
  callbackId: string,
  limit: number,
): Promise<DeliveryAttempt[]> {
  const rows = await db.query<AttemptRow>(
    'SELECT * FROM delivery_attempts WHERE callback_id = $1 ORDER BY id DESC LIMIT $2',
    [callbackId, limit],
  );
  return rows.map((row) => ({
    eventId: row.event_id,
    sequence: Number(row.sequence),
    attempt: row.attempt,
    attemptedAt: row.attempted_at,
    outcome: row.outcome,
    statusCode: row.status_code,
    error: row.error,
    durationMs: row.duration_ms,
  }));
}

/** Where the callback's registration reached the service; null when not kept or no such callback. */
export async function findCallbackLinkRoot(db: Queryable, id: string): Promise<string | null> {
  const rows = await db.query<{ link_root: string | null }>('SELECT link_root FROM callbacks WHERE id = $1', [
    id,
  ]);
  return rows[0]?.link_root ?? null;
}
