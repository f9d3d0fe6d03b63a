// Retention: deletes events and device samples older than their settings
// (BRIDGE_RETENTION_EVENTS_DAYS, BRIDGE_RETENTION_SAMPLES_DAYS; 0 keeps them forever), and the
// answers to Idempotency-Keys after a day. It runs in
// every instance. Each statement deletes one batch of the oldest rows and commits on its own, so
// no transaction stays open long on either backend; rows another instance is deleting are skipped
// (SKIP LOCKED), so several instances on one PostgreSQL share the work, and a delete is idempotent.
// The same upkeep of growing tables folds the maintained counts of closed connections
// (src/db/rowCounts.ts), whatever the retention settings.
import { type Clock, systemClock } from '../background/clock.ts';
import { type LoopLogger, PollingLoop } from '../background/pollingLoop.ts';
import type { Database, Queryable } from '../db/database.ts';
import { pruneEvents } from '../db/repositories/eventRepository.ts';
import { pruneStoredAnswers } from '../db/repositories/idempotencyKeyRepository.ts';
import { pruneSamples } from '../db/repositories/timeSeriesRepository.ts';
import { foldCounts } from '../db/rowCounts.ts';
import { IDEMPOTENCY_KEY_TTL_MS } from './idempotency.ts';

/** How often each instance looks for rows past their retention. */
export const RETENTION_INTERVAL_MS = 5 * 60_000;
/** Rows per delete statement: short on PGlite's one connection, few round trips on PostgreSQL. */
export const RETENTION_BATCH = 5000;
const DAY_MS = 86_400_000;

type RetainedTable = 'events' | 'recorded_time_series' | 'idempotency_keys';

export interface RetentionOptions {
  /** Days an event is kept after it was recorded (`recorded_at`); 0 keeps events forever. */
  eventsDays: number;
  /** Days a sample is kept after its own `timestamp`; 0 keeps samples forever. */
  samplesDays: number;
  clock?: Clock;
  log: LoopLogger & { info(details: object, message: string): void };
  /** Rows one batch deleted (metrics). */
  onDeleted?: (table: RetainedTable, rows: number) => void;
  /** Rows per statement; tests make it small to see several batches. */
  batchSize?: number;
}

interface Retained {
  table: RetainedTable;
  days: number;
  prune: (db: Queryable, before: Date, limit: number) => Promise<number>;
}

/** The retention loop of one instance, started, woken and stopped as a PollingLoop. */
export class Retention extends PollingLoop {
  constructor(db: Database, options: RetentionOptions) {
    const clock = options.clock ?? systemClock;
    const batch = options.batchSize ?? RETENTION_BATCH;
    const all: Retained[] = [
      { table: 'events', days: options.eventsDays, prune: pruneEvents },
      { table: 'recorded_time_series', days: options.samplesDays, prune: pruneSamples },
      // Answers to Idempotency-Keys are given again for a day, whatever the settings.
      { table: 'idempotency_keys', days: IDEMPOTENCY_KEY_TTL_MS / DAY_MS, prune: pruneStoredAnswers },
    ];
    const tables = all.filter((retained) => retained.days > 0);
    super({
      name: 'retention',
      intervalMs: RETENTION_INTERVAL_MS,
      clock,
      log: options.log,
      cycle: async (stopping) => {
        const now = clock.now().getTime();
        for (const { table, days, prune } of tables) {
          const before = new Date(now - days * DAY_MS);
          let deleted = 0;
          while (!stopping.aborted) {
            const rows = await prune(db, before, batch);
            if (rows > 0) options.onDeleted?.(table, rows);
            deleted += rows;
            if (rows < batch) break; // a short batch: nothing more is due (or another instance has it)
          }
          if (deleted > 0) options.log.info({ table, rows: deleted, before }, 'retention deleted old rows');
        }
        await db.transaction((tx) => foldCounts(tx));
      },
    });
  }
}
