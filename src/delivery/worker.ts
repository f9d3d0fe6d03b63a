// The delivery loop of one instance (docs/decisions/0003-delivery-from-the-event-log.md): give new
// their delivery positions, hold leases on a share of the callbacks, send each held callback the
// events after its cursor, and retry the notifications whose first attempt failed. Sends happen
// outside any transaction; outcomes are recorded in batches. Several instances on one PostgreSQL
// share the callbacks by lease and the retries by SKIP LOCKED claims; a crash loses nothing
// (leases and claims expire, and a cursor only ever passes recorded outcomes).
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../background/clock.ts';
import { PollingLoop } from '../background/pollingLoop.ts';
import type { Database } from '../db/database.ts';
import {
  advanceCursors,
  leaseCallbacks,
  pollDelivery,
  readStreams,
  releaseLeases,
  type StreamedNotification,
  type StreamRead,
  skipBehind,
} from '../db/repositories/deliveryStreams.ts';
import {
  type Attempt,
  type ClaimedNotification,
  claimDue,
  existingCallbacks,
  type Notification,
  pruneAttempts,
  recordAttempts,
} from '../db/repositories/notifications.ts';
import {
  type AttemptResult,
  attemptResult,
  attemptsToRecord,
  claimLockMs,
  nextAttemptAt,
} from '../domain/delivery.ts';
import { logAttempts } from './failureLog.ts';
import { InFlightCaps } from './inFlightCaps.ts';
import { deliveryBody, deliveryHeaders } from './payload.ts';
import { type Stream, Streams } from './streams.ts';
import { failure, type SendResult, type Transport } from './transport.ts';

export interface DeliveryOptions {
  retryIntervalMs: number;
  timeoutMs: number;
  pollMs: number;
  /** How long a callback's lease lasts unless renewed: how soon another instance takes over a dead one's. */
  leaseMs: number;
  /** Sends in flight at once, over all callbacks. */
  maxInFlight: number;
  /**
   * Sends in flight at once for one callback; one while its receiver does not answer
   * (docs/decisions/0003-delivery-from-the-event-log.md).
   */
  perCallback: number;
  callbackHref: (callbackId: string) => string;
  /** The time of claims, leases, retries and headers. */
  clock: Clock;
  /** Metrics hooks (src/metrics): a cycle of the loop finished; a delivery attempt's outcome. */
  onCycle?: () => void;
  onOutcome?: (outcome: string) => void;
  /** After the worker has stopped: closes connections opened for it alone. */
  onStopped?: () => Promise<void> | undefined;
}

const POLL_BATCH = 500;
/** Attempts kept per callback in its history (pruned to them; attemptsToRecord leaves out older successes). */
const ATTEMPTS_KEPT = 100;
const PRUNE_EVERY_MS = 60_000;
const RECORD_BATCH = 500;
/** Events a callback may have read and not yet recorded (ahead, at its receiver, waiting for the record), in caps. */
const OUT_PER_CAP = 5;
/** Parsed callback URLs kept (#url). */
const URLS_KEPT = 10_000;
/** Events read ahead over all callbacks, per slot of maxInFlight: bounds the memory they take. */
const READ_AHEAD_PER_SLOT = 2;

/**
 * Shares `budget` out one at a time in turns over the items, each up to its room, so that no
 * item gets a second share before every other one had its first. Returns item -> share.
 */
function roundRobin<T>(wanting: readonly { item: T; room: number }[], budget: number): Map<T, number> {
  const shares = new Map<T, number>();
  const open = wanting.map((want) => ({ ...want }));
  for (let left = budget; left > 0 && open.length > 0; ) {
    for (let index = 0; index < open.length && left > 0; ) {
      const want = open[index] as (typeof open)[number];
      shares.set(want.item, (shares.get(want.item) ?? 0) + 1);
      left -= 1;
      want.room -= 1;
      if (want.room === 0) open.splice(index, 1);
      else index += 1;
    }
  }
  return shares;
}

