// The demo of a first start (docs/demo.md, "First start"): when to seed and simulate, and the
// demo's run itself: seed an empty plant, then step the simulator on a polling loop. It is given
// a typed API client and talks to the service over HTTP only; src/demo.ts, the service side,
// creates that client for the app's own listening server.
import { existsSync, readdirSync } from 'node:fs';
import { BridgeApiError, type BridgeClient } from '../../clients/typescript/src/index.ts';
import { systemClock } from '../background/clock.ts';
import { PollingLoop } from '../background/pollingLoop.ts';
import type { Config } from '../config.ts';
import { plantIsEmpty, type SeedCounts, seedPlant } from './seed.ts';
import { Simulator } from './simulate.ts';

/** What the demo does at this start. */
export interface DemoPlan {
  seed: boolean;
  simulate: boolean;
}

/** Before the database opens: a missing or empty PGlite data directory is a first start. */
export function isEmptyDataDir(dir: string): boolean {
  return !existsSync(dir) || readdirSync(dir).length === 0;
}

/**
 * `auto` (default): seed and simulate on the first start of the embedded database only, in the
 * zero-setup run (no bootstrap client configured: installations, tests and benchmarks that set
 * one get an empty plant); never with DATABASE_URL. `on`: simulate at every start, seeding first
 * when the plant is empty. `off`: nothing.
 */
export function demoPlan(config: Config, firstStart: boolean): DemoPlan {
  const { mode } = config.demo;
  if (mode === 'off') return { seed: false, simulate: false };
  if (mode === 'on') return { seed: true, simulate: true };
  const embeddedFirstStart =
    config.databaseUrl === undefined && config.bootstrapClient === undefined && firstStart;
  return { seed: embeddedFirstStart, simulate: embeddedFirstStart };
}

export interface Demo {
  /** Resolves when seeding is done (or was not needed) and the simulator runs. */
  ready: Promise<void>;
  stop(): Promise<void>;
}

export interface DemoOutput {
  write(text: string): void;
}

interface DemoLog {
  warn(details: object, message: string): void;
}

export interface DemoRun {
  plan: DemoPlan;
  demo: Config['demo'];
  /** The API client, and how to remove the OAuth client it uses when the demo stops. */
  connect(): Promise<{ api: BridgeClient; remove(): Promise<void> }>;
  dashboard: string;
  log: DemoLog;
  out: DemoOutput;
}

/** Starts the demo in the background; its failures are logged, never fatal. */
export function runDemo(run: DemoRun): Demo {
  const stopping = new AbortController();
  let loop: PollingLoop | undefined;
  let remove: (() => Promise<void>) | undefined;
  const { plan, out, log } = run;
  const { size, seed, rate } = run.demo;
  out.write(
    [
      '',
      `Demo plant: ${plan.seed ? 'seeding a plant, then ' : ''}simulating it through the API (${rate} changes/s).`,
      `  Dashboard: ${run.dashboard}`,
      '  Turn the demo off with BRIDGE_DEMO=off (docs/demo.md).',
      '',
    ].join('\n'),
  );
  const ready = (async () => {
    const connection = await run.connect();
    remove = connection.remove;
    const { api } = connection;
    if (plan.seed && !stopping.signal.aborted && (await plantIsEmpty(api))) {
      const started = Date.now();
      const counts = await seedPlant(api, { size, seed });
      out.write(
        `Demo plant seeded in ${Math.round((Date.now() - started) / 1000)} s: ${describeCounts(counts)}\n`,
      );
    }
    if (!plan.simulate || stopping.signal.aborted) return;
    const simulator = await Simulator.connect(api, { seed });
    if (stopping.signal.aborted) return;
    loop = new PollingLoop({
      name: 'demo simulator',
      intervalMs: Math.max(1, Math.round(1000 / rate)),
      clock: systemClock,
      log,
      cycle: async () => {
        try {
          await simulator.step();
        } catch (error) {
          // An answer the simulator did not expect: one line with the API's error, no stack.
          if (!(error instanceof BridgeApiError)) throw error;
          if (!stopping.signal.aborted)
            log.warn({ status: error.status }, `demo simulator: ${error.message}`);
        }
      },
    });
    loop.start();
  })().catch((error: unknown) => {
    // Stopping closes the server under a seed in progress: its failing requests are no news.
    if (!stopping.signal.aborted) log.warn({ err: error }, 'demo plant stopped');
  });
  return {
    ready,
    /** Stops the simulator; a seed in progress is not waited for (the closing server ends it). */
    async stop() {
      stopping.abort();
      await loop?.stop();
      await remove?.().catch(() => undefined);
    },
  };
}

export function describeCounts(counts: SeedCounts): string {
  return (
    `${counts.productionLines} lines, ${counts.capacityGroups} capacity groups, ${counts.workplaces} workplaces, ` +
    `${counts.devices} devices, ${counts.staffMembers} staff members, ${counts.shifts} shifts, ${counts.tools} tools, ` +
    `${counts.documents} documents, ${counts.productionOrders} production orders with ${counts.operations} operations`
  );
}
