import type { NewEvent, ObjectType } from '../../domain/events.ts';
import { Conditions } from '../conditions.ts';
import type { Queryable } from '../database.ts';
import { findById, fromJsonb, type Table, timestampList } from '../table.ts';

/** An event as the log holds it. */
export interface StoredEvent {
  id: string;
  eventType: string;
  eventName: string | null;
  objectType: ObjectType;
  objectId: string | null;
  data: Record<string, unknown>;
  /** When it happened (for EXTERNAL events: as the publisher says). */
  timestamp: Date;
  /** When the service wrote it; the event log is paged by this time. */
  recordedAt: Date;
  /** The client that published an EXTERNAL event; null for platform events. */
  publishedBy: string | null;
}

interface Row {
  id: string;
  event_type: string;
  event_name: string | null;
  object_type: ObjectType;
  object_id: string | null;
  data: Record<string, unknown> | string;
  timestamp: Date;
  recorded_at: Date;
  published_by: string | null;
}

const COLUMNS =
  'id, event_type, event_name, object_type, object_id, data, "timestamp", recorded_at, published_by';

const toEvent = (row: Row): StoredEvent => ({
  id: row.id,
  eventType: row.event_type,
  eventName: row.event_name,
  objectType: row.object_type,
  objectId: row.object_id,
  data: fromJsonb(row.data),
  timestamp: row.timestamp,
  recordedAt: row.recorded_at,
  publishedBy: row.published_by,
});

/**
 * Appends events to the log in one statement; called inside the transaction of the change that
 * caused them. Their log positions (`sequence`) follow the order given.
 */
