import { v7 as uuidv7 } from 'uuid';
import type { Database, Queryable } from '../db/database.ts';
import { appendEvents, findEvent, type StoredEvent } from '../db/repositories/eventRepository.ts';
import { AppError, notFound } from '../domain/errors.ts';
import { EXTERNAL_EVENT_TYPE, type NewEvent, type ObjectType } from '../domain/events.ts';

/**
 * The one way a service records events: the events of a change (built by domain/events.ts's
 * catalogueEvent, lifecycleEvents or resourcesUpdated), in the caller's transaction, all at the
 * change's time.
 */
export async function recordEvents(tx: Queryable, events: readonly NewEvent[], at: Date): Promise<void> {
  await appendEvents(
    tx,
    events.map((event) => ({
      ...event,
      id: uuidv7(),
      eventName: event.eventName ?? null,
      timestamp: at,
      recordedAt: at,
      publishedBy: null,
    })),
  );
}

export interface ExternalEvent {
  objectType: ObjectType;
  objectId: string | null;
  eventName: string | null;
  data: Record<string, unknown>;
  /** The event's own time; defaults to now. */
  timestamp: Date | undefined;
}

/**
 * POST /events (docs/events.md, "The event log"): an application's own event, delivered like any
 * platform event. Its data is bounded (`dataMaxBytes` of JSON, 413 beyond) so that pages of the
 * log and deliveries stay bounded too.
 */
export async function publishExternalEvent(
  db: Database,
  clientId: string,
  input: ExternalEvent,
  dataMaxBytes: number,
): Promise<StoredEvent> {
  if (Buffer.byteLength(JSON.stringify(input.data)) > dataMaxBytes) {
    throw new AppError('PAYLOAD_TOO_LARGE', { rule: 'field', field: 'data', limit: dataMaxBytes });
  }
  const now = new Date();
  const event: StoredEvent = {
    ...input,
    id: uuidv7(),
    eventType: EXTERNAL_EVENT_TYPE,
    timestamp: input.timestamp ?? now,
    recordedAt: now,
    publishedBy: clientId,
  };
  await appendEvents(db, [event]);
  return event;
}

export async function getEvent(db: Queryable, id: string): Promise<StoredEvent> {
  const event = await findEvent(db, id);
  if (!event) throw notFound('event', id);
  return event;
}
