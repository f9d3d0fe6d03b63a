// The delivery loop of one instance: fan new events out to callbacks, claim due notifications,
// send each outside any transaction, record the outcome. Several instances on one PostgreSQL
// share the work through SKIP LOCKED claims; a crash loses nothing (claims expire).
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database.ts';
import {
  type Attempt,
  type ClaimedNotification,
  claimDue,
  fanOut,
  pruneAttempts,
  recordAttempts,
} from '../db/repositories/notifications.ts';
import { deliveryBody, deliveryHeaders } from './payload.ts';
import { failure, type SendResult, type Transport } from './transport.ts';

export interface DeliveryOptions {
  retryIntervalMs: number;
  timeoutMs: number;
  pollMs: number;
  /** Sends in flight at once, over all callbacks. */
  maxInFlight: number;
  /** Sends in flight at once for one callback: a slow receiver cannot take every slot. */
  perCallback: number;
  callbackHref: (callbackId: string) => string;
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
  readonly #inFlight = new Set<Promise<void>>();
  #running = false;
  #loop: Promise<void> | undefined;
  #wakeUp: (() => void) | undefined;
  #pending = false;
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
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#options.onCycle?.();
    this.#loop = this.#run();
  }

  /** Something changed (a write request ended, a send finished): look for work now. */
  wake(): void {
    this.#pending = true;
    this.#wakeUp?.();
  }

  /** Stops claiming, lets the sends in flight finish (each is bounded by the timeout). Idempotent. */
  stop(): Promise<void> {
    this.#stopped ??= this.#stop();
    return this.#stopped;
  }

  async #stop(): Promise<void> {
    this.#running = false;
    this.wake();
    await this.#loop;
    await Promise.allSettled(this.#inFlight);
    await Promise.all([this.#transports.http.close(), this.#transports.mqtt.close()]);
  }

  async #run(): Promise<void> {
    while (this.#running) {
      this.#pending = false;
      try {
        await this.#cycle();
      } catch (error) {
        this.#log.warn({ err: error }, 'delivery cycle failed; retrying');
      }
      this.#options.onCycle?.();
      if (!this.#pending && this.#running) await this.#sleep(this.#options.pollMs);
    }
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wakeUp = done;
    });
  }

  async #cycle(): Promise<void> {
    while ((await this.#db.transaction((tx) => fanOut(tx, FAN_OUT_BATCH, new Date()))) === FAN_OUT_BATCH) {
      // a full batch: more events are waiting
    }
    const free = this.#options.maxInFlight - this.#inFlight.size;
    if (free > 0) {
      const claimed = await this.#db.transaction((tx) =>
        claimDue(tx, {
          limit: free,
          perCallback: this.#options.perCallback,
          // Longer than a send plus recording its outcome; a crashed sender's claims come back then.
          lockMs: this.#options.timeoutMs + 15_000,
          now: new Date(),
        }),
      );
      for (const notification of claimed) this.#track(this.#deliver(notification));
    }
    if (Date.now() - this.#lastPrune > PRUNE_EVERY_MS) {
      this.#lastPrune = Date.now();
      await pruneAttempts(this.#db, ATTEMPTS_KEPT);
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
      result = await transport.send(url, body, deliveryHeaders(notification, body, new Date()));
    } catch (error) {
      // Transports never throw; anything else that does is this attempt's failure, not a crash.
      result = failure(error);
    }
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
        const options = { now: new Date(), retryIntervalMs: this.#options.retryIntervalMs };
        const results = await this.#db.transaction((tx) => recordAttempts(tx, batch, options));
        results.forEach((outcome, index) => {
          this.#options.onOutcome?.(outcome);
          const { notification, outcome: sent } = batch[index] as Attempt;
          if (outcome === 'DELIVERED') return;
          this.#log.info(
            {
              callbackId: notification.callbackId,
              eventId: notification.event.id,
              attempt: notification.attempt,
              outcome,
              error: sent.error,
            },
            'delivery failed',
          );
        });
      } catch (error) {
        // The claims expire and the notifications are sent again: at least once.
        this.#log.warn({ err: error, attempts: batch.length }, 'could not record delivery attempts');
      }
    }
  }
}
