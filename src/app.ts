// Composition root: wires storage, tokens, event delivery and the HTTP server; one close() for all.
import type { FastifyInstance } from 'fastify';
import { ensureBootstrapClient, type NewClientCredentials } from './auth/clients.ts';
import { TokenService } from './auth/tokens.ts';
import { type Clock, systemClock } from './background/clock.ts';
import type { PollingLoop } from './background/pollingLoop.ts';
import type { Config } from './config.ts';
import { ConnectorManager } from './connectors/manager.ts';
import type { Database } from './db/database.ts';
import { openDatabase } from './db/open.ts';
import { CallbackLinks } from './delivery/callbackLinks.ts';
import { HttpTransport } from './delivery/httpTransport.ts';
import { MqttTransport } from './delivery/mqttTransport.ts';
import { DeliveryWorker } from './delivery/worker.ts';
import { Hrefs, instanceRoot } from './http/hrefs.ts';
import { buildServer, CURRENT_VERSION } from './http/server.ts';
import { instrumentDatabase, Metrics } from './metrics/metrics.ts';
import { callbackPolicy } from './net/addressPolicy.ts';
import { commandRunner } from './services/commandService.ts';
import { EventStreamHub } from './services/eventStreamService.ts';
import { Retention } from './services/retention.ts';
import { ShiftClock } from './services/shiftClock.ts';

export interface App {
  server: FastifyInstance;
  db: Database;
  tokens: TokenService;
  /** Sends events to callbacks; undefined when BRIDGE_DELIVERY_ENABLED=false. */
  delivery: DeliveryWorker | undefined;
  shiftClock: ShiftClock;
  /** Deletes events and device samples past their retention (BRIDGE_RETENTION_*). */
  retention: Retention;
  /** Runs the connectors whose lease this instance holds; undefined when BRIDGE_CONNECTORS_ENABLED=false. */
  connectors: ConnectorManager | undefined;
  /** Feeds GET /events/stream. */
  eventStream: EventStreamHub;
  /** Executes the commands sent with async=true, in order. */
  commands: PollingLoop;
  /** The time background work (delivery, shift clock, retention) runs on. */
  clock: Clock;
  /** Credentials of a client created at this start (first start without bootstrap settings). */
  createdClient: NewClientCredentials | undefined;
  close(): Promise<void>;
}

export interface AppOptions {
  /**
   * The time of background work (delivery retries, the shift clock); tests pass a ManualClock to
   * move it. The system clock otherwise.
   */
  clock?: Clock;
  /**
   * The time of token checks and rate limits, apart from background work: a test that moves the
   * shift clock by hours must not expire its own tokens. The system clock otherwise.
   */
  authClock?: Clock;
  /** Where the log goes instead of stdout (tests capture it). */
  logStream?: { write(line: string): void };
}

