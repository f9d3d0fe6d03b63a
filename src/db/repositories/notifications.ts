// The delivery queue: fan-out of new events to matching callbacks, claiming due notifications,
// and recording each attempt's outcome. Every function runs in a short transaction of its own.
// What an outcome means (retry or discard) is decided in src/domain/delivery.ts.
import type { AttemptResult } from '../../domain/delivery.ts';
import type { Queryable } from '../database.ts';

/**
 * Turns undispatched events into notifications for every matching callback, numbered per
 * callback, then trims each touched callback's queue to its maxUnconfirmedMessages (oldest
 * dropped first). Concurrent instances split the events between them (SKIP LOCKED).
 * Returns how many events were dispatched.
 *
 * A fixed number of statements however many callbacks match: every matching callback, a dead
 * receiver's too, would otherwise add its own round trips to every event's way out
 * (docs/architecture.md, "Fair delivery").
 */
export async function fanOut(tx: Queryable, batchSize: number, now: Date): Promise<number> {
  const events = await tx.query<{ id: string }>(
    `SELECT id FROM events WHERE dispatched_at IS NULL ORDER BY sequence LIMIT $1 FOR UPDATE SKIP LOCKED`,
    [batchSize],
  );
  if (events.length === 0) return 0;
  const eventIds = events.map((event) => event.id);
  const matches = await tx.query<{ callback_id: string; event_id: string }>(
    `SELECT c.id AS callback_id, e.id AS event_id
     FROM events e JOIN callbacks c
       ON c.event_type = e.event_type AND (c.object_ids IS NULL OR e.object_id = ANY (c.object_ids))
         AND e.sequence > c.after_event_sequence
     WHERE e.id = ANY ($1::uuid[])
     ORDER BY c.id, e.sequence`,
    [eventIds],
  );
  const byCallback = new Map<string, string[]>();
  for (const match of matches) {
    const list = byCallback.get(match.callback_id) ?? [];
    list.push(match.event_id);
    byCallback.set(match.callback_id, list);
  }
  if (byCallback.size > 0) {
    const callbackIds = [...byCallback.keys()];
    // Callback rows locked in id order, as recordAttempts and DELETE /callbacks do: never a deadlock.
    await tx.query('SELECT 1 FROM callbacks WHERE id = ANY ($1::uuid[]) ORDER BY id FOR UPDATE', [
      callbackIds,
    ]);
    const numbered = await tx.query<{ id: string; last_sequence: string }>(
      `UPDATE callbacks c SET last_sequence = c.last_sequence + u.added
       FROM unnest($1::uuid[], $2::int[]) AS u (id, added) WHERE c.id = u.id
       RETURNING c.id, c.last_sequence`,
      [callbackIds, callbackIds.map((id) => byCallback.get(id)?.length ?? 0)],
    );
    const lastSequence = new Map(numbered.map((row) => [row.id, Number(row.last_sequence)]));
    const rows = { callbackIds: [] as string[], eventIds: [] as string[], sequences: [] as number[] };
    for (const [callbackId, callbackEvents] of byCallback) {
      const last = lastSequence.get(callbackId);
      if (last === undefined) continue; // deleted since the match: nothing to notify
      const first = last - callbackEvents.length + 1;
      callbackEvents.forEach((eventId, index) => {
        rows.callbackIds.push(callbackId);
        rows.eventIds.push(eventId);
        rows.sequences.push(first + index);
      });
    }
    // In callback and event order, as one callback at a time would number them.
    await tx.query(
      `INSERT INTO notifications (callback_id, event_id, sequence, next_attempt_at)
       SELECT callback_id, event_id, sequence, $4
       FROM unnest($1::uuid[], $2::uuid[], $3::bigint[]) WITH ORDINALITY AS t (callback_id, event_id, sequence, ordinality)
       ORDER BY ordinality`,
      [rows.callbackIds, rows.eventIds, rows.sequences, now],
    );
    await trimQueues(tx, callbackIds, now);
  }
  await tx.query('UPDATE events SET dispatched_at = $2 WHERE id = ANY ($1::uuid[])', [eventIds, now]);
  return events.length;
}

/**
 * Past maxUnconfirmedMessages the oldest notifications are discarded, retries or not
 * (docs/api.md, "Callbacks (event delivery)").
 */