export class DeliveryWorker {
  readonly #db: Database;
  readonly #transports: Record<'http' | 'mqtt', Transport>;
  readonly #options: DeliveryOptions;
  readonly #log: FastifyBaseLogger;
  readonly #clock: Clock;
  readonly #loop: PollingLoop;
  /** Names this instance in leases. */
  readonly #instanceId = randomUUID();
  readonly #streams = new Streams();
  readonly #urls = new Map<string, URL>();
  readonly #inFlight = new Set<Promise<void>>();
  /** This instance's retries in flight per callback (its streams count their own). */
  readonly #retriesOut = new Map<string, number>();
  readonly #caps: InFlightCaps;
  /** The newest delivery position seen. */
  #head = 0;
  #leasedAt = Number.NEGATIVE_INFINITY;
  #leaseNeeded = true;
  #lastClaimed = 0;
  #lastPrune = 0;
  #stopped: Promise<void> | undefined;
  #stopping = false;
  /** The last cycle left callbacks waiting for a slot: finished sends do not pass theirs on (#afterSend). */
  #contended = false;
  #unrecordedFirst: { stream: Stream; attempt: Attempt<StreamedNotification> }[] = [];
  #unrecordedRetries: Attempt<ClaimedNotification>[] = [];
  #recording: Promise<void> | undefined;
  /** Callbacks whose outcomes are being recorded: not given back by a lease step meanwhile. */
  readonly #recordingFor = new Set<string>();

