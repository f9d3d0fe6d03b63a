// What is waiting to be delivered, for the metrics scrape: the event log's head, events not yet
// given a delivery position, and each callback's queue (its matching events after its cursor and
// its retry set) with the age of the oldest.
import type { Queryable } from '../database.ts';

export interface EventLogHead {
  /** The newest event's sequence (0 for an empty log). */
  sequence: number;
  /** Events recorded but not yet given a delivery position. */
  undispatched: number;
}

export async function eventLogHead(db: Queryable): Promise<EventLogHead> {
  const [row] = await db.query<{ sequence: string | null; undispatched: string }>(
    `SELECT (SELECT max(sequence) FROM events) AS sequence,
            (SELECT count(*) FROM delivery_pending) AS undispatched`,
  );
  return { sequence: Number(row?.sequence ?? 0), undispatched: Number(row?.undispatched ?? 0) };
}

export interface CallbackQueue {
  callbackId: string;
  depth: number;
  /** Seconds since the oldest queued notification's event was recorded. */
  oldestAgeS: number;
}

/** A callback `c`'s matching events after its cursor, not yet sent a first time. */
const UNREAD = `p.event_type = c.event_type AND p.position > c.delivered_position
  AND p.sequence > c.after_event_sequence AND (c.object_ids IS NULL OR e.object_id = ANY (c.object_ids))`;
/** Positions joined to their events, for UNREAD. */
const POSITIONED = '(delivery_positions p JOIN events e ON e.sequence = p.sequence)';

/** Every callback with something waiting, the longest-waiting first. */
export async function callbackQueues(db: Queryable): Promise<CallbackQueue[]> {
  const rows = await db.query<{ callback_id: string; depth: string; age: number | null }>(
    `SELECT q.callback_id, q.unread + q.retries AS depth,
            extract(epoch FROM now() - least(q.oldest_unread, q.oldest_retry))::float8 AS age
       FROM (SELECT c.id AS callback_id,
               (SELECT count(*) FROM ${POSITIONED} WHERE ${UNREAD}) AS unread,
               (SELECT min(e.recorded_at) FROM ${POSITIONED} WHERE ${UNREAD}) AS oldest_unread,
               (SELECT count(*) FROM notifications n WHERE n.callback_id = c.id) AS retries,
               (SELECT min(e.recorded_at) FROM notifications n JOIN events e ON e.id = n.event_id
                 WHERE n.callback_id = c.id) AS oldest_retry
             FROM callbacks c) q
      WHERE q.unread + q.retries > 0
      ORDER BY age DESC NULLS LAST, q.callback_id`,
  );
  return rows.map((row) => ({
    callbackId: row.callback_id,
    depth: Number(row.depth),
    oldestAgeS: Math.max(0, row.age ?? 0),
  }));
}

/**
 * Everything still to be delivered to these callbacks (all when null): events without a delivery
 * position yet, matching events after their cursors, and their retry sets. A first attempt leaves
 * the count once its outcome is recorded, so 0 means every outcome so far is stored.
 */
export async function pendingDeliveries(
  db: Queryable,
  callbackIds: readonly string[] | null,
): Promise<number> {
  const [row] = await db.query<{ pending: string }>(
    `SELECT (SELECT count(*) FROM delivery_pending)
          + (SELECT count(*) FROM callbacks c JOIN ${POSITIONED} ON ${UNREAD}
              WHERE $1::uuid[] IS NULL OR c.id = ANY ($1::uuid[]))
          + (SELECT count(*) FROM notifications WHERE $1::uuid[] IS NULL OR callback_id = ANY ($1::uuid[])) AS pending`,
    [callbackIds],
  );
  return Number(row?.pending ?? 0);
}
