// The demo of a first start (docs/demo.md, "First start"): on an empty embedded database the
// service seeds the demo plant and runs the simulator in-process, as an API client of its own
// server over loopback HTTP with a client created for it. Also the loopback runs of `bridge seed`
// and `bridge simulate` without --url.
import { existsSync, readdirSync } from 'node:fs';
import { type BridgeClient, createBridgeClient } from '../../clients/typescript/src/index.ts';
import type { App } from '../app.ts';
import { addClient } from '../auth/clients.ts';
import { systemClock } from '../background/clock.ts';
import { PollingLoop } from '../background/pollingLoop.ts';
import type { Config } from '../config.ts';
import { deleteClient } from '../db/repositories/clientRepository.ts';
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

/** The app's listening TCP address (host in URL form, `[...]` for IPv6), and whether it is a wildcard. */
function listeningAddress(app: App): { host: string; port: number; wildcard: boolean } {
  const address = app.server.addresses()[0];
  if (!address || typeof address === 'string') throw new Error('the server is not listening on TCP');
  const wildcard = address.address === '0.0.0.0' || address.address === '::';
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return { host, port: address.port, wildcard };
}

/**
 * The typed API client of the app's own server (listening), with an OAuth client of its own;
 * remove() deletes that. The service's hrefs start with BRIDGE_PUBLIC_URL when it is set: that is
 * the client's link root, so links are followed over loopback and the token never leaves it.
 */
export async function loopbackApi(
  app: App,
  config: Config,
  name: string,
): Promise<{ api: BridgeClient; remove(): Promise<void> }> {
  if (config.tlsCertFile)
    throw new Error('the demo and loopback runs need plain HTTP (BRIDGE_TLS_CERT_FILE is set)');
  const { host, port, wildcard } = listeningAddress(app);
  // A wildcard address is reached over loopback.
  const loopback = !wildcard ? host : host === '[::]' ? '[::1]' : '127.0.0.1';
  const client = await addClient(app.db, { name, scopes: ['read', 'write'] });
  const api = createBridgeClient({
    baseUrl: `http://${loopback}:${port}${config.basePath}`,
    clientId: client.clientId,
    clientSecret: client.clientSecret,
    linkRoot: config.publicUrl,
  });
  return { api, remove: async () => void (await deleteClient(app.db, client.clientId)) };
}

/** Where the dashboard of a listening app is: under BRIDGE_PUBLIC_URL when set, else at its address. */
export function dashboardUrl(app: App, config: Config): string {
  if (config.publicUrl !== undefined) return `${config.publicUrl}/`;
  const { host, port, wildcard } = listeningAddress(app);
  const scheme = config.tlsCertFile ? 'https' : 'http';
  return `${scheme}://${wildcard ? 'localhost' : host}:${port}${config.basePath}/`;
}

export interface Demo {
  /** Resolves when seeding is done (or was not needed) and the simulator runs. */
  ready: Promise<void>;
  stop(): Promise<void>;
}

export interface DemoOutput {
  write(text: string): void;
}

/** Starts the demo in the background of a listening app; its failures are logged, never fatal. */
export function startDemo(app: App, config: Config, plan: DemoPlan, out: DemoOutput): Demo {
  const stopping = new AbortController();
  let loop: PollingLoop | undefined;
  let remove: (() => Promise<void>) | undefined;
  const { size, seed, rate } = config.demo;
  const dashboard = dashboardUrl(app, config);
  out.write(
    [
      '',
      `Demo plant: ${plan.seed ? 'seeding a plant, then ' : ''}simulating it through the API (${rate} changes/s).`,
      `  Dashboard: ${dashboard}`,
      '  Turn the demo off with BRIDGE_DEMO=off (docs/demo.md).',
      '',
    ].join('\n'),
  );
  const ready = (async () => {
    const loopback = await loopbackApi(app, config, 'demo simulator');
    remove = loopback.remove;
    const { api } = loopback;
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
      log: app.server.log,
      cycle: async () => {
        await simulator.step();
      },
    });
    loop.start();
  })().catch((error: unknown) => {
    // Stopping closes the server under a seed in progress: its failing requests are no news.
    if (!stopping.signal.aborted) app.server.log.warn({ err: error }, 'demo plant stopped');
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