async function trimQueues(tx: Queryable, callbackIds: string[], now: Date): Promise<void> {
  // A callback's rows are numbered in id order, so when its oldest row is among the newest
  // maxUnconfirmedMessages sequence numbers it cannot hold more: one index entry read instead of
  // walking a long queue (a receiver that is down) on every fan-out.
  const dropped = await tx.query<{
    callback_id: string;
    event_id: string;
    sequence: string;
    attempts: number;
  }>(
    `DELETE FROM notifications WHERE id IN (
       SELECT beyond.id FROM callbacks c CROSS JOIN LATERAL (
         SELECT n.id FROM notifications n WHERE n.callback_id = c.id
         ORDER BY n.id DESC OFFSET c.max_unconfirmed_messages) beyond
       WHERE c.id = ANY ($1::uuid[])
         AND (SELECT o.sequence FROM notifications o WHERE o.callback_id = c.id ORDER BY o.id LIMIT 1)
             <= c.last_sequence - c.max_unconfirmed_messages)
     RETURNING callback_id, event_id, sequence, attempts`,
    [callbackIds],
  );
  if (dropped.length === 0) return;
  const counts = new Map<string, number>();
  for (const row of dropped) counts.set(row.callback_id, (counts.get(row.callback_id) ?? 0) + 1);
  await tx.query(
    `UPDATE callbacks c SET discarded_notifications = c.discarded_notifications + u.dropped,
       discarded_since_success = c.discarded_since_success + u.dropped
     FROM unnest($1::uuid[], $2::int[]) AS u (id, dropped) WHERE c.id = u.id`,
    [[...counts.keys()], [...counts.values()]],
  );
  await tx.query(
    `INSERT INTO delivery_attempts (callback_id, event_id, sequence, attempt, attempted_at, outcome, error, duration_ms)
     SELECT callback_id, event_id, sequence, attempts, $5, 'DISCARDED', 'more than maxUnconfirmedMessages pending', 0
     FROM unnest($1::uuid[], $2::uuid[], $3::bigint[], $4::int[]) AS t (callback_id, event_id, sequence, attempts)`,
    [
      dropped.map((d) => d.callback_id),
      dropped.map((d) => d.event_id),
      dropped.map((d) => d.sequence),
      dropped.map((d) => d.attempts),
      now,
    ],
  );
}

export interface ClaimedNotification {
  id: string;
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
    data: unknown;
    timestamp: Date;
  };
}

interface ClaimRow {
  id: string;
  sequence: string;
  attempts: number;
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
  data: unknown;
  timestamp: Date;
}

/**
 * Claims due notifications for sending, locked for `lockMs` so a crashed sender's claims come
 * back. The free slots (`limit`) go round-robin over the callbacks with due work, counting the
 * sends each already has in flight: every callback gets its next slot before any callback gets
 * one more (docs/architecture.md, "Fair delivery"). A callback has at most its cap in flight:
 * `reducedCaps` for those listed, 1 for one never sent to (a first send is a probe), else
 * `perCallback`.
 */
export async function claimDue(
  tx: Queryable,
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
  // No JIT for the claim (PostgreSQL compiles above jit_above_cost, 100,000 by default): with a
  // backlog, the estimate for a callbacks table never analyzed (a few rows, taken for hundreds)
  // times its lateral index scans passes that cost, and compiling ~80 functions took 20-30 ms of
  // a claim that runs in 3-5 ms, on every claim (bench/mqttDelivery.ts). Only this transaction.
  await tx.query('SET LOCAL jit = off');
  const rows = await tx.query<ClaimRow>(
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
       e.id AS event_id, e.event_type, e.event_name AS event_event_name, e.object_type, e.object_id, e.data, e."timestamp"
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
  return rows.map((row) => ({
    id: String(row.id),
    sequence: Number(row.sequence),
    attempt: row.attempts,
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
      data: row.data,
      timestamp: row.timestamp,
    },
  }));
}

export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export interface Attempt {
  notification: ClaimedNotification;
  outcome: AttemptOutcome;
}

/**
 * Records a batch of attempts, each with its result, in one go: DELIVERED and DISCARDED remove
 * the notification, FAILED schedules it for `retryAt`. Callback health counters and the attempt
 * history are updated with it.
 */
