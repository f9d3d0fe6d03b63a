// Sends, outside any transaction: which callback's event goes out next, each callback within its
// cap of sends in flight, the instance within maxInFlight, and the free slots shared round-robin
// so a few busy callbacks cannot take them all (docs/decisions/0003-delivery-from-the-event-log.md, fairness). Each send
// is bounded by the transport's timeout; its outcome goes to the Recorder.
import type { Clock } from '../background/clock.ts';
import type { Database } from '../db/database.ts';
import {
  type Attempt,
  claimDue,
  existingCallbacks,
  type Notification,
} from '../db/repositories/notifications.ts';
import { claimLockMs } from '../domain/delivery.ts';
import type { Cursor, Cursors } from './cursors.ts';
import { InFlightCaps } from './inFlightCaps.ts';
import { DeliveryBodies, deliveryHeaders } from './payload.ts';
import type { Recorder } from './recording.ts';
import { roundRobin } from './roundRobin.ts';
import { failure, type SendResult, type Transport } from './transport.ts';

/** Parsed callback URLs kept (#url). */
const URLS_KEPT = 10_000;

export interface SenderOptions {
  /** Bounds each send (the transports'); a retry's claim outlasts it (claimLockMs). */
  timeoutMs: number;
  /** Sends in flight at once, over all callbacks. */
  maxInFlight: number;
  /** Sends in flight at once for one callback; fewer while its receiver does not answer (InFlightCaps). */
  perCallback: number;
  /** A callback's link: at once when known, else once it has been read (CallbackLinks). */
  callbackHref: (callbackId: string) => string | Promise<string>;
  /** The time of claims and headers. */
  clock: Clock;
  /** Something for the loop to do: a callback waits for a slot, or a cursor for a read. */
  wake: () => void;
  /** Whether a cursor has read so little ahead that the loop should read more (ReadAhead). */
  wantsRead: (cursor: Cursor) => boolean;
}

export class Sender {
  readonly #db: Database;
  readonly #transports: Record<'http' | 'mqtt', Transport>;
  readonly #cursors: Cursors;
  readonly #recorder: Recorder;
  readonly #options: SenderOptions;
  readonly #caps: InFlightCaps;
  readonly #urls = new Map<string, URL>();
  readonly #bodies = new DeliveryBodies();
  readonly #inFlight = new Set<Promise<void>>();
  /** This instance's retries in flight per callback (cursors count their own sends). */
  readonly #retriesOut = new Map<string, number>();
  /** The last cycle left callbacks waiting for a slot: finished sends do not pass theirs on (#afterSend). */
  #contended = false;
  #stopping = false;

  constructor(
    db: Database,
    transports: Record<'http' | 'mqtt', Transport>,
    cursors: Cursors,
    recorder: Recorder,
    options: SenderOptions,
  ) {
    this.#db = db;
    this.#transports = transports;
    this.#cursors = cursors;
    this.#recorder = recorder;
    this.#options = options;
    this.#caps = new InFlightCaps(options.perCallback);
  }

  /** Sends in flight now, first attempts and retries. */
  get inFlight(): number {
    return this.#inFlight.size;
  }

  /** Slots free for new sends. */
  get freeSlots(): number {
    return this.#options.maxInFlight - this.#inFlight.size;
  }

  /** Every slot is taken: callbacks may be waiting for one, so finished sends stop passing theirs on. */
  markContended(): void {
    this.#contended = true;
  }

