import { v7 as uuidv7 } from 'uuid';
import type { Queryable } from '../db/database.ts';
import { appendEvents } from '../db/repositories/events.ts';
import type { NewEvent } from '../domain/events.ts';

/** Writes the events of a change into the log, in the caller's transaction, all at the change's time. */
export async function recordEvents(tx: Queryable, events: readonly NewEvent[], at: Date): Promise<void> {
  await appendEvents(
    tx,
    events.map((event) => ({ ...event, id: uuidv7(), eventName: null, timestamp: at })),
  );
}
