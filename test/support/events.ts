// Reads the outbox (the `events` table) directly, to check what a change wrote with it.
import type { TestApp } from './app.ts';

/** One stored event as the tests compare it. */
export interface EventRow {
  eventType: string;
  objectType: string;
  objectId: string | null;
  data: Record<string, unknown>;
  timestamp: Date;
}

/** An event without its time, for whole-value comparison. */
export type UntimedEvent = Omit<EventRow, 'timestamp'>;

interface Row {
  event_type: string;
  object_type: string;
  object_id: string | null;
  data: Record<string, unknown> | string;
  timestamp: Date;
}

/** The events matching `where` (with its `$n` parameters), in the order they were written. */
async function readEvents(t: TestApp, where: string, params: unknown[]): Promise<EventRow[]> {
  const rows = await t.app.db.query<Row>(
    `SELECT event_type, object_type, object_id, data, "timestamp" FROM events WHERE ${where} ORDER BY sequence`,
    params,
  );
  return rows.map((row) => ({
    eventType: row.event_type,
    objectType: row.object_type,
    objectId: row.object_id,
    data: typeof row.data === 'string' ? JSON.parse(row.data) : row.data,
    timestamp: row.timestamp,
  }));
}

/** The events about one object (only those of `eventType` when given), in the order they were written. */
export const eventsOf = (t: TestApp, objectId: string, eventType?: string): Promise<EventRow[]> =>
  eventType === undefined
    ? readEvents(t, 'object_id = $1', [objectId])
    : readEvents(t, 'object_id = $1 AND event_type = $2', [objectId, eventType]);

/** The events written after `sequence`, in order, only those of `types` when given. */
export async function eventsSince(t: TestApp, sequence: number, types?: string[]): Promise<EventRow[]> {
  const events = await readEvents(t, 'sequence > $1', [sequence]);
  return events.filter((event) => types === undefined || types.includes(event.eventType));
}

/** Events without their time, for whole-value comparison. */
export const withoutTime = (events: EventRow[]): UntimedEvent[] =>
  events.map(({ timestamp: _timestamp, ...event }) => event);

/** How many events the outbox holds. */
export const totalEvents = async (t: TestApp): Promise<number> =>
  (await t.app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM events'))[0]?.n ?? -1;
