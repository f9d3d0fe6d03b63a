// Delivery by cursor (docs/decisions/0003-delivery-from-the-event-log.md): events get delivery positions
// in commit order, each callback keeps the position up to which every matching event has had its
// first attempt, and the instance holding a callback's lease reads the events after it. Every
// step is one statement (the delivery_* functions, read together in src/db/schema.sql), however
// many callbacks it concerns. A cursor is stored as callbacks.delivered_position and last_sequence.
import type { AttemptResult } from '../../domain/delivery.ts';
import type { Queryable } from '../database.ts';
import {
  type Attempt,
  deliveredEventColumns,
  type Notification,
  type NotificationRow,
  outcomeColumns,
  toNotification,
} from './notifications.ts';

export interface Poll {
  /** Events given a position by this call; a full batch means more are waiting. */
  sequenced: number;
  /** The newest position: every event up to it is visible to any later statement. */
  head: number;
  /** A callback has no live lease while this instance holds less than its share: the lease step takes it. */
  unleased: boolean;
  /** When the earliest retry that is not in flight is due; null when the retry set is empty. */
  nextRetryAt: Date | null;
}

/** Positions for up to `batchSize` new events, and what the worker needs to decide its cycle. */
export async function pollDelivery(
  db: Queryable,
  instanceId: string,
  batchSize: number,
  now: Date,
): Promise<Poll> {
  const [row] = await db.query<{
    sequenced: number;
    head: string;
    unleased: boolean;
    next_retry_at: Date | null;
  }>('SELECT * FROM delivery_poll($1, $2, $3)', [instanceId, batchSize, now]);
  return {
    sequenced: row?.sequenced ?? 0,
    head: Number(row?.head ?? 0),
    unleased: row?.unleased ?? false,
    nextRetryAt: row?.next_retry_at ?? null,
  };
}

/** A callback this instance holds the lease of, as stored. */
export interface LeasedCallback {
  callbackId: string;
  deliveredPosition: number;
  lastSequence: number;
  maxUnconfirmedMessages: number;
  /** Never sent to: its first send is a probe. */
  untried: boolean;
}

/**
 * Renews this instance's leases until `until` and takes or gives back callbacks so that every
 * live instance holds about its share; `busy` callbacks (sends in flight) are kept, and `idle`
 * ones store the position their reader has passed without a match. Returns every callback held.
 */
export async function leaseCallbacks(
  db: Queryable,
  instanceId: string,
  options: { now: Date; until: Date; busy: string[]; idle: ReadonlyMap<string, number> },
): Promise<LeasedCallback[]> {
  const rows = await db.query<{
    callback_id: string;
    delivered_position: string;
    last_sequence: string;
    max_unconfirmed_messages: number;
    untried: boolean;
  }>('SELECT * FROM delivery_lease($1, $2, $3, $4::uuid[], $5::uuid[], $6::bigint[])', [
    instanceId,
    options.now,
    options.until,
    options.busy,
    [...options.idle.keys()],
    [...options.idle.values()],
  ]);
  return rows.map((row) => ({
    callbackId: row.callback_id,
    deliveredPosition: Number(row.delivered_position),
    lastSequence: Number(row.last_sequence),
    maxUnconfirmedMessages: row.max_unconfirmed_messages,
    untried: row.untried,
  }));
}

/** Gives back every lease of a stopping instance, so another takes its callbacks at once. */
export async function releaseLeases(db: Queryable, instanceId: string): Promise<void> {
  await db.query(
    `WITH released AS (UPDATE callbacks SET lease_owner = NULL, lease_until = NULL WHERE lease_owner = $1)
     DELETE FROM delivery_instances WHERE id = $1`,
    [instanceId],
  );
}

/** A callback's read request: the events after `after`, at most `take` of them. */
export interface CursorRead {
  callbackId: string;
  after: number;
  take: number;
}

/** An event read from a callback's cursor, for its first attempt. */
export interface CursorNotification extends Notification {
  position: number;
}

