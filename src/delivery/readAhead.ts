// Reading ahead from the cursors: the events after each held callback's read position, read for
// all callbacks in one statement and kept in memory, so that a send that ends starts the next one
// at once instead of after a read from the database. What is read is bounded per callback (by what
// it has out) and for the instance (by maxInFlight), so memory stays bounded however many lag.
import type { Database } from '../db/database.ts';
import { type CursorRead, readAfterCursors, skipBehind } from '../db/repositories/deliveryCursors.ts';
import type { Cursor, Cursors } from './cursors.ts';
import { roundRobin } from './roundRobin.ts';

/** Events a callback may have read and not yet recorded (ahead, at its receiver, waiting for the record), in caps. */
const OUT_PER_CAP = 5;
/** Events read ahead over all callbacks, per slot of maxInFlight: bounds the memory they take. */
const READ_AHEAD_PER_SLOT = 2;

/** What a callback may have at its receiver from this instance, and what it has (the Sender's). */
export interface SendRoom {
  cap(cursor: Cursor): number;
  out(cursor: Cursor): number;
}

export interface ReadAheadOptions {
  /** Names this instance in the cursors it skips forward (they must be its own). */
  instanceId: string;
  maxInFlight: number;
  perCallback: number;
}

export class ReadAhead {
  readonly #db: Database;
  readonly #cursors: Cursors;
  readonly #room: SendRoom;
  readonly #options: ReadAheadOptions;
  /** The newest delivery position seen. */
  #head = 0;

  constructor(db: Database, cursors: Cursors, room: SendRoom, options: ReadAheadOptions) {
    this.#db = db;
    this.#cursors = cursors;
    this.#room = room;
    this.#options = options;
  }

  /** Events up to `head` have delivery positions (a poll said so). */
  saw(head: number): void {
    this.#head = Math.max(this.#head, head);
  }

  /** The cursor has read up to less than half of its read-ahead and there is more to read. */
  wantsRead(cursor: Cursor): boolean {
    return cursor.readPosition < this.#head && cursor.aheadCount <= this.#readAhead(cursor) / 2;
  }

  /**
   * Reads for the cursors behind the head, in one statement for all: those with less than half
   * their read-ahead left, in chunks of at least half of it, bounded by what each has out (sent,
   * or waiting for its record) and by a total for the instance, shared round-robin. Cursors too
   * far behind skip forward first. Returns whether anything was asked for.
   */
  async read(now: Date): Promise<boolean> {
    const behind = [...this.#cursors.all()].filter((cursor) => cursor.readPosition < this.#head);
    for (const cursor of behind) await this.#skipIfTooFarBehind(cursor, now);
    let aheadTotal = 0;
    for (const cursor of this.#cursors.all()) aheadTotal += cursor.aheadCount;
    const { perCallback, maxInFlight } = this.#options;
    const wanting = behind
      .map((cursor) => {
        const readAhead = this.#readAhead(cursor);
        if (cursor.aheadCount > readAhead / 2) return { item: cursor, room: 0 };
        const room = Math.min(
          this.#room.cap(cursor) - this.#room.out(cursor) + readAhead - cursor.aheadCount,
          OUT_PER_CAP * perCallback - cursor.outCount,
        );
        return { item: cursor, room };
      })
      .filter((want) => want.room > 0);
    const takes = roundRobin(wanting, READ_AHEAD_PER_SLOT * maxInFlight - aheadTotal);
    if (takes.size === 0) return false;
    const reads: CursorRead[] = [...takes].map(([cursor, take]) => ({
      callbackId: cursor.callbackId,
      after: cursor.readPosition,
      take,
    }));
    const batch = await readAfterCursors(this.#db, reads);
    this.saw(batch.head);
    for (const [cursor, take] of takes) {
      if (this.#cursors.get(cursor.callbackId) !== cursor) continue; // given back meanwhile
      const events = batch.events.get(cursor.callbackId) ?? [];
      cursor.take(events);
      if (events.length < take) cursor.passed(batch.head);
    }
    return true;
  }

  /**
   * How many events a callback reads beyond what it may send now: up to two caps' worth (at most
   * maxUnconfirmedMessages) while its receiver keeps up, so that its window stays full while the
   * next read is on its way (one cap's worth left gaps: bench/mqttDelivery.ts); none while it is
   * probed or cut back, so the events a slow receiver has not taken stay unread, where the queue
   * bound drops the oldest.
   */
  #readAhead(cursor: Cursor): number {
    const cap = this.#room.cap(cursor);
    return !cursor.untried && cap === this.#options.perCallback
      ? Math.min(2 * cap, cursor.maxUnconfirmedMessages)
      : 0;
  }

  /**
   * A receiver that cannot keep up leaves its cursor ever further behind: past
   * maxUnconfirmedMessages events, the oldest unread ones are skipped and counted as discarded,
   * as the retry set drops its oldest. Positions count every event, so a callback that matches
   * few of them can be that far behind with little to skip: after a check that skipped nothing,
   * the next waits until the head has moved on that far again.
   */
  async #skipIfTooFarBehind(cursor: Cursor, now: Date): Promise<void> {
    const from = Math.max(cursor.readPosition, cursor.skipCheckedAt);
    if (this.#head - from <= cursor.maxUnconfirmedMessages) return;
    const head = this.#head;
    const to = await skipBehind(this.#db, this.#options.instanceId, {
      callbackId: cursor.callbackId,
      after: cursor.readPosition,
      afterSequence: cursor.readSequence,
      now,
    });
    if (this.#cursors.get(cursor.callbackId) !== cursor) return;
    if (to === null) cursor.skipCheckedAt = head;
    else cursor.skipped(to);
  }
}
