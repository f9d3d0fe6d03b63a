// The cursors of the callbacks this instance holds (docs/decisions/0003-delivery-from-the-event-log.md),
// in memory: per callback how far its reader has got, which of its events are still out, and so
// where its stored cursor may move. The stored cursor only ever passes events whose outcome is
// recorded; a crash sends again what was out, nothing else.
import type { CursorMove, CursorNotification, LeasedCallback } from '../db/repositories/deliveryCursors.ts';

/** One held callback's cursor: read, sent and stored positions. */
export class Cursor {
  readonly callbackId: string;
  maxUnconfirmedMessages: number;
  /** Never sent to: one send, a probe, until it has an outcome. */
  untried: boolean;
  /** Every matching event up to here has been read; `readSequence` is the last one's number. */
  readPosition: number;
  readSequence: number;
  /** As stored: where a new holder of the lease would start. */
  storedPosition: number;
  /** The head when it was last checked for falling too far behind (src/delivery/readAhead.ts). */
  skipCheckedAt = 0;
  /** Sends at the receiver now (what the callback's cap counts). */
  sending = 0;
  /**
   * Events read and numbered but not sent yet, oldest first: read ahead, so that a send that ends
   * starts the next one at once instead of after a read from the database.
   */
  readonly #ahead: CursorNotification[] = [];
  /** Events read whose outcome is not yet being recorded (ahead or sent): position -> sequence, in position order. */
  readonly #out = new Map<number, number>();

  constructor(leased: LeasedCallback) {
    this.callbackId = leased.callbackId;
    this.maxUnconfirmedMessages = leased.maxUnconfirmedMessages;
    this.untried = leased.untried;
    this.readPosition = leased.deliveredPosition;
    this.readSequence = leased.lastSequence;
    this.storedPosition = leased.deliveredPosition;
  }

  get outCount(): number {
    return this.#out.size;
  }

  /** Events read ahead, waiting for a slot. */
  get aheadCount(): number {
    return this.#ahead.length;
  }

  /** Numbers the events just read (on from the last one), counts them as out and queues them to be sent. */
  take(events: readonly CursorNotification[]): void {
    for (const event of events) {
      this.readSequence += 1;
      event.sequence = this.readSequence;
      this.readPosition = event.position;
      this.#out.set(event.position, event.sequence);
      this.#ahead.push(event);
    }
  }

  /** The oldest event read ahead, for sending; it stays out until its outcome is recorded. */
  next(): CursorNotification | undefined {
    return this.#ahead.shift();
  }

  /** The reader saw nothing more up to `head`. */
  passed(head: number): void {
    if (head > this.readPosition) this.readPosition = head;
  }

  /** Skipped ahead past events it had fallen too far behind on (counted as discarded). */
  skipped(to: { position: number; sequence: number }): void {
    this.readPosition = to.position;
    this.readSequence = to.sequence;
  }

  /**
   * These events' outcomes are about to be recorded: they are no longer out, and the cursor may
   * move to just before the oldest event still out (or to the read position when none is).
   */
  finish(positions: readonly number[]): CursorMove {
    for (const position of positions) this.#out.delete(position);
    const oldest = this.#out.entries().next();
    if (oldest.done)
      return { callbackId: this.callbackId, position: this.readPosition, sequence: this.readSequence };
    const [position, sequence] = oldest.value;
    return { callbackId: this.callbackId, position: position - 1, sequence: sequence - 1 };
  }
}

/** The cursors of the callbacks this instance holds, kept in line with its leases. */
export class Cursors {
  readonly #cursors = new Map<string, Cursor>();

  get(callbackId: string): Cursor | undefined {
    return this.#cursors.get(callbackId);
  }

  all(): IterableIterator<Cursor> {
    return this.#cursors.values();
  }

  /** Callbacks with sends out: never given back by the lease step. */
  busy(): string[] {
    return [...this.#cursors.values()]
      .filter((cursor) => cursor.outCount > 0)
      .map((cursor) => cursor.callbackId);
  }

  /**
   * Idle callbacks whose reader passed their stored cursor without a match: worth storing.
   * `recording` ones are not idle: the outcomes being written are behind their read position.
   */
  idlePositions(recording: ReadonlySet<string>): Map<string, number> {
    const idle = new Map<string, number>();
    for (const cursor of this.#cursors.values()) {
      if (
        cursor.outCount === 0 &&
        !recording.has(cursor.callbackId) &&
        cursor.readPosition > cursor.storedPosition
      ) {
        idle.set(cursor.callbackId, cursor.readPosition);
      }
    }
    return idle;
  }

  /** After a lease step: new callbacks start at their stored cursor, ones no longer held are dropped. */
  reconcile(held: readonly LeasedCallback[], idleStored: ReadonlyMap<string, number>): void {
    const ids = new Set(held.map((leased) => leased.callbackId));
    for (const callbackId of this.#cursors.keys()) {
      if (!ids.has(callbackId)) this.#cursors.delete(callbackId);
    }
    for (const leased of held) {
      const cursor = this.#cursors.get(leased.callbackId);
      if (!cursor) {
        this.#cursors.set(leased.callbackId, new Cursor(leased));
        continue;
      }
      cursor.maxUnconfirmedMessages = leased.maxUnconfirmedMessages;
      const stored = idleStored.get(leased.callbackId);
      if (stored !== undefined) cursor.storedPosition = Math.max(cursor.storedPosition, stored);
    }
  }

  /** Forgets a callback (lease lost, deleted, or its record failed): it starts again from its stored cursor. */
  drop(callbackId: string): void {
    this.#cursors.delete(callbackId);
  }
}