  /** Resolves once every send in flight now has ended. */
  async settled(): Promise<void> {
    await Promise.allSettled(this.#inFlight);
  }

  /** A callback's sends at its receiver from this instance, from its cursor and from its retries. */
  out(cursor: Cursor): number {
    return cursor.sending + (this.#retriesOut.get(cursor.callbackId) ?? 0);
  }

  /** A callback's cap: one while never sent to (a probe), else what InFlightCaps allows it. */
  cap(cursor: Cursor): number {
    return cursor.untried ? 1 : (this.#caps.reduced().get(cursor.callbackId) ?? this.#options.perCallback);
  }

  /**
   * Starts sends of events read ahead: `free` slots round-robin over the callbacks, each up to its
   * cap. When some were left wanting, slots are contended and a finished send no longer passes its
   * slot straight to its own callback's next event (#afterSend) until a cycle finds them uncontended.
   * Returns how many sends started.
   */
  sendAhead(free: number): number {
    const wanting = [...this.#cursors.all()]
      .map((cursor) => ({
        item: cursor,
        room: Math.min(this.cap(cursor) - this.out(cursor), cursor.aheadCount),
      }))
      .filter((want) => want.room > 0);
    let wanted = 0;
    for (const want of wanting) wanted += want.room;
    this.#contended = wanted > free;
    let started = 0;
    for (const [cursor, count] of roundRobin(wanting, free)) {
      for (let sent = 0; sent < count && this.#sendNext(cursor); sent++) started += 1;
    }
    return started;
  }

  /**
   * Claims the retries that are due, within the callbacks' caps less what their cursors have in
   * flight here, and sends them. Returns how many were claimed.
   */
  async sendRetries(free: number, now: Date): Promise<number> {
    const caps = new Map(this.#caps.reduced());
    for (const cursor of this.#cursors.all()) {
      if (cursor.sending > 0) {
        const cap = caps.get(cursor.callbackId) ?? this.#options.perCallback;
        caps.set(cursor.callbackId, Math.max(0, cap - cursor.sending));
      }
    }
    const claimed = await claimDue(this.#db, {
      limit: free,
      perCallback: this.#options.perCallback,
      reducedCaps: caps,
      lockMs: claimLockMs(this.#options.timeoutMs),
      now,
    });
    for (const notification of claimed) {
      const { callbackId } = notification;
      this.#retriesOut.set(callbackId, (this.#retriesOut.get(callbackId) ?? 0) + 1);
      this.#track(
        this.#send(notification, (attempt) => {
          const left = (this.#retriesOut.get(callbackId) ?? 1) - 1;
          if (left > 0) this.#retriesOut.set(callbackId, left);
          else this.#retriesOut.delete(callbackId);
          this.#recorder.retry(attempt);
          this.#options.wake(); // its slot may go to the next due retry or to a cursor
        }),
      );
    }
    return claimed.length;
  }

  /** Forgets the reduced caps of callbacks that no longer exist. */
  async forgetDeleted(): Promise<void> {
    await this.#caps.forgetDeleted((ids) => existingCallbacks(this.#db, ids));
  }

  /** No send starts from a finished one any more; those in flight go on to their end. */
  stop(): void {
    this.#stopping = true;
  }

  async close(): Promise<void> {
    await Promise.all([this.#transports.http.close(), this.#transports.mqtt.close()]);
  }

  /** Sends the cursor's oldest event read ahead; false when there is none. */
  #sendNext(cursor: Cursor): boolean {
    const notification = cursor.next();
    if (notification === undefined) return false;
    cursor.sending += 1;
    this.#track(
      this.#send(notification, (attempt) => {
        cursor.sending -= 1;
        cursor.untried = false;
        this.#recorder.firstAttempt(cursor, attempt);
        this.#afterSend(cursor);
      }),
    );
    return true;
  }

  /**
   * A send from this cursor ended. Its next event read ahead goes out at once, without waiting
   * for a cycle, while the callback is within its cap and nobody else waits for a slot. The loop
   * is woken only when it has work: another callback waits for the slot, or this one needs a
   * read. (Waking it for every send would run a cycle, and its statement, every few sends.)
   */
  #afterSend(cursor: Cursor): void {
    if (this.#stopping) return;
    const current = this.#cursors.get(cursor.callbackId) === cursor;
    const next = current && cursor.aheadCount > 0 && this.out(cursor) < this.cap(cursor);
    // The ending send still counts itself in #inFlight.
    const sent =
      next && !this.#contended && this.#inFlight.size <= this.#options.maxInFlight && this.#sendNext(cursor);
    if (this.#contended || !current || (next && !sent) || this.#options.wantsRead(cursor))
      this.#options.wake();
  }

  #track(send: Promise<void>): void {
    this.#inFlight.add(send);
    void send.finally(() => this.#inFlight.delete(send));
  }

  /** Sends one notification; `finished` takes its attempt for recording. */
  async #send<N extends Notification>(
    notification: N,
    finished: (attempt: Attempt<N>) => void,
  ): Promise<void> {
    const started = performance.now();
    let result: SendResult;
    try {
      const url = this.#url(notification.url);
      const href = this.#options.callbackHref(notification.callbackId);
      const body = this.#bodies.body(notification, typeof href === 'string' ? href : await href);
      const transport = url.protocol === 'mqtt:' ? this.#transports.mqtt : this.#transports.http;
      result = await transport.send(
        url,
        body,
        deliveryHeaders(notification, body, this.#options.clock.now()),
      );
    } catch (error) {
      // Transports never throw; anything else that does is this attempt's failure, not a crash.
      result = failure(error);
    }
    this.#caps.learn(notification.callbackId, result); // at once: the next claim may come before the record
    finished({ notification, outcome: { ...result, durationMs: performance.now() - started } });
    // Not awaited: the slot is free once the receiver answered; drain() and stop() wait for the record.
    void this.#recorder.record();
  }

  /** The callback URL parsed, kept per URL (bounded): the same few URLs are sent to again and again. */
  #url(text: string): URL {
    let url = this.#urls.get(text);
    if (url === undefined) {
      if (this.#urls.size >= URLS_KEPT) this.#urls.clear();
      url = new URL(text);
      this.#urls.set(text, url);
    }
    return url;
  }
}
