// What is waiting to be delivered, for the metrics scrape: the event log's head, events not yet
// fanned out, and each callback's queue with the age of its oldest notification.
import type { Queryable } from '../database.ts';

export interface EventLogHead {
  /** The newest event's sequence (0 for an empty log). */
  sequence: number;
  /** Events recorded but not yet fanned out into notifications. */
  undispatched: number;
}

export async function eventLogHead(db: Queryable): Promise<EventLogHead> {
  const [row] = await db.query<{ sequence: string | null; undispatched: string }>(
    `SELECT (SELECT max(sequence) FROM events) AS sequence,
            (SELECT count(*) FROM events WHERE dispatched_at IS NULL) AS undispatched`,
  );
  return { sequence: Number(row?.sequence ?? 0), undispatched: Number(row?.undispatched ?? 0) };
}

export interface CallbackQueue {
  callbackId: string;
  depth: number;
  /** Seconds since the oldest queued notification's event was recorded. */
  oldestAgeS: number;
}

/** Every callback with queued notifications, the longest-waiting first. */
export async function callbackQueues(db: Queryable): Promise<CallbackQueue[]> {
  const rows = await db.query<{ callback_id: string; depth: string; age: number | null }>(
    `SELECT q.callback_id, q.depth, extract(epoch FROM now() - e.recorded_at)::float8 AS age
       FROM (SELECT callback_id, count(*) AS depth, min(id) AS first FROM notifications GROUP BY callback_id) q
       JOIN notifications n ON n.id = q.first
       JOIN events e ON e.id = n.event_id
      ORDER BY age DESC NULLS LAST, q.callback_id`,
  );
  return rows.map((row) => ({
    callbackId: row.callback_id,
    depth: Number(row.depth),
    oldestAgeS: Math.max(0, row.age ?? 0),
  }));
}
