// What the server hands every route family, the API versions it mounts, and the route table
// entry: kept apart from server.ts so that routes import them without an import cycle.
import type { TokenService } from '../auth/tokens.ts';
import type { Config, RuntimeOptions } from '../config.ts';
import type { Database } from '../db/database.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { EventStreamHub } from '../services/eventStreamService.ts';

/** Every version answers identically (docs/api.md, "Addresses and versions"). */
export const API_VERSIONS = [1, 2, 3] as const;
export const CURRENT_VERSION = 2;

export interface ServerDeps {
  config: Config;
  db: Database;
  tokens: TokenService;
  metrics?: Metrics;
  /** Feeds GET /events/stream (created by the composition root). */
  eventStream: EventStreamHub;
  /** The time of the plant (open periods in summaries count up to it); tests move a ManualClock. */
  clock?: { now(): Date };
  /** Runs queued commands; woken when one is queued (created by the composition root). */
  commandRunner?: { wake(): void };
  /** Injected token clock and log stream (tests, benchmarks). */
  runtime?: RuntimeOptions;
}

/** A registered route, as kept in `routeTable` (see server.ts). */
export interface RouteEntry {
  method: string;
  url: string;
  public: boolean;
}
