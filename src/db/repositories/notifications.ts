// The retry set: notifications whose first attempt failed (src/db/repositories/deliveryCursors.ts
// sends first attempts from each callback's cursor), claimed when due and recorded after each
// attempt. Each step is one statement, so one short transaction without BEGIN and COMMIT.
// What an outcome means (retry or discard) is decided in src/domain/delivery.ts.
import type { AttemptResult } from '../../domain/delivery.ts';
import type { Queryable } from '../database.ts';

/** One delivery of an event to a callback: what its body and headers are made of. */
export interface Notification {
  sequence: number;
  /** 1 for the first delivery, 2 for the first retry, ... */
  attempt: number;
  callbackId: string;
  url: string;
  eventName: string | null;
  signingSecret: string | null;
  maxRedeliverAttempts: number;
  discardedSinceSuccess: number;
  event: {
    id: string;
    eventType: string;
    /** The publisher's name of an EXTERNAL event. */
    eventName: string | null;
    objectType: string;
    objectId: string | null;
    /** The event's data as the JSON text PostgreSQL writes for it: it goes into the body as it is. */
    dataJson: string;
    /** ISO 8601 in UTC with milliseconds, as `Date.toISOString()` writes it. */
    timestamp: string;
  };
}

/** A notification of the retry set, claimed for its next attempt. */
export interface ClaimedNotification extends Notification {
  id: string;
}

/** The columns a notification is made of, as the claim and the cursor read select them. */
export interface NotificationRow {
  sequence: string;
  callback_id: string;
  url: string;
  event_name: string | null;
  signing_secret: string | null;
  max_redeliver_attempts: number;
  discarded_since_success: number;
  event_id: string;
  event_type: string;
  event_event_name: string | null;
  object_type: string;
  object_id: string | null;
  data: string;
  timestamp: string;
}

/**
 * An event's data and timestamp as the text a delivery body carries, selected so: parsing the
 * JSON and the date of every row only to write them out again is work a drain can do without
 * (bench/mqttDelivery.ts). `MS` truncates to milliseconds, as a JavaScript Date does.
 */
export const deliveredEventColumns = (alias: string): string =>
  `${alias}.data::text AS data, to_char(${alias}."timestamp" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "timestamp"`;

export const toNotification = (row: NotificationRow, attempt: number): Notification => ({
  sequence: Number(row.sequence),
  attempt,
  callbackId: row.callback_id,
  url: row.url,
  eventName: row.event_name,
  signingSecret: row.signing_secret,
  maxRedeliverAttempts: row.max_redeliver_attempts,
  discardedSinceSuccess: row.discarded_since_success,
  event: {
    id: row.event_id,
    eventType: row.event_type,
    eventName: row.event_event_name,
    objectType: row.object_type,
    objectId: row.object_id,
    dataJson: row.data,
    timestamp: row.timestamp,
  },
});

interface ClaimRow extends NotificationRow {
  id: string;
  attempts: number;
}

/**
 * Claims due notifications for sending, locked for `lockMs` so a crashed sender's claims come
 * back. The free slots (`limit`) go round-robin over the callbacks with due work, counting the
 * sends each already has in flight: every callback gets its next slot before any callback gets
 * one more (docs/decisions/0003-delivery-from-the-event-log.md, fairness). A callback has at most its cap in flight:
 * `reducedCaps` for those listed, 1 for one never sent to (a first send is a probe), else
 * `perCallback`.
 */