/** Builds the app on the configured database, or on `db` (tests pass a fresh, migrated one). */
export async function createApp(config: Config, db?: Database, options: AppOptions = {}): Promise<App> {
  const clock = options.clock ?? systemClock;
  const authClock = options.authClock ?? systemClock;
  // Token checks read it on every request: no Date object per read with the system clock.
  const now = authClock === systemClock ? Date.now : () => authClock.now().getTime();
  const runtime = { now, logStream: options.logStream };
  const metrics = new Metrics(config.monitoring);
  const database = instrumentDatabase(db ?? (await openDatabase(config)), metrics);
  try {
    const createdClient = await ensureBootstrapClient(database, config);
    const { clockSkewSeconds, recheckSeconds } = config.tokenEndpoint;
    const tokens = await TokenService.create(database, config.tokenSecret, config.tokenTtlSeconds, {
      now: runtime.now,
      clockSkewSeconds,
      recheckSeconds,
    });
    // Its log lines go to the server's logger, which exists once the server is built.
    let log: FastifyInstance['log'] | undefined;
    const eventStream = new EventStreamHub(database, {
      ...config.eventStream,
      // Longer than any transaction may stay open (docs/api.md, "Event stream").
      gapWindowMs: Math.max(10_000, 3 * config.dbTimeoutMs),
      clock,
      log: { warn: (details, message) => log?.warn(details, message) },
    });
    const commands = commandRunner(
      database,
      { warn: (details, message) => log?.warn(details, message) },
      clock,
    );
    const server = await buildServer({
      config,
      db: database,
      tokens,
      metrics,
      runtime,
      eventStream,
      clock,
      commandRunner: commands,
    });
    log = server.log;
    server.addHook('onClose', () => commands.stop());
    commands.start();
    // Open streams end before the server waits for its connections; the poller stops with it.
    server.addHook('preClose', () => eventStream.close());
    // A write may have recorded events: look for them now instead of at the next poll.
    // (Hooks on every request take `done` rather than being async: no promise per request.)
    server.addHook('onResponse', (request, _reply, done) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') eventStream.wake();
      done();
    });
    const delivery = config.delivery.enabled
      ? createDelivery(config, database, server, { clock, metrics })
      : undefined;
    delivery?.start();
    // Stopped by the server's onClose: whatever closes the server (close() below, tests) stops it
    // before the database closes.
    const shiftClock = new ShiftClock(database, config.shiftClockPollMs, server.log, clock);
    server.addHook('onClose', () => shiftClock.stop());
    shiftClock.start();
    // Every instance runs it; its batches skip the rows another instance is deleting.
    const retention = new Retention(database, {
      ...config.retention,
      clock,
      log: server.log,
      onDeleted: (table, rows) => metrics.retentionDeleted(table, rows),
    });
    server.addHook('onClose', () => retention.stop());
    retention.start();
    const connectors = config.connectorsEnabled
      ? createConnectors(config, database, server, clock)
      : undefined;
    connectors?.start();
    return {
      server,
      db: database,
      tokens,
      delivery,
      shiftClock,
      retention,
      connectors,
      eventStream,
      commands,
      clock,
      createdClient,
      close: async () => {
        await server.close();
        await delivery?.stop();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}

function createDelivery(
  config: Config,
  db: Database,
  server: FastifyInstance,
  { clock, metrics }: { clock: Clock; metrics: Metrics },
): DeliveryWorker {
  const policy = callbackPolicy(config);
  const { timeoutMs } = config.delivery;
  // The public URL, else this instance's own address once it listens (docs/api.md, "Addresses and versions").
  // Kept once the server listens: it does not change, and every delivery needs it.
  let listening: Hrefs | undefined;
  const hrefs = () => {
    if (listening) return listening;
    const address = server.server.address();
    const https = config.tlsCertFile !== undefined && config.tlsKeyFile !== undefined;
    const listens = typeof address === 'object' && address !== null;
    const found = new Hrefs(
      instanceRoot({ ...config, https }, listens ? address : undefined),
      CURRENT_VERSION,
    );
    if (listens) listening = found;
    return found;
  };
  // The public URL when set, else where the callback's registration came from, else this instance.
  const links = new CallbackLinks(
    db,
    (root, id) =>
      (config.publicUrl === undefined && root !== null ? new Hrefs(root, CURRENT_VERSION) : hrefs()).api(
        `/callbacks/${id}`,
      ),
    () => config.publicUrl !== undefined || server.server.listening,
  );
  // Connections of its own (PostgreSQL): its statements never queue behind requests for the pool.
  // Two: a cycle and the recording of outcomes run side by side.
  const own = db.separate?.(2);
  const worker = new DeliveryWorker(
    own ?? db,
    { http: new HttpTransport({ timeoutMs, policy }), mqtt: new MqttTransport({ timeoutMs, policy }) },
    {
      ...config.delivery,
      callbackHref: (id) => links.href(id),
      clock,
      onCycle: () => metrics.deliveryCycle(),
      onOutcome: (outcome) => metrics.deliveryOutcome(outcome),
      onStopped: () => own?.close(),
    },
    server.log,
  );
  // A write may have recorded events: look for deliveries now instead of at the next poll.
  server.addHook('onResponse', (request, _reply, done) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') worker.wake();
    done();
  });
  return worker;
}

function createConnectors(
  config: Config,
  db: Database,
  server: FastifyInstance,
  clock: Clock,
): ConnectorManager {
  const manager = new ConnectorManager(db, {
    clock,
    log: server.log,
    policy: callbackPolicy(config),
    noConnectionState: config.connectorNoConnectionState,
  });
  // Stopped before the database closes (whatever closes the server); leases are given up.
  server.addHook('onClose', () => manager.stop());
  // A changed connector is started, restarted or stopped now instead of at the next renewal.
  server.addHook('onResponse', (request, _reply, done) => {
    if (request.method !== 'GET' && request.method !== 'HEAD' && request.url.includes('/connectors'))
      manager.wake();
    done();
  });
  return manager;
}
