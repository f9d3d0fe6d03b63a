// Runs the connectors this instance holds the lease of (docs/resources/connectors.md,
// "Ownership"): a polling loop on the injected clock claims or renews leases every
// LEASE_RENEW_MS, starts the connectors it newly holds, restarts those whose configuration
// changed, stops those it lost (disabled, deleted, taken over), and reports their counts.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Clock } from '../background/clock.ts';
import { PollingLoop } from '../background/pollingLoop.ts';
import type { Database } from '../db/database.ts';
import { LEASE_RENEW_MS } from '../domain/connectors.ts';
import { NO_CONNECTION_STATE_CODE } from '../domain/masterData.ts';
import type { AddressPolicy } from '../net/addressPolicy.ts';
import { claimConnectors, releaseConnector } from '../services/connectorService.ts';
import { ConnectorRuntime, type RuntimeLog } from './runtime.ts';

export interface ConnectorManagerOptions {
  clock: Clock;
  log: RuntimeLog;
  policy: AddressPolicy;
  /** The operating state a workplace takes when its state's source dies; null keeps it. */
  noConnectionState?: string | null;
  /** This instance's name in the lease; by default its host and process id and a random part. */
  owner?: string;
  random?: () => number;
}

export class ConnectorManager {
  readonly owner: string;
  readonly #db: Database;
  readonly #options: ConnectorManagerOptions;
  readonly #loop: PollingLoop;
  readonly #running = new Map<string, ConnectorRuntime>();

  constructor(db: Database, options: ConnectorManagerOptions) {
    this.#db = db;
    this.#options = options;
    // The host and process make a lease holder findable (in the row, by an operator or a test).
    this.owner = options.owner ?? `${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`;
    this.#loop = new PollingLoop({
      name: 'connectors',
      intervalMs: LEASE_RENEW_MS,
      clock: options.clock,
      log: options.log,
      cycle: () => this.#cycle(),
    });
  }

  start(): void {
    this.#loop.start();
  }

  /** A configuration changed: claim and reconcile now instead of at the next renewal. */
  wake(): void {
    this.#loop.wake();
  }

  /** Resolves once a cycle that began after this call has ended (tests that moved the clock). */
  nextCycle(): Promise<void> {
    return this.#loop.nextCycle();
  }

  /** The connectors running here, by id. */
  get running(): ReadonlyMap<string, ConnectorRuntime> {
    return this.#running;
  }

  /** Applies what has arrived, writes the sample batches and the counts of every running connector. */
  async flush(): Promise<void> {
    for (const runtime of this.#running.values()) {
      await runtime.settled();
      await runtime.flush();
    }
  }

  /**
   * Stops every connector. `release` (the default, a graceful shutdown) gives the leases up so
   * another instance takes over at once; without it they run out, as when a process dies.
   */
  async stop(options: { release?: boolean } = {}): Promise<void> {
    await this.#loop.stop();
    for (const [id, runtime] of this.#running) {
      await runtime.stop();
      if (options.release ?? true) await releaseConnector(this.#db, id, this.owner).catch(() => {});
    }
    this.#running.clear();
  }

  async #cycle(): Promise<void> {
    const held = await claimConnectors(this.#db, this.owner, this.#options.clock.now());
    const byId = new Map(held.map((connector) => [connector.id, connector]));
    for (const [id, runtime] of this.#running) {
      const now = byId.get(id);
      if (now && now.revision === runtime.connector.revision) continue;
      this.#running.delete(id);
      await runtime.stop();
      if (!now) await releaseConnector(this.#db, id, this.owner);
    }
    for (const connector of held) {
      if (this.#running.has(connector.id)) continue;
      const runtime = new ConnectorRuntime(
        this.#db,
        connector,
        this.owner,
        this.#options.clock,
        this.#options.log,
        {
          policy: this.#options.policy,
          random: this.#options.random ?? Math.random,
          noConnectionState:
            this.#options.noConnectionState === undefined
              ? NO_CONNECTION_STATE_CODE
              : this.#options.noConnectionState,
        },
      );
      this.#running.set(connector.id, runtime);
      runtime.start();
    }
    for (const runtime of this.#running.values()) await runtime.flush();
  }
}