export async function claimDue(
  db: Queryable,
  options: {
    limit: number;
    perCallback: number;
    /** Callback id -> cap below perCallback (receivers that stopped answering). */
    reducedCaps: ReadonlyMap<string, number>;
    lockMs: number;
    now: Date;
  },
): Promise<ClaimedNotification[]> {
  const lockedUntil = new Date(options.now.getTime() + options.lockMs);
  const rows = await db.query<ClaimRow>(
    // Per callback, the oldest due rows up to its free slots (its cap minus those in flight):
    // index scans per callback, so a long backlog costs no more than a short one. Each row's turn
    // is its place in its callback's line counting the sends in flight; turns are served lowest
    // first over all callbacks, so a few callbacks with long queues cannot fill the instance-wide
    // limit while others wait.
    `WITH capped AS (
       SELECT c.id, least($3, CASE WHEN c.last_triggered_date IS NULL THEN 1 ELSE coalesce(r.cap, $3) END) AS cap,
         (SELECT count(*) FROM notifications f WHERE f.callback_id = c.id AND f.locked_until > $1) AS in_flight
       FROM callbacks c LEFT JOIN unnest($5::uuid[], $6::int[]) AS r (callback_id, cap) ON r.callback_id = c.id
     ), candidates AS (
       SELECT due.id FROM capped c
       CROSS JOIN LATERAL (
         SELECT n.id, c.in_flight + row_number() OVER (ORDER BY n.id) AS turn FROM notifications n
         WHERE n.callback_id = c.id AND n.next_attempt_at <= $1 AND (n.locked_until IS NULL OR n.locked_until <= $1)
         ORDER BY n.id
         LIMIT greatest(0, c.cap - c.in_flight)
       ) due
       ORDER BY due.turn, due.id LIMIT $2
     ), locked AS (
       -- The due/unlocked test again: a row another instance claimed (or rescheduled) and committed
       -- after this statement's snapshot is re-read by FOR UPDATE and must drop out here.
       SELECT id FROM notifications
       WHERE id IN (SELECT id FROM candidates) AND next_attempt_at <= $1
         AND (locked_until IS NULL OR locked_until <= $1)
       FOR UPDATE SKIP LOCKED
     ), claimed AS (
       UPDATE notifications n SET locked_until = $4, attempts = n.attempts + 1
       FROM locked WHERE n.id = locked.id
       RETURNING n.id, n.sequence, n.attempts, n.callback_id, n.event_id
     )
     SELECT claimed.id, claimed.sequence, claimed.attempts, c.id AS callback_id, c.url, c.event_name,
       c.signing_secret, c.max_redeliver_attempts, c.discarded_since_success,
       e.id AS event_id, e.event_type, e.event_name AS event_event_name, e.object_type, e.object_id, ${deliveredEventColumns('e')}
     FROM claimed JOIN callbacks c ON c.id = claimed.callback_id JOIN events e ON e.id = claimed.event_id
     ORDER BY claimed.id`,
    [
      options.now,
      options.limit,
      options.perCallback,
      lockedUntil,
      [...options.reducedCaps.keys()],
      [...options.reducedCaps.values()],
    ],
  );
  return rows.map((row) => ({ ...toNotification(row, row.attempts), id: String(row.id) }));
}

interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export interface Attempt<N extends Notification = Notification> {
  notification: N;
  outcome: AttemptOutcome;
}

/**
 * Records a batch of attempts, each with its result, in one round trip
 * (`delivery_record_attempts`, migration 018): DELIVERED and DISCARDED remove the notification,
 * FAILED schedules it for `retryAt`. Callback health counters and the attempt history are
 * updated with it.
 */
export async function recordAttempts(
  db: Queryable,
  attempts: readonly Attempt<ClaimedNotification>[],
  results: readonly AttemptResult[],
  options: { now: Date; retryAt: Date },
): Promise<void> {
  await db.query(
    'SELECT delivery_record_attempts($1::bigint[], $2::uuid[], $3::uuid[], $4::bigint[], $5::int[], $6::text[], $7::int[], $8::text[], $9::int[], $10, $11)',
    [
      attempts.map((a) => a.notification.id),
      attempts.map((a) => a.notification.callbackId),
      attempts.map((a) => a.notification.event.id),
      attempts.map((a) => a.notification.sequence),
      attempts.map((a) => a.notification.attempt),
      results,
      ...outcomeColumns(attempts),
      options.now,
      options.retryAt,
    ],
  );
}

/** What each attempt's receiver said, as the status, error and duration arrays the functions take. */
export const outcomeColumns = (
  attempts: readonly Attempt[],
): [(number | null)[], (string | null)[], number[]] => [
  attempts.map((a) => a.outcome.statusCode),
  attempts.map((a) => a.outcome.error),
  attempts.map((a) => Math.round(a.outcome.durationMs)),
];

/** Which of these callbacks still exist. */
export async function existingCallbacks(db: Queryable, callbackIds: readonly string[]): Promise<Set<string>> {
  const rows = await db.query<{ id: string }>('SELECT id FROM callbacks WHERE id = ANY ($1::uuid[])', [
    callbackIds,
  ]);
  return new Set(rows.map((row) => row.id));
}

/** Keeps the attempt history bounded: the newest `keep` per callback. */
export async function pruneAttempts(db: Queryable, keep: number): Promise<void> {
  await db.query(
    `DELETE FROM delivery_attempts WHERE id IN (
       SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY callback_id ORDER BY id DESC) AS rank
                       FROM delivery_attempts) ranked WHERE rank > $1)`,
    [keep],
  );
}
