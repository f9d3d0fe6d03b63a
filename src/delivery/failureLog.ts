// Failed deliveries in the log, summarized: a dead receiver is retried every few seconds for
// every pending notification, and a line per attempt floods the log. Per callback the first
// failure is logged at once; the failures after it are counted and written as one summary line
// per interval (attempts failed, notifications discarded, the last error). A callback that
// delivers again and fails later gets a line at once again, unless it had one within the
// interval (a flapping receiver stays at a line or two per interval). Deliveries themselves are
// recorded in the database (GET /callbacks/{id}/deliveries), one row per attempt.
import type { FastifyBaseLogger } from 'fastify';
import type { Attempt } from '../db/repositories/notifications.ts';
import type { AttemptResult } from '../domain/delivery.ts';

export const FAILURE_LOG_INTERVAL_MS = 60_000;

type Log = Pick<FastifyBaseLogger, 'warn' | 'info'>;

interface CallbackFailures {
  /** When this callback's last line was written. */
  lastLine: number;
  /** Since the last line. */
  failed: number;
  discarded: number;
  lastError: string | null;
  lastStatusCode: number | null;
  /** The last attempt failed. */
  failing: boolean;
}

export class FailureLog {
  readonly #log: Log;
  readonly #now: () => number;
  readonly #intervalMs: number;
  readonly #callbacks = new Map<string, CallbackFailures>();
  #lastScan = Number.NEGATIVE_INFINITY;

  constructor(log: Log, options: { now?: () => number; intervalMs?: number } = {}) {
    this.#log = log;
    this.#now = options.now ?? Date.now;
    this.#intervalMs = options.intervalMs ?? FAILURE_LOG_INTERVAL_MS;
  }

  /** One recorded attempt. */
  attempt(
    callbackId: string,
    outcome: AttemptResult,
    sent: { error: string | null; statusCode: number | null },
    eventId?: string,
  ): void {
    const now = this.#now();
    const known = this.#callbacks.get(callbackId);
    const failed = outcome !== 'DELIVERED';
    const atOnce = failed && (!known || (!known.failing && now - known.lastLine >= this.#intervalMs));
    // Summaries that are due first (a scan at most once a second; this callback's is due if atOnce).
    if (atOnce || now - this.#lastScan >= Math.min(1000, this.#intervalMs)) this.flush();
    if (!failed) {
      if (known) known.failing = false;
      return;
    }
    const state = this.#callbacks.get(callbackId);
    if (atOnce || !state) {
      this.#callbacks.set(callbackId, { ...QUIET, lastLine: now, failing: true });
      this.#log.warn(
        { callbackId, eventId, outcome, statusCode: sent.statusCode, error: sent.error },
        'delivery failed; further failures of this callback are summarized',
      );
      return;
    }
    state.failing = true;
    state.failed += 1;
    if (outcome === 'DISCARDED') state.discarded += 1;
    state.lastError = sent.error;
    state.lastStatusCode = sent.statusCode;
  }

  /** Writes the summaries that are due (attempts call it too). */
  flush(): void {
    const now = this.#now();
    this.#lastScan = now;
    for (const [callbackId, state] of this.#callbacks) {
      if (now - state.lastLine < this.#intervalMs) continue;
      if (state.failed > 0) {
        this.#log.warn(
          {
            callbackId,
            failedAttempts: state.failed,
            discardedNotifications: state.discarded,
            lastStatusCode: state.lastStatusCode,
            lastError: state.lastError,
            failing: state.failing,
            sinceMs: now - state.lastLine,
          },
          state.failing ? 'deliveries failing' : 'deliveries failed, then succeeded',
        );
        Object.assign(state, QUIET, { lastLine: now });
      } else if (!state.failing) {
        this.#callbacks.delete(callbackId); // quiet and delivering: forgotten
      }
    }
  }
}

const QUIET = { failed: 0, discarded: 0, lastError: null, lastStatusCode: null } as const;

const logs = new WeakMap<object, FailureLog>();

/** The failure log of a worker's logger; tests install one with their own clock and sink. */
export function failureLog(log: Log, install?: FailureLog): FailureLog {
  let found = install ?? logs.get(log);
  if (!found) found = new FailureLog(log);
  logs.set(log, found);
  return found;
}

/** The worker's hook: the outcomes of one recorded batch of attempts. */
export function logAttempts(log: Log, batch: Attempt[], results: AttemptResult[]): void {
  const failures = failureLog(log);
  results.forEach((outcome, index) => {
    const attempt = batch[index];
    if (attempt)
      failures.attempt(
        attempt.notification.callbackId,
        outcome,
        attempt.outcome,
        attempt.notification.event.id,
      );
  });
}
