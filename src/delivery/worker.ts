// The delivery loop of one instance: fan new events out to callbacks, claim due notifications,
// send each outside any transaction, record the outcome. Several instances on one PostgreSQL
// share the work through SKIP LOCKED claims; a crash loses nothing (claims expire).
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../background/clock.ts';
import { PollingLoop } from '../background/pollingLoop.ts';
import type { Database } from '../db/database.ts';
import {
  type Attempt,
  type ClaimedNotification,
  claimDue,
  existingCallbacks,
  fanOut,
  pruneAttempts,
  recordAttempts,
} from '../db/repositories/notifications.ts';
import { attemptResult, claimLockMs, nextAttemptAt } from '../domain/delivery.ts';
import { logAttempts } from './failureLog.ts';
import { InFlightCaps } from './inFlightCaps.ts';
import { deliveryBody, deliveryHeaders } from './payload.ts';
import { failure, type SendResult, type Transport } from './transport.ts';

export interface DeliveryOptions {
  retryIntervalMs: number;
  timeoutMs: number;
  pollMs: number;
  /** Sends in flight at once, over all callbacks. */
  maxInFlight: number;
  /**
   * Sends in flight at once for one callback; one while its receiver does not answer
   * (docs/architecture.md, "Fair delivery").
   */
  perCallback: number;
  callbackHref: (callbackId: string) => string;
  /** The time of claims, retries and headers. */
  clock: Clock;
  /** Metrics hooks (src/metrics): a cycle of the loop finished; a delivery attempt's outcome. */
  onCycle?: () => void;
  onOutcome?: (outcome: string) => void;
}

const FAN_OUT_BATCH = 500;
const ATTEMPTS_KEPT = 100;
const PRUNE_EVERY_MS = 60_000;
const RECORD_BATCH = 500;

export class DeliveryWorker {
  readonly #db: Database;
  readonly #transports: Record<'http' | 'mqtt', Transport>;
  readonly #options: DeliveryOptions;
  readonly #log: FastifyBaseLogger;
  readonly #clock: Clock;
  readonly #loop: PollingLoop;
  readonly #inFlight = new Set<Promise<void>>();
  readonly #caps: InFlightCaps;
  #lastClaimed = 0;
  #lastPrune = 0;
  #stopped: Promise<void> | undefined;
  #unrecorded: Attempt[] = [];
  #recording: Promise<void> | undefined;

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
   * recorded: cycles run until one claims nothing while no send is in flight.
   */
  async drain(): Promise<void> {
    for (;;) {
      await this.#loop.nextCycle();
      if (this.#lastClaimed === 0 && this.#inFlight.size === 0 && this.#recording === undefined) return;
      await Promise.allSettled(this.#inFlight);
      await this.#recording;
    }
  }

  /** Stops claiming, lets the sends in flight finish (each is bounded by the timeout). Idempotent. */
  stop(): Promise<void> {
    this.#stopped ??= this.#stop();
    return this.#stopped;
  }

  async #stop(): Promise<void> {
    await this.#loop.stop();
    await Promise.allSettled(this.#inFlight);
    await Promise.all([this.#transports.http.close(), this.#transports.mqtt.close()]);
  }

  async #cycle(): Promise<void> {
    while ((await fanOut(this.#db, FAN_OUT_BATCH, this.#clock.now())) === FAN_OUT_BATCH) {
      // a full batch: more events are waiting
    }
    const free = this.#options.maxInFlight - this.#inFlight.size;
    this.#lastClaimed = 0;
    if (free > 0) {
      const claimed = await claimDue(this.#db, {
        limit: free,
        perCallback: this.#options.perCallback,
        reducedCaps: this.#caps.reduced(),
        lockMs: claimLockMs(this.#options.timeoutMs),
        now: this.#clock.now(),
      });
      this.#lastClaimed = claimed.length;
      for (const notification of claimed) this.#track(this.#deliver(notification));
    }
    const now = this.#clock.now().getTime();
    if (now - this.#lastPrune > PRUNE_EVERY_MS) {
      this.#lastPrune = now;
      await pruneAttempts(this.#db, ATTEMPTS_KEPT);
      await this.#caps.forgetDeleted((ids) => existingCallbacks(this.#db, ids));
    }
  }

  #track(send: Promise<void>): void {
    this.#inFlight.add(send);
    void send.finally(() => {
      this.#inFlight.delete(send);
      this.wake();
    });
  }

  async #deliver(notification: ClaimedNotification): Promise<void> {
    const started = performance.now();
    let result: SendResult;
    try {
      const url = new URL(notification.url);
      const body = deliveryBody(notification, this.#options.callbackHref(notification.callbackId));
      const transport = url.protocol === 'mqtt:' ? this.#transports.mqtt : this.#transports.http;
      result = await transport.send(url, body, deliveryHeaders(notification, body, this.#clock.now()));
    } catch (error) {
      // Transports never throw; anything else that does is this attempt's failure, not a crash.
      result = failure(error);
    }
    this.#caps.learn(notification.callbackId, result); // at once: the next claim may come before the record
    this.#unrecorded.push({ notification, outcome: { ...result, durationMs: performance.now() - started } });
    await this.#record();
  }

  /**
   * Records finished attempts. Outcomes that arrive while a batch is being written wait for the
   * next batch, so under load one transaction records many attempts.
   */
  #record(): Promise<void> {
    this.#recording ??= this.#recordAll().finally(() => {
      this.#recording = undefined;
    });
    return this.#recording;
  }

  async #recordAll(): Promise<void> {
    while (this.#unrecorded.length > 0) {
      const batch = this.#unrecorded.splice(0, RECORD_BATCH);
      try {
        const now = this.#clock.now();
        const options = { now, retryAt: nextAttemptAt(now, this.#options.retryIntervalMs) };
        const results = batch.map(({ notification, outcome }) =>
          attemptResult(outcome.ok, notification.attempt, notification.maxRedeliverAttempts),
        );
        await recordAttempts(this.#db, batch, results, options);
        logAttempts(this.#log, batch, results); // failures summarized per callback (failureLog.ts)
        for (const result of results) this.#options.onOutcome?.(result);
      } catch (error) {
        // The claims expire and the notifications are sent again: at least once.
        this.#log.warn({ err: error, attempts: batch.length }, 'could not record delivery attempts');
      }
    }
  }
}
