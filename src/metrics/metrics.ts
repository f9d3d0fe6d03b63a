// The service's Prometheus metrics: one registry per app (tests run many apps in one process).
// Label values are bounded: routes are Fastify's route patterns, statuses and reasons come from
// fixed sets, callbacks only for the few with the longest queues (docs/operations.md, "Metrics").
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Database, Queryable } from '../db/database.ts';
import { DatabaseTimeoutError, DatabaseUnavailableError } from '../db/database.ts';
import { callbackQueues, eventLogHead } from '../db/repositories/deliveryBacklog.ts';

export interface MetricsOptions {
  /** Callbacks that get their own queue series: the ones whose oldest notification waits longest. */
  topCallbacks: number;
  /** The delivery loop is stalled when it has not finished a cycle for this long. */
  deliveryStallMs: number;
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);
// Error codes of refused credentials: the API's (401/403) and the token endpoint's (OAuth 2.0).
const AUTH_REASONS = new Set([
  'UNAUTHORIZED',
  'INVALID_TOKEN',
  'INSUFFICIENT_SCOPE',
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'invalid_scope',
  'unauthorized_client',
  'unsupported_grant_type',
  'slow_down',
]);
const OUTCOMES = new Set(['DELIVERED', 'FAILED', 'DISCARDED']);
const DB_CALLS = ['query', 'exec', 'transaction'] as const;
type DbCall = (typeof DB_CALLS)[number];

