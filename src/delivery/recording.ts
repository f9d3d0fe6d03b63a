// The outcomes of finished sends, written in batches: outcomes that arrive while a batch is being
// written wait for the next one, so under load one round trip records many attempts. First
// attempts move their callbacks' cursors past them in the same statement; retries update their
// rows of the retry set. A cursor only ever passes recorded outcomes, so a crash loses nothing.
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../background/clock.ts';
import type { Database } from '../db/database.ts';
import { advanceCursors, type CursorNotification } from '../db/repositories/deliveryCursors.ts';
import {
  type Attempt,
  type ClaimedNotification,
  pruneAttempts,
  recordAttempts,
} from '../db/repositories/notifications.ts';
import { type AttemptResult, attemptResult, attemptsToRecord, nextAttemptAt } from '../domain/delivery.ts';
import type { Cursor, Cursors } from './cursors.ts';
import { logAttempts } from './failureLog.ts';
import type { Leases } from './leases.ts';

/** Attempts kept per callback in its history (pruned to them; attemptsToRecord leaves out older successes). */
const ATTEMPTS_KEPT = 100;
const RECORD_BATCH = 500;

export interface RecorderOptions {
  retryIntervalMs: number;
  clock: Clock;
  log: FastifyBaseLogger;
  /** Metrics hook: a delivery attempt's outcome. */
  onOutcome?: (outcome: string) => void;
  /** A batch was recorded: cursors moved, so callbacks held back by what they had out may read again. */
  recorded: () => void;
}

export class Recorder {
  readonly #db: Database;
  readonly #cursors: Cursors;
  readonly #leases: Leases;
  readonly #options: RecorderOptions;
  #unrecordedFirst: { cursor: Cursor; attempt: Attempt<CursorNotification> }[] = [];
  #unrecordedRetries: Attempt<ClaimedNotification>[] = [];
  #recording: Promise<void> | undefined;
  /** Callbacks whose outcomes are being recorded: not given back by a lease step meanwhile. */
  readonly #recordingFor = new Set<string>();

  constructor(db: Database, cursors: Cursors, leases: Leases, options: RecorderOptions) {
    this.#db = db;
    this.#cursors = cursors;
    this.#leases = leases;
    this.#options = options;
  }

  /** Callbacks whose outcomes are being written now. */
  get recordingFor(): ReadonlySet<string> {
    return this.#recordingFor;
  }

  /** The batches being written, until none is left; undefined when nothing is being written. */
  get recording(): Promise<void> | undefined {
    return this.#recording;
  }

  /** A first attempt from `cursor` ended: recorded with the next batch. */
  firstAttempt(cursor: Cursor, attempt: Attempt<CursorNotification>): void {
    this.#unrecordedFirst.push({ cursor, attempt });
  }

  /** A retry ended: recorded with the next batch. */
  retry(attempt: Attempt<ClaimedNotification>): void {
    this.#unrecordedRetries.push(attempt);
  }

  /** Writes what has ended, in batches, unless a write is under way already (it takes these too). */
  record(): Promise<void> {
    this.#recording ??= this.#recordAll().finally(() => {
      this.#recording = undefined;
      this.#options.recorded();
    });
    return this.#recording;
  }

  /** Keeps the attempt history bounded: the newest ATTEMPTS_KEPT per callback. */
  async pruneHistory(): Promise<void> {
    await pruneAttempts(this.#db, ATTEMPTS_KEPT);
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
  async #recordFirst(finished: { cursor: Cursor; attempt: Attempt<CursorNotification> }[]): Promise<void> {
    // A cursor given back or dropped since: its new holder sends these again from the stored cursor.
    const current = finished.filter(({ cursor }) => this.#cursors.get(cursor.callbackId) === cursor);
    const positions = new Map<Cursor, number[]>();
    for (const { cursor, attempt } of current) {
      const done = positions.get(cursor);
      if (done) done.push(attempt.notification.position);
      else positions.set(cursor, [attempt.notification.position]);
    }
    const moves = [...positions].map(([cursor, done]) => cursor.finish(done));
    const attempts = current.map(({ attempt }) => attempt);
    const results = attempts.map(({ notification, outcome }) =>
      attemptResult(outcome.ok, notification.attempt, notification.maxRedeliverAttempts),
    );
    for (const move of moves) this.#recordingFor.add(move.callbackId);
    try {
      const now = this.#options.clock.now();
      const options = { now, retryAt: nextAttemptAt(now, this.#options.retryIntervalMs) };
      const record = attemptsToRecord(
        attempts.map(({ notification }) => notification.callbackId),
        results,
        ATTEMPTS_KEPT,
      );
      const moved = await advanceCursors(
        this.#db,
        this.#leases.instanceId,
        moves,
        attempts.filter((_, index) => record[index]),
        results.filter((_, index) => record[index]),
        options,
      );
      for (const move of moves) {
        const cursor = this.#cursors.get(move.callbackId);
        if (moved.has(move.callbackId)) {
          if (cursor) cursor.storedPosition = Math.max(cursor.storedPosition, move.position);
        } else {
          // The lease went to another instance (or the callback was deleted): it starts from the stored cursor.
          this.#cursors.drop(move.callbackId);
          this.#leases.lost();
        }
      }
      this.#outcomes(attempts, results);
    } catch (error) {
      // Nothing moved: these callbacks start again from their stored cursors, so the events are
      // sent again (at least once).
      for (const move of moves) this.#cursors.drop(move.callbackId);
      this.#leases.lost();
      this.#options.log.warn({ err: error, attempts: attempts.length }, 'could not record delivery attempts');
    } finally {
      for (const move of moves) this.#recordingFor.delete(move.callbackId);
    }
  }

  async #recordRetries(batch: Attempt<ClaimedNotification>[]): Promise<void> {
    try {
      const now = this.#options.clock.now();
      const options = { now, retryAt: nextAttemptAt(now, this.#options.retryIntervalMs) };
      const results = batch.map(({ notification, outcome }) =>
        attemptResult(outcome.ok, notification.attempt, notification.maxRedeliverAttempts),
      );
      await recordAttempts(this.#db, batch, results, options);
      this.#outcomes(batch, results);
    } catch (error) {
      // The claims expire and the notifications are sent again: at least once.
      this.#options.log.warn({ err: error, attempts: batch.length }, 'could not record delivery attempts');
    }
  }

  #outcomes(attempts: Attempt[], results: AttemptResult[]): void {
    logAttempts(this.#options.log, attempts, results); // failures summarized per callback (failureLog.ts)
    for (const result of results) this.#options.onOutcome?.(result);
  }
}