export async function appendEvents(db: Queryable, events: readonly StoredEvent[]): Promise<void> {
  const [only] = events;
  if (only === undefined) return;
  if (events.length === 1) {
    await db.query(`INSERT INTO events (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, [
      only.id,
      only.eventType,
      only.eventName,
      only.objectType,
      only.objectId,
      JSON.stringify(only.data),
      only.timestamp,
      only.recordedAt,
      only.publishedBy,
    ]);
    return;
  }
  // Rows come out of unnest in array order, and the identity numbers them as they come.
  await db.query(
    `INSERT INTO events (${COLUMNS})
     SELECT id, event_type, event_name, object_type, object_id, data::jsonb, "timestamp", recorded_at, published_by
     FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[],
                 $8::timestamptz[], $9::text[]) WITH ORDINALITY
       AS e (id, event_type, event_name, object_type, object_id, data, "timestamp", recorded_at, published_by, position)
     ORDER BY position`,
    [
      events.map((event) => event.id),
      events.map((event) => event.eventType),
      events.map((event) => event.eventName),
      events.map((event) => event.objectType),
      events.map((event) => event.objectId),
      events.map((event) => JSON.stringify(event.data)),
      events.map((event) => event.timestamp),
      events.map((event) => event.recordedAt),
      events.map((event) => event.publishedBy),
    ],
  );
}

/**
 * An event as a database function takes it to append it (`{event_type, object_type, object_id,
 * data}`); the function gives it its id and times.
 */
export const eventArgument = (event: NewEvent | null): string | null =>
  event === null
    ? null
    : JSON.stringify({
        event_type: event.eventType,
        object_type: event.objectType,
        object_id: event.objectId,
        data: event.data,
      });

export interface EventFilter {
  eventType?: string | undefined;
  objectType?: string | undefined;
  objectId?: string | undefined;
}

const EVENTS: Table<Row, StoredEvent> = { from: 'events', select: COLUMNS, toItem: toEvent };

/** The conditions of an event filter, after the `fixed` ones. */
const eventConditions = (filter: EventFilter | undefined, fixed = new Conditions()) =>
  fixed
    .equals('event_type', filter?.eventType)
    .equals('object_type', filter?.objectType)
    .equals('object_id', filter?.objectId);

export const listEvents = timestampList(
  EVENTS,
  {
    timestampColumn: 'recorded_at',
    timestampOf: (row) => row.recorded_at,
    // EXTERNAL events carry data of their own: pages are bounded in bytes too.
    sizeOf: 'octet_length(events::text)',
  },
  (filter: EventFilter) => eventConditions(filter),
);

export async function findEvent(db: Queryable, id: string): Promise<StoredEvent | undefined> {
  return findById(db, EVENTS, id);
}

/** An event with its log position (`events.sequence`), as the event stream sends it. */
export interface SequencedEvent extends StoredEvent {
  sequence: number;
}

const toSequenced = (row: Row & { sequence: string | number }): SequencedEvent => ({
  ...toEvent(row),
  sequence: Number(row.sequence),
});

/** The newest log position visible now (0 for an empty log). */
export async function latestEventSequence(db: Queryable): Promise<number> {
  const [row] = await db.query<{ sequence: string | null }>('SELECT max(sequence) AS sequence FROM events');
  return Number(row?.sequence ?? 0);
}

/**
 * Visible events after `after`, up to `until` when given, in log order, at most `limit`; only
 * those matching `filter`.
 */
export async function listEventsAfterSequence(
  db: Queryable,
  after: number,
  options: { limit: number; until?: number; filter?: EventFilter },
): Promise<SequencedEvent[]> {
  const fixed = new Conditions(['sequence > $1'], [after, options.limit]);
  if (options.until !== undefined) fixed.add((at) => `sequence <= ${at}`, options.until);
  const { where, params } = eventConditions(options.filter, fixed);
  const rows = await db.query<Row & { sequence: string }>(
    `SELECT sequence, ${COLUMNS} FROM events WHERE ${where.join(' AND ')} ORDER BY sequence LIMIT $2`,
    params,
  );
  return rows.map(toSequenced);
}

/** The events at these log positions that are visible now, in log order. */
export async function findEventsBySequence(
  db: Queryable,
  sequences: readonly number[],
): Promise<SequencedEvent[]> {
  if (sequences.length === 0) return [];
  const rows = await db.query<Row & { sequence: string }>(
    `SELECT sequence, ${COLUMNS} FROM events WHERE sequence = ANY($1::bigint[]) ORDER BY sequence`,
    [sequences.map(String)],
  );
  return rows.map(toSequenced);
}

/**
 * Retention: deletes up to `limit` events recorded before `before`, oldest first, that delivery
 * no longer needs: not waiting for a delivery position, passed by every callback's cursor, and
 * without a notification still referring to them; their positions go with them. The newest
 * event stays, so the log's position (`max(sequence)`: a new callback's start, the event
 * stream's, the metrics') never falls back to 0; so does the highest delivery position, which
 * the next ones follow. Rows another instance is deleting are skipped. Returns how many events
 * were deleted.
 */
export async function pruneEvents(db: Queryable, before: Date, limit: number): Promise<number> {
  // ARRAY(...) keeps both halves index scans (events_log, the primary key) however large the log;
  // `id <>` rather than `sequence <` so the planner does not walk the sequence index instead.
  const [row] = await db.query<{ deleted: number }>(
    `WITH deleted AS (
       DELETE FROM events WHERE id = ANY (ARRAY(
         SELECT e.id FROM events e
         WHERE e.recorded_at < $1
           AND NOT EXISTS (SELECT 1 FROM delivery_pending q WHERE q.sequence = e.sequence)
           AND NOT EXISTS (SELECT 1 FROM notifications n WHERE n.event_id = e.id)
           AND NOT EXISTS (SELECT 1 FROM delivery_positions p WHERE p.sequence = e.sequence AND p.position >
                (SELECT coalesce(min(delivered_position), 9223372036854775807) FROM callbacks))
           AND e.id <> (SELECT id FROM events ORDER BY sequence DESC LIMIT 1)
         ORDER BY e.recorded_at LIMIT $2
         FOR UPDATE OF e SKIP LOCKED))
       RETURNING sequence),
     unpositioned AS (
       DELETE FROM delivery_positions WHERE sequence IN (SELECT sequence FROM deleted)
         AND position < (SELECT max(position) FROM delivery_positions))
     SELECT count(*)::int AS deleted FROM deleted`,
    [before, limit],
  );
  return row?.deleted ?? 0;
}
