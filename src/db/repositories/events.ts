import type { ObjectType } from '../../domain/events.ts';
import { isUuid } from '../../domain/ids.ts';
import type { Queryable } from '../database.ts';
import { type KeysetPage, type KeysetRequest, keysetPage } from '../paging.ts';

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
  // PGlite hands jsonb back parsed; keep both drivers' answers the same.
  data: typeof row.data === 'string' ? JSON.parse(row.data) : row.data,
  timestamp: row.timestamp,
  recordedAt: row.recorded_at,
  publishedBy: row.published_by,
});

/** Appends events to the log; called inside the transaction of the change that caused them. */
export async function appendEvents(db: Queryable, events: readonly StoredEvent[]): Promise<void> {
  for (const event of events) {
    await db.query(`INSERT INTO events (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, [
      event.id,
      event.eventType,
      event.eventName,
      event.objectType,
      event.objectId,
      JSON.stringify(event.data),
      event.timestamp,
      event.recordedAt,
      event.publishedBy,
    ]);
  }
}

export interface EventFilter {
  eventType?: string | undefined;
  objectType?: string | undefined;
  objectId?: string | undefined;
}

export async function listEvents(
  db: Queryable,
  filter: EventFilter,
  request: KeysetRequest,
): Promise<KeysetPage<StoredEvent>> {
  const where: string[] = [];
  const params: unknown[] = [];
  for (const [column, value] of [
    ['event_type', filter.eventType],
    ['object_type', filter.objectType],
    ['object_id', filter.objectId],
  ] as const) {
    if (value === undefined) continue;
    params.push(value);
    where.push(`${column} = $${params.length}`);
  }
  const page = await keysetPage<Row>(
    db,
    {
      from: 'events',
      where,
      params,
      timestampColumn: 'recorded_at',
      idColumn: 'id',
      select: COLUMNS,
      timestampOf: (row) => row.recorded_at,
      idOf: (row) => row.id,
      // EXTERNAL events carry data of their own: pages are bounded in bytes too.
      sizeOf: 'octet_length(events::text)',
    },
    request,
  );
  return { ...page, items: page.items.map(toEvent) };
}

export async function findEvent(db: Queryable, id: string): Promise<StoredEvent | undefined> {
  if (!isUuid(id)) return undefined;
  const rows = await db.query<Row>(`SELECT ${COLUMNS} FROM events WHERE id = $1`, [id]);
  return rows[0] === undefined ? undefined : toEvent(rows[0]);
}
