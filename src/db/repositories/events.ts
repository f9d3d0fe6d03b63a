import type { NewEvent } from '../../domain/events.ts';
import type { Queryable } from '../database.ts';

export interface StoredEvent extends NewEvent {
  id: string;
  eventName: string | null;
  timestamp: Date;
}

/** Appends events to the log; called inside the transaction of the change that caused them. */
export async function appendEvents(db: Queryable, events: readonly StoredEvent[]): Promise<void> {
  for (const event of events) {
    await db.query(
      `INSERT INTO events (id, event_type, event_name, object_type, object_id, data, "timestamp", recorded_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7)`,
      [
        event.id,
        event.eventType,
        event.eventName,
        event.objectType,
        event.objectId,
        JSON.stringify(event.data),
        event.timestamp,
      ],
    );
  }
}