export async function recordAttempts(
  tx: Queryable,
  attempts: readonly Attempt[],
  results: readonly AttemptResult[],
  options: { now: Date; retryAt: Date },
): Promise<void> {
  const { now } = options;
  const idsWith = (wanted: AttemptResult[]) =>
    attempts
      .filter((_, index) => wanted.includes(results[index] as AttemptResult))
      .map((a) => a.notification.id);

  // Callback rows first, in id order: the same order as DELETE /callbacks (row, then its
  // notifications by cascade), so the two never deadlock.
  await tx.query('SELECT 1 FROM callbacks WHERE id = ANY ($1::uuid[]) ORDER BY id FOR UPDATE', [
    [...new Set(attempts.map((a) => a.notification.callbackId))],
  ]);
  // A notification trimmed away meanwhile (queue bound) is no longer there to count as discarded.
  const removed = await tx.query<{ id: string }>(
    'DELETE FROM notifications WHERE id = ANY ($1::bigint[]) RETURNING id',
    [idsWith(['DELIVERED', 'DISCARDED'])],
  );
  const removedIds = new Set(removed.map((row) => String(row.id)));
  await tx.query(
    'UPDATE notifications SET next_attempt_at = $2, locked_until = NULL WHERE id = ANY ($1::bigint[])',
    [idsWith(['FAILED']), options.retryAt],
  );

  // Per callback, in attempt order: did one succeed, how many failed, how many were discarded
  // in all and after the last success (the bridge-discarded-notifications count restarts there).
  const health = new Map<string, { succeeded: boolean; failed: number; discarded: number; since: number }>();
  attempts.forEach(({ notification }, index) => {
    const entry = health.get(notification.callbackId) ?? {
      succeeded: false,
      failed: 0,
      discarded: 0,
      since: 0,
    };
    const result = results[index];
    if (result === 'DELIVERED') {
      entry.succeeded = true;
      entry.since = 0;
    } else {
      entry.failed += 1;
      if (result === 'DISCARDED' && removedIds.has(notification.id)) {
        entry.discarded += 1;
        entry.since += 1;
      }
    }
    health.set(notification.callbackId, entry);
  });
  const callbacks = [...health.entries()];
  await tx.query(
    `UPDATE callbacks c SET last_triggered_date = $6,
       last_successful_date = CASE WHEN u.succeeded THEN $6 ELSE c.last_successful_date END,
       failed_attempts = c.failed_attempts + u.failed,
       discarded_notifications = c.discarded_notifications + u.discarded,
       discarded_since_success = CASE WHEN u.succeeded THEN u.since ELSE c.discarded_since_success + u.since END
     FROM unnest($1::uuid[], $2::boolean[], $3::int[], $4::int[], $5::int[]) AS u (id, succeeded, failed, discarded, since)
     WHERE c.id = u.id`,
    [
      callbacks.map(([id]) => id),
      callbacks.map(([, entry]) => entry.succeeded),
      callbacks.map(([, entry]) => entry.failed),
      callbacks.map(([, entry]) => entry.discarded),
      callbacks.map(([, entry]) => entry.since),
      now,
    ],
  );
  await tx.query(
    `INSERT INTO delivery_attempts (callback_id, event_id, sequence, attempt, attempted_at, outcome, status_code, error, duration_ms)
     SELECT u.callback_id, u.event_id, u.sequence, u.attempt, $9, u.outcome, u.status_code, u.error, u.duration_ms
     FROM unnest($1::uuid[], $2::uuid[], $3::bigint[], $4::int[], $5::text[], $6::int[], $7::text[], $8::int[])
       AS u (callback_id, event_id, sequence, attempt, outcome, status_code, error, duration_ms)
     WHERE EXISTS (SELECT 1 FROM callbacks WHERE id = u.callback_id)`,
    [
      attempts.map((a) => a.notification.callbackId),
      attempts.map((a) => a.notification.event.id),
      attempts.map((a) => a.notification.sequence),
      attempts.map((a) => a.notification.attempt),
      results,
      attempts.map((a) => a.outcome.statusCode),
      attempts.map((a) => a.outcome.error),
      attempts.map((a) => Math.round(a.outcome.durationMs)),
      now,
    ],
  );
}

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
