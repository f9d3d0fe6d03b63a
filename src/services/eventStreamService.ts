// The live event stream's source (docs/api.md, "Event stream"): one poller per instance reads the
// event log by log position (`events.sequence`) and fans every new event out, in memory, to the
// open streams. A write request of this instance wakes it; otherwise it polls.
//
// `sequence` is assigned at insert, not at commit, so an event with a lower position can become
// visible after a higher one. Positions skipped below the high-water mark are remembered as gaps
// and looked for again on every cycle for `gapWindowMs` (longer than any transaction may take:
// the database timeout bounds it); one that commits within that time is sent late, after higher
// positions. A gap that never fills (a rolled-back insert) is forgotten after the window.
import { type Clock, systemClock } from '../background/clock.ts';
import { type LoopLogger, PollingLoop } from '../background/pollingLoop.ts';
import type { Database } from '../db/database.ts';
import {
  type EventFilter,
  findEventsBySequence,
  latestEventSequence,
  listEventsAfterSequence,
  type SequencedEvent,
} from '../db/repositories/eventRepository.ts';
import { AppError } from '../domain/errors.ts';

const BATCH = 500;
/** At most this many gaps are remembered; beyond, the oldest is forgotten first. */
const MAX_GAPS = 10_000;

export interface EventStreamOptions {
  pollMs: number;
  /** How long a skipped position is looked for again. */
  gapWindowMs: number;
  maxPerClient: number;
  maxStreams: number;
  clock?: Clock;
  log: LoopLogger;
}

/** An open stream as the hub sees it. */
export interface StreamListener {
  /** Every new event (unfiltered), in the order the hub learns of them. */
  event(event: SequencedEvent): void;
  /** The hub closes (the server shuts down): end the stream. */
  close(): void;
}

export interface Subscription {
  /** The log position up to which the hub has looked when the stream joined. */
  readonly highWater: number;
  /** Positions at or below `highWater` that may still be sent later (late commits). */
  readonly pendingGaps: ReadonlySet<number>;
  unsubscribe(): void;
}

/** Whether an event passes a stream's filters (those of GET /events). */
export const matchesFilter = (event: SequencedEvent, filter: EventFilter): boolean =>
  (filter.eventType === undefined || event.eventType === filter.eventType) &&
  (filter.objectType === undefined || event.objectType === filter.objectType) &&
  (filter.objectId === undefined || event.objectId === filter.objectId);

export class EventStreamHub {
  readonly #db: Database;
  readonly #options: EventStreamOptions;
  readonly #loop: PollingLoop;
  readonly #listeners = new Map<StreamListener, string>();
  readonly #perClient = new Map<string, number>();
  /** Gap position -> when it was first seen (clock milliseconds). */
  readonly #gaps = new Map<number, number>();
  #highWater = 0;
  #started: Promise<void> | undefined;
  #closed = false;

  constructor(db: Database, options: EventStreamOptions) {
    this.#db = db;
    this.#options = options;
    this.#loop = new PollingLoop({
      name: 'event stream',
      intervalMs: options.pollMs,
      clock: this.clock,
      log: options.log,
      cycle: (signal) => this.#cycle(signal),
    });
  }

  get clock(): Clock {
    return this.#options.clock ?? systemClock;
  }

  /** Sleeps on the hub's clock (heartbeats); ends early when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return this.clock.sleep(ms, signal);
  }

  /** Open streams in total. */
  get size(): number {
    return this.#listeners.size;
  }

  /**
   * Joins a stream; 429 TOO_MANY_STREAMS when its client, or the instance, has as many open as
   * allowed. The first stream starts the poller at the log's current end.
   */
  async subscribe(clientId: string, listener: StreamListener): Promise<Subscription> {
    const { maxPerClient, maxStreams } = this.#options;
    const open = this.#perClient.get(clientId) ?? 0;
    if (open >= maxPerClient) throw new AppError('TOO_MANY_STREAMS', { limit: maxPerClient });
    if (this.#listeners.size >= maxStreams) throw new AppError('TOO_MANY_STREAMS', { limit: maxStreams });
    if (this.#closed) throw new AppError('DATABASE_UNAVAILABLE', { requestId: '' });
    this.#perClient.set(clientId, open + 1);
    this.#listeners.set(listener, clientId);
    try {
      this.#started ??= this.#start();
      await this.#started;
    } catch (error) {
      this.#started = undefined;
      this.#remove(listener);
      throw error;
    }
    return {
      highWater: this.#highWater,
      pendingGaps: new Set(this.#gaps.keys()),
      unsubscribe: () => this.#remove(listener),
    };
  }

  /** Look for new events now (a write may have recorded some). */
  wake(): void {
    if (this.#started) this.#loop.wake();
  }

  /** Resolves once a cycle that began after this call has ended (tests). */
  nextCycle(): Promise<void> {
    return this.#loop.nextCycle();
  }

  /** Ends every open stream and stops the poller. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const listener of [...this.#listeners.keys()]) {
      this.#remove(listener);
      listener.close();
    }
    await this.#loop.stop();
  }

  async #start(): Promise<void> {
    this.#highWater = await latestEventSequence(this.#db);
    this.#loop.start();
  }

  #remove(listener: StreamListener): void {
    const clientId = this.#listeners.get(listener);
    if (clientId === undefined) return;
    this.#listeners.delete(listener);
    const open = (this.#perClient.get(clientId) ?? 1) - 1;
    if (open > 0) this.#perClient.set(clientId, open);
    else this.#perClient.delete(clientId);
  }

  #fanOut(event: SequencedEvent): void {
    for (const listener of [...this.#listeners.keys()]) listener.event(event);
  }

  async #cycle(signal: AbortSignal): Promise<void> {
    const now = this.clock.now().getTime();
    for (const [sequence, since] of this.#gaps) {
      if (now - since > this.#options.gapWindowMs) this.#gaps.delete(sequence);
    }
    if (this.#gaps.size > 0) {
      for (const event of await findEventsBySequence(this.#db, [...this.#gaps.keys()])) {
        this.#gaps.delete(event.sequence);
        this.#fanOut(event);
      }
    }
    while (!signal.aborted) {
      const events = await listEventsAfterSequence(this.#db, this.#highWater, { limit: BATCH });
      for (const event of events) {
        const from = Math.max(this.#highWater + 1, event.sequence - MAX_GAPS);
        for (let skipped = from; skipped < event.sequence; skipped++) this.#addGap(skipped, now);
        this.#highWater = event.sequence;
        this.#fanOut(event);
      }
      if (events.length < BATCH) break;
    }
  }

  #addGap(sequence: number, now: number): void {
    this.#gaps.set(sequence, now);
    if (this.#gaps.size > MAX_GAPS) {
      const [oldest] = this.#gaps.keys();
      if (oldest !== undefined) this.#gaps.delete(oldest);
    }
  }
}