  constructor(
    db: Database,
    transports: Record<'http' | 'mqtt', Transport>,
    options: DeliveryOptions,
    log: FastifyBaseLogger,
  ) {
    this.#db = db;
    this.#transports = transports;
    this.#options = options;
    this.#log = log;
    this.#clock = options.clock;
    this.#caps = new InFlightCaps(options.perCallback);
    this.#loop = new PollingLoop({
      name: 'delivery',
      intervalMs: options.pollMs,
      clock: options.clock,
      log,
      cycle: async () => {
        try {
          await this.#cycle();
        } finally {
          this.#options.onCycle?.(); // a finished cycle, even a failed one: the loop is alive
        }
      },
    });
  }

  start(): void {
    this.#options.onCycle?.();
    this.#loop.start();
  }

  /** Something changed (a write request ended, a send finished): look for work now. */
  wake(): void {
    this.#loop.wake();
  }

  /**
   * Resolves once everything due at the clock's current time has been sent and its outcome
   * recorded: cycles run until one sends nothing while no send is in flight.
   */
  async drain(): Promise<void> {
    for (;;) {
      await this.#loop.nextCycle();
      if (this.#lastClaimed === 0 && this.#inFlight.size === 0 && this.#recording === undefined) return;
      await Promise.allSettled(this.#inFlight);
      await this.#recording;
    }
  }

  /**
   * Stops sending, lets the sends in flight finish (each is bounded by the timeout), records
   * them and gives the leases back, so another instance goes on at once. Idempotent.
   */
  stop(): Promise<void> {
    this.#stopped ??= this.#stop();
    return this.#stopped;
  }

  async #stop(): Promise<void> {
    this.#stopping = true;
    await this.#loop.stop();
    await Promise.allSettled(this.#inFlight);
    await this.#recording;
    await releaseLeases(this.#db, this.#instanceId).catch((error: unknown) => {
      // They expire instead (BRIDGE_DELIVERY_LEASE_MS).
      this.#log.warn({ err: error }, 'could not give back the delivery leases');
    });
    await Promise.all([this.#transports.http.close(), this.#transports.mqtt.close()]);
    await this.#options.onStopped?.();
  }

  async #cycle(): Promise<void> {
    let poll = await pollDelivery(this.#db, this.#instanceId, POLL_BATCH, this.#clock.now());
    while (poll.sequenced === POLL_BATCH) {
      // a full batch: more events are waiting
      poll = await pollDelivery(this.#db, this.#instanceId, POLL_BATCH, this.#clock.now());
    }
    this.#head = Math.max(this.#head, poll.head);
    const now = this.#clock.now();
    if (poll.unleased || this.#leaseNeeded || now.getTime() - this.#leasedAt >= this.#options.leaseMs / 3) {
      await this.#lease(now);
    }
    this.#lastClaimed = 0;
    let free = this.#options.maxInFlight - this.#inFlight.size;
    if (free > 0) free -= await this.#sendFromCursors(free, now);
    else this.#contended = true;
    if (free > 0 && poll.nextRetryAt !== null && poll.nextRetryAt <= now) await this.#sendRetries(free, now);
    if (now.getTime() - this.#lastPrune > PRUNE_EVERY_MS) {
      this.#lastPrune = now.getTime();
      await pruneAttempts(this.#db, ATTEMPTS_KEPT);
      await this.#caps.forgetDeleted((ids) => existingCallbacks(this.#db, ids));
    }
  }

  async #lease(now: Date): Promise<void> {
    const idle = this.#streams.idlePositions(this.#recordingFor);
    const held = await leaseCallbacks(this.#db, this.#instanceId, {
      now,
      until: new Date(now.getTime() + this.#options.leaseMs),
      busy: [...new Set([...this.#streams.busy(), ...this.#recordingFor])],
      idle,
    });
    this.#streams.reconcile(held, idle);
    this.#leasedAt = now.getTime();
    this.#leaseNeeded = false;
  }

  /** A callback's sends at its receiver from this instance, from its cursor and from its retries. */
  #out(callbackId: string, stream = this.#streams.get(callbackId)): number {
    return (stream?.sending ?? 0) + (this.#retriesOut.get(callbackId) ?? 0);
  }

  /** A callback's cap: one while never sent to (a probe), else what InFlightCaps allows it. */
  #cap(stream: Stream): number {
    return stream.untried ? 1 : (this.#caps.reduced().get(stream.callbackId) ?? this.#options.perCallback);
  }

  /**
   * First attempts: the free slots go round-robin over the held callbacks with events read
   * ahead, one slot each in turn up to each one's cap, so a few busy callbacks cannot take them
   * all (docs/decisions/0003-delivery-from-the-event-log.md). Callbacks with fewer than a cap's
   * worth read ahead read more, in one statement for all. Returns how many sends started.
   */
  async #sendFromCursors(free: number, now: Date): Promise<number> {
    let started = this.#sendAhead(free);
    const behind = [...this.#streams.all()].filter((stream) => stream.readPosition < this.#head);
    for (const stream of behind) await this.#skipIfTooFarBehind(stream, now);
    // Reads in chunks of at least half the read-ahead (#readAhead), bounded by what is still out
    // (sent, or waiting for its record) and by a total for the instance, however many callbacks lag.
    let aheadTotal = 0;
    for (const stream of this.#streams.all()) aheadTotal += stream.aheadCount;
    const wanting = behind
      .map((stream) => {
        const readAhead = this.#readAhead(stream);
        if (stream.aheadCount > readAhead / 2) return { item: stream, room: 0 };
        const room = Math.min(
          this.#cap(stream) - this.#out(stream.callbackId, stream) + readAhead - stream.aheadCount,
          OUT_PER_CAP * this.#options.perCallback - stream.outCount,
        );
        return { item: stream, room };
      })
      .filter((want) => want.room > 0);
    const takes = roundRobin(wanting, READ_AHEAD_PER_SLOT * this.#options.maxInFlight - aheadTotal);
    if (takes.size > 0) {
      const reads: StreamRead[] = [...takes].map(([stream, take]) => ({
        callbackId: stream.callbackId,
        after: stream.readPosition,
        take,
      }));
      const batch = await readStreams(this.#db, reads);
      this.#head = Math.max(this.#head, batch.head);
      for (const [stream, take] of takes) {
        if (this.#streams.get(stream.callbackId) !== stream) continue; // given back meanwhile
        const events = batch.events.get(stream.callbackId) ?? [];
        stream.take(events);
        if (events.length < take) stream.passed(batch.head);
      }
      started += this.#sendAhead(free - started);
    }
    this.#lastClaimed += started;
    return started;
  }

  /**
   * How many events a callback reads beyond what it may send now: up to two caps' worth (at most
   * maxUnconfirmedMessages) while its receiver keeps up, so that its window stays full while the
   * next read is on its way (one cap's worth left gaps: bench/mqttDelivery.ts); none while it is
   * probed or cut back, so the events a slow receiver has not taken stay unread, where the queue
   * bound drops the oldest.
   */
  #readAhead(stream: Stream): number {
    const cap = this.#cap(stream);
    return !stream.untried && cap === this.#options.perCallback
      ? Math.min(2 * cap, stream.maxUnconfirmedMessages)
      : 0;
  }

  /** The stream has read up to less than half of its read-ahead and there is more to read. */
  #wantsRead(stream: Stream): boolean {
    return stream.readPosition < this.#head && stream.aheadCount <= this.#readAhead(stream) / 2;
  }

  /**
   * Starts sends of events read ahead: `free` slots round-robin over the callbacks, each up to its
   * cap. When some were left wanting, slots are contended and a finished send no longer passes its
   * slot straight to its own callback's next event (#afterSend) until a cycle finds them uncontended.
   */
  #sendAhead(free: number): number {
    const wanting = [...this.#streams.all()]
      .map((stream) => ({
        item: stream,
        room: Math.min(this.#cap(stream) - this.#out(stream.callbackId, stream), stream.aheadCount),
      }))
      .filter((want) => want.room > 0);
    let wanted = 0;
    for (const want of wanting) wanted += want.room;
    this.#contended = wanted > free;
    let started = 0;
    for (const [stream, count] of roundRobin(wanting, free)) {
      for (let sent = 0; sent < count && this.#sendNext(stream); sent++) started += 1;
    }
    return started;
  }

  /** Sends the stream's oldest event read ahead; false when there is none. */
  #sendNext(stream: Stream): boolean {
    const notification = stream.next();
    if (notification === undefined) return false;
    stream.sending += 1;
    this.#track(
      this.#send(notification, (attempt) => {
        stream.sending -= 1;
        stream.untried = false;
        this.#unrecordedFirst.push({ stream, attempt });
        this.#afterSend(stream);
      }),
    );
    return true;
  }

  /**
   * A send of this stream ended. Its next event read ahead goes out at once, without waiting for
   * a cycle, while the callback is within its cap and nobody else waits for a slot. The loop is
   * woken only when it has work: another callback waits for the slot, or this one needs a read.
   * (Waking it for every send ran a cycle, and its statement, every few sends: fanning out to 100
   * callbacks that was half of the delivery's statements.)
   */
  #afterSend(stream: Stream): void {
    if (this.#stopping) return;
    const current = this.#streams.get(stream.callbackId) === stream;
    const next = current && stream.aheadCount > 0 && this.#out(stream.callbackId, stream) < this.#cap(stream);
    // The ending send still counts itself in #inFlight.
    const sent =
      next && !this.#contended && this.#inFlight.size <= this.#options.maxInFlight && this.#sendNext(stream);
    if (this.#contended || !current || (next && !sent) || this.#wantsRead(stream)) this.wake();
  }

  /**
   * A receiver that cannot keep up leaves its cursor ever further behind: past
   * maxUnconfirmedMessages events, the oldest unread ones are skipped and counted as discarded,
   * as the retry set drops its oldest. Positions count every event, so a callback that matches
   * few of them can be that far behind with little to skip: after a check that skipped nothing,
   * the next waits until the head has moved on that far again.
   */
  async #skipIfTooFarBehind(stream: Stream, now: Date): Promise<void> {
    const from = Math.max(stream.readPosition, stream.skipCheckedAt);
    if (this.#head - from <= stream.maxUnconfirmedMessages) return;
    const head = this.#head;
    const to = await skipBehind(this.#db, this.#instanceId, {
      callbackId: stream.callbackId,
      after: stream.readPosition,
      afterSequence: stream.readSequence,
      now,
    });
    if (this.#streams.get(stream.callbackId) !== stream) return;
    if (to === null) stream.skipCheckedAt = head;
    else stream.skipped(to);
  }

  /** Retries that are due, within the callbacks' caps less what their cursors have in flight here. */
  async #sendRetries(free: number, now: Date): Promise<void> {
    const caps = new Map(this.#caps.reduced());
    for (const stream of this.#streams.all()) {
      if (stream.sending > 0) {
        const cap = caps.get(stream.callbackId) ?? this.#options.perCallback;
        caps.set(stream.callbackId, Math.max(0, cap - stream.sending));
      }
    }
    const claimed = await claimDue(this.#db, {
      limit: free,
      perCallback: this.#options.perCallback,
      reducedCaps: caps,
      lockMs: claimLockMs(this.#options.timeoutMs),
      now,
    });
    this.#lastClaimed += claimed.length;
    for (const notification of claimed) {
      const { callbackId } = notification;
      this.#retriesOut.set(callbackId, (this.#retriesOut.get(callbackId) ?? 0) + 1);
      this.#track(
        this.#send(notification, (attempt) => {
          const left = (this.#retriesOut.get(callbackId) ?? 1) - 1;
          if (left > 0) this.#retriesOut.set(callbackId, left);
          else this.#retriesOut.delete(callbackId);
          this.#unrecordedRetries.push(attempt);
          this.wake(); // its slot may go to the next due retry or to a cursor
        }),
      );
    }
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
      const body = deliveryBody(notification, this.#options.callbackHref(notification.callbackId));
      const transport = url.protocol === 'mqtt:' ? this.#transports.mqtt : this.#transports.http;
      result = await transport.send(url, body, deliveryHeaders(notification, body, this.#clock.now()));
    } catch (error) {
      // Transports never throw; anything else that does is this attempt's failure, not a crash.
      result = failure(error);
    }
    this.#caps.learn(notification.callbackId, result); // at once: the next claim may come before the record
    finished({ notification, outcome: { ...result, durationMs: performance.now() - started } });
    // Not awaited: the slot is free once the receiver answered; drain() and stop() wait for the record.
    void this.#record();
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

  /**
   * Records finished attempts. Outcomes that arrive while a batch is being written wait for the
   * next batch, so under load one round trip records many attempts.
   */
  #record(): Promise<void> {
    this.#recording ??= this.#recordAll().finally(() => {
      this.#recording = undefined;
      this.wake(); // cursors moved: callbacks held back by what they had out may read again
    });
    return this.#recording;
  }

  async #recordAll(): Promise<void> {
    while (this.#unrecordedFirst.length > 0 || this.#unrecordedRetries.length > 0) {
      if (this.#unrecordedFirst.length > 0)
        await this.#recordFirst(this.#unrecordedFirst.splice(0, RECORD_BATCH));
      if (this.#unrecordedRetries.length > 0) {
        await this.#recordRetries(this.#unrecordedRetries.splice(0, RECORD_BATCH));
      }
    }
  }

  /** First attempts: their callbacks' cursors move past them, failures join the retry set. */
  async #recordFirst(finished: { stream: Stream; attempt: Attempt<StreamedNotification> }[]): Promise<void> {
    // A stream given back or dropped since: its new holder sends these again from the stored cursor.
    const current = finished.filter(({ stream }) => this.#streams.get(stream.callbackId) === stream);
    const positions = new Map<Stream, number[]>();
    for (const { stream, attempt } of current) {
      const done = positions.get(stream);
      if (done) done.push(attempt.notification.position);
      else positions.set(stream, [attempt.notification.position]);
    }
    const moves = [...positions].map(([stream, done]) => stream.finish(done));
    const attempts = current.map(({ attempt }) => attempt);
    const results = attempts.map(({ notification, outcome }) =>
      attemptResult(outcome.ok, notification.attempt, notification.maxRedeliverAttempts),
    );
    for (const move of moves) this.#recordingFor.add(move.callbackId);
    try {
      const now = this.#clock.now();
      const options = { now, retryAt: nextAttemptAt(now, this.#options.retryIntervalMs) };
      const record = attemptsToRecord(
        attempts.map(({ notification }) => notification.callbackId),
        results,
        ATTEMPTS_KEPT,
      );
      const moved = await advanceCursors(
        this.#db,
        this.#instanceId,
        moves,
        attempts.filter((_, index) => record[index]),
        results.filter((_, index) => record[index]),
        options,
      );
      for (const move of moves) {
        const stream = this.#streams.get(move.callbackId);
        if (moved.has(move.callbackId)) {
          if (stream) stream.storedPosition = Math.max(stream.storedPosition, move.position);
        } else {
          // The lease went to another instance (or the callback was deleted): it starts from the stored cursor.
          this.#streams.drop(move.callbackId);
          this.#leaseNeeded = true;
        }
      }
      this.#outcomes(attempts, results);
    } catch (error) {
      // Nothing moved: these callbacks start again from their stored cursors, so the events are
      // sent again (at least once).
      for (const move of moves) this.#streams.drop(move.callbackId);
      this.#leaseNeeded = true;
      this.#log.warn({ err: error, attempts: attempts.length }, 'could not record delivery attempts');
    } finally {
      for (const move of moves) this.#recordingFor.delete(move.callbackId);
    }
  }

  async #recordRetries(batch: Attempt<ClaimedNotification>[]): Promise<void> {
    try {
      const now = this.#clock.now();
      const options = { now, retryAt: nextAttemptAt(now, this.#options.retryIntervalMs) };
      const results = batch.map(({ notification, outcome }) =>
        attemptResult(outcome.ok, notification.attempt, notification.maxRedeliverAttempts),
      );
      await recordAttempts(this.#db, batch, results, options);
      this.#outcomes(batch, results);
    } catch (error) {
      // The claims expire and the notifications are sent again: at least once.
      this.#log.warn({ err: error, attempts: batch.length }, 'could not record delivery attempts');
    }
  }

  #outcomes(attempts: Attempt[], results: AttemptResult[]): void {
    logAttempts(this.#log, attempts, results); // failures summarized per callback (failureLog.ts)
    for (const result of results) this.#options.onOutcome?.(result);
  }
}