export interface CursorReadBatch {
  /** The head position of the read's snapshot: a callback given fewer than `take` has read up to it. */
  head: number;
  /** Per callback, its events in position order (sequence numbers still to be given). */
  events: Map<string, CursorNotification[]>;
}

/**
 * The matching events after each callback's read position, oldest first, in one statement
 * (`delivery_read`, migration 165): an index range per callback (`delivery_positions_by_type`)
 * walked in order, bounded by the snapshot's head so that the head and the rows agree. Sequence
 * numbers are the caller's: it numbers on from the callback's last one.
 */
export async function readAfterCursors(
  db: Queryable,
  reads: readonly CursorRead[],
): Promise<CursorReadBatch> {
  const rows = await db.query<
    NotificationRow & { head: string; callback_id: string | null; position: string }
  >(
    `SELECT r.head, r.callback_id, r.sequence, r.url, r.event_name, r.signing_secret, r.max_redeliver_attempts,
       r.discarded_since_success, r."position", r.event_id, r.event_type, r.event_event_name, r.object_type,
       r.object_id, ${deliveredEventColumns('r')}
     FROM delivery_read($1::uuid[], $2::bigint[], $3::int[]) r`,
    [reads.map((read) => read.callbackId), reads.map((read) => read.after), reads.map((read) => read.take)],
  );
  const events = new Map<string, CursorNotification[]>();
  for (const row of rows) {
    if (row.callback_id === null) continue;
    const list = events.get(row.callback_id) ?? [];
    list.push(Object.assign(toNotification(row, 1), { position: Number(row.position) }));
    events.set(row.callback_id, list);
  }
  return { head: Number(rows[0]?.head ?? 0), events };
}

/** Where a callback's cursor moves to: every matching event up to `position` has had its first attempt. */
export interface CursorMove {
  callbackId: string;
  position: number;
  sequence: number;
}

/**
 * Moves cursors and records the first attempts behind them in one round trip
 * (`delivery_advance`): failures join the retry set, health counters and the attempt history
 * as for retries. Only callbacks this instance still holds move; returns those.
 */
export async function advanceCursors(
  db: Queryable,
  instanceId: string,
  moves: readonly CursorMove[],
  attempts: readonly Attempt[],
  results: readonly AttemptResult[],
  options: { now: Date; retryAt: Date },
): Promise<Set<string>> {
  const rows = await db.query<{ moved: string }>(
    `SELECT delivery_advance($1, $2::uuid[], $3::bigint[], $4::bigint[], $5::uuid[], $6::uuid[], $7::bigint[],
       $8::text[], $9::int[], $10::text[], $11::int[], $12, $13) AS moved`,
    [
      instanceId,
      moves.map((move) => move.callbackId),
      moves.map((move) => move.position),
      moves.map((move) => move.sequence),
      attempts.map((a) => a.notification.callbackId),
      attempts.map((a) => a.notification.event.id),
      attempts.map((a) => a.notification.sequence),
      results,
      ...outcomeColumns(attempts),
      options.now,
      options.retryAt,
    ],
  );
  return new Set(rows.map((row) => row.moved));
}

/**
 * A callback more than maxUnconfirmedMessages events behind: all but the newest that many
 * after `after` are skipped, counted and recorded as DISCARDED, numbered on from `afterSequence`
 * (`delivery_skip`). Returns where the reader goes on from, or null when nothing was skipped.
 */
export async function skipBehind(
  db: Queryable,
  instanceId: string,
  options: { callbackId: string; after: number; afterSequence: number; now: Date },
): Promise<{ position: number; sequence: number } | null> {
  const [row] = await db.query<{ skipped_to: string | null; skipped_sequence: string | null }>(
    'SELECT * FROM delivery_skip($1, $2, $3, $4, $5)',
    [instanceId, options.callbackId, options.after, options.afterSequence, options.now],
  );
  if (!row || row.skipped_to === null || row.skipped_sequence === null) return null;
  return { position: Number(row.skipped_to), sequence: Number(row.skipped_sequence) };
}