const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class Metrics {
  readonly registry = new Registry();
  readonly #options: MetricsOptions;
  #lastCycleAt: number | undefined;

  readonly #requests = new Histogram({
    name: 'bridge_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });
  readonly #authFailures = this.#counter(
    'bridge_auth_failures_total',
    'Refused credentials: API requests (401/403) and token requests, by error code',
    ['endpoint', 'reason'],
  );
  readonly #rateLimited = this.#counter(
    'bridge_rate_limited_total',
    'Requests answered 429 (rate limited), by route pattern',
    ['route'],
  );
  // Counted in plain numbers on every call and handed to the counter when it is read: a
  // labelled inc() costs a label check and a hash, on every statement.
  readonly #dbCallsPending: Record<DbCall, number> = { query: 0, exec: 0, transaction: 0 };
  readonly #dbCalls: Counter<'call'> = this.#counter(
    'bridge_db_calls_total',
    'Database calls (queries, statement batches, transactions)',
    ['call'],
    () => this.#flushDbCalls(),
  );
  readonly #dbErrors = this.#counter(
    'bridge_db_errors_total',
    'Failed database calls: timeout, unavailable, or the SQLSTATE class of an SQL error',
    ['kind'],
  );
  readonly #dbPool = this.#gauge(
    'bridge_db_pool_connections',
    'PostgreSQL pool connections: total open, idle, and requests waiting for one',
    ['state'],
  );
  readonly #events = this.#gauge(
    'bridge_event_log_sequence',
    'Sequence number of the newest event in the event log (rate() of it is the event rate)',
  );
  readonly #undispatched = this.#gauge(
    'bridge_event_log_undispatched',
    'Events not yet fanned out to callbacks',
  );
  readonly #outcomes = this.#counter(
    'bridge_delivery_attempts_total',
    'Delivery attempts of this instance by outcome',
    ['outcome'],
  );
  readonly #queued = this.#gauge(
    'bridge_delivery_queued',
    'Notifications waiting for delivery, all callbacks',
  );
  readonly #oldestAll = this.#gauge(
    'bridge_delivery_oldest_pending_seconds_max',
    'Age of the oldest event waiting for delivery, all callbacks',
  );
  readonly #queueDepth = this.#gauge(
    'bridge_delivery_queue_depth',
    'Notifications waiting for delivery, for the callbacks whose oldest one waits longest',
    ['callback'],
  );
  readonly #oldest = this.#gauge(
    'bridge_delivery_oldest_pending_seconds',
    'Age of the oldest event waiting for delivery, for the same callbacks',
    ['callback'],
  );
  readonly #retained = this.#counter(
    'bridge_retention_deleted_rows_total',
    'Rows this instance deleted as older than their retention setting, by table',
    ['table'],
  );
  readonly #cycleAge = this.#gauge(
    'bridge_delivery_last_cycle_age_seconds',
    "Time since this instance's delivery loop last finished a cycle (absent without delivery)",
  );

  constructor(options: MetricsOptions) {
    this.#options = options;
  }

  /** A counter in this app's registry, its series told apart by `labelNames`. */
  #counter<L extends string = never>(
    name: string,
    help: string,
    labelNames: readonly L[] = [],
    collect?: () => void,
  ): Counter<L> {
    return new Counter({
      name,
      help,
      labelNames,
      registers: [this.registry],
      ...(collect ? { collect } : {}),
    });
  }

  /** A gauge in this app's registry, its series told apart by `labelNames`. */
  #gauge<L extends string = never>(name: string, help: string, labelNames: readonly L[] = []): Gauge<L> {
    return new Gauge({ name, help, labelNames, registers: [this.registry] });
  }

  /** One answered request; `route` is the route pattern (undefined when no route matched). */
  request(method: string, route: string | undefined, status: number, seconds: number): void {
    this.#requests.observe(
      { method: METHODS.has(method) ? method : 'other', route: route ?? 'unmatched', status },
      seconds,
    );
    if (status === 429) this.#rateLimited.inc({ route: route ?? 'unmatched' });
  }

  /** A refused request of the API or the token endpoint, by its error code. */
  authFailure(endpoint: 'api' | 'token', code: unknown): void {
    const reason = typeof code === 'string' && AUTH_REASONS.has(code) ? code : 'other';
    this.#authFailures.inc({ endpoint, reason });
  }

  /** The outcome of one delivery attempt. */
  deliveryOutcome(outcome: string): void {
    this.#outcomes.inc({ outcome: OUTCOMES.has(outcome) ? outcome : 'other' });
  }

  /** The delivery loop finished a cycle (with or without an error it recovers from). */
  deliveryCycle(): void {
    this.#lastCycleAt = Date.now();
  }

  /**
   * Undefined when this instance runs no delivery loop; else how long the loop has not finished a
   * cycle, when that exceeds the stall limit.
   */
  deliveryState(): { stalledForMs: number | undefined } | undefined {
    if (this.#lastCycleAt === undefined) return undefined;
    const age = Date.now() - this.#lastCycleAt;
    return { stalledForMs: age > this.#options.deliveryStallMs ? age : undefined };
  }

  /** Rows the retention loop deleted from `table`. */
  retentionDeleted(table: 'events' | 'recorded_time_series' | 'idempotency_keys', rows: number): void {
    this.#retained.inc({ table }, rows);
  }

  dbCall(call: DbCall): void {
    this.#dbCallsPending[call] += 1;
  }

  #flushDbCalls(): void {
    for (const call of DB_CALLS) {
      const count = this.#dbCallsPending[call];
      if (count > 0) this.#dbCalls.inc({ call }, count);
      this.#dbCallsPending[call] = 0;
    }
  }

  /** Counts database failures; other errors (a service's own, thrown inside a transaction) are not. */
  dbError(error: unknown): void {
    if (error instanceof DatabaseTimeoutError) this.#dbErrors.inc({ kind: 'timeout' });
    else if (error instanceof DatabaseUnavailableError) this.#dbErrors.inc({ kind: 'unavailable' });
    else if (error instanceof Error && 'severity' in error && 'code' in error) {
      const code = String(error.code);
      this.#dbErrors.inc({ kind: /^[0-9A-Z]{5}$/.test(code) ? `sqlstate_${code.slice(0, 2)}` : 'other' });
    }
  }

  /** Reads the gauges that live in the database, then renders every metric. */
  async render(db: Database): Promise<string> {
    const stats = db.poolStats?.();
    if (stats) for (const [state, value] of Object.entries(stats)) this.#dbPool.set({ state }, value);
    if (this.#lastCycleAt === undefined) this.#cycleAge.reset();
    else this.#cycleAge.set((Date.now() - this.#lastCycleAt) / 1000);
    await this.#readQueues(db);
    return this.registry.metrics();
  }

  async #readQueues(db: Queryable): Promise<void> {
    const head = await eventLogHead(db);
    this.#events.set(head.sequence);
    this.#undispatched.set(head.undispatched);
    const queues = await callbackQueues(db);
    this.#queueDepth.reset();
    this.#oldest.reset();
    let queued = 0;
    for (const queue of queues) queued += queue.depth;
    this.#queued.set(queued);
    this.#oldestAll.set(queues[0]?.oldestAgeS ?? 0);
    for (const queue of queues.slice(0, this.#options.topCallbacks)) {
      this.#queueDepth.set({ callback: queue.callbackId }, queue.depth);
      this.#oldest.set({ callback: queue.callbackId }, queue.oldestAgeS);
    }
  }
}

/** The same database, with its calls and failures counted. */
export function instrumentDatabase<T extends Database>(db: T, metrics: Metrics): T {
  // Not async: one promise less on every statement.
  const counted = <R>(call: DbCall, work: () => Promise<R>): Promise<R> => {
    metrics.dbCall(call);
    let result: Promise<R>;
    try {
      result = work();
    } catch (error) {
      metrics.dbError(error);
      return Promise.reject(error);
    }
    return result.catch((error: unknown) => {
      metrics.dbError(error);
      throw error;
    });
  };
  const wrapper: Database = {
    get kind() {
      return db.kind;
    },
    query: (sql, params) => counted('query', () => db.query(sql, params)),
    exec: (sql) => counted('exec', () => db.exec(sql)),
    transaction: (work) => counted('transaction', () => db.transaction(work)),
    poolStats: () => db.poolStats?.(),
    close: () => db.close(),
  };
  return Object.setPrototypeOf(wrapper, db) as T;
}
