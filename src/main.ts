// Process entry of `bridge start`: settings -> app -> listen; stops gracefully on SIGTERM/SIGINT.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { type App, createApp } from './app.ts';
import { announceClient, remindClient, removeClient } from './auth/clients.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { explainDatabaseStartError } from './db/startErrors.ts';
import type { EmbeddedBroker } from './delivery/embeddedBroker.ts';
import { startDemo } from './demo.ts';
import { type Demo, demoPlan, isEmptyDataDir } from './simulator/demo.ts';

/** A start that failed for a reason the operator can fix: its message is the whole story. */
export class StartError extends Error {}

export async function start(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\nSee docs/settings.md for every setting and its default.\n`);
      process.exit(2);
    }
    throw error;
  }
  // Looked at before the database opens (and fills the directory): docs/demo.md, "First start".
  const firstStart = config.databaseUrl === undefined && isEmptyDataDir(config.dataDir);
  const dataDirExisted = existsSync(config.dataDir);
  // A first start that fails leaves the data directory as it found it, so the next start is a
  // first start again: it prints a client and seeds the demo.
  const undoFirstStart = () => {
    if (!firstStart) return;
    if (!dataDirExisted) rmSync(config.dataDir, { recursive: true, force: true });
    else
      for (const entry of readdirSync(config.dataDir))
        rmSync(join(config.dataDir, entry), { recursive: true, force: true });
  };

  // A taken port is found before the database is created or opened: the answer comes at once and
  // nothing is touched. (Listening below can still lose a race for it; that path undoes too.)
  const portTaken = await portInUse(config.host, config.port);
  if (portTaken) throw explainListenError(portTaken, config) ?? portTaken;

  let app: App;
  try {
    app = await createApp(config);
  } catch (error) {
    undoFirstStart();
    const explained = explainDatabaseStartError(error, config.databaseUrl);
    throw explained === undefined ? error : new StartError(explained);
  }

  let broker: EmbeddedBroker | undefined;
  // Before listening: a signal as soon as the port answers stops the service gracefully.
  let demo: Demo | undefined;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.server.log.info({ signal }, 'shutting down: finishing requests in flight');
    const forced = setTimeout(() => {
      app.server.log.error('shutdown took longer than 10 s; exiting');
      process.exit(1);
    }, 10_000);
    forced.unref();
    await demo?.stop();
    await app.close();
    await broker?.close();
    app.server.log.info('stopped');
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  try {
    broker = await startBroker(config, app.server.log);
    await app.server.listen({ host: config.host, port: config.port });
  } catch (error) {
    // The client of this start was never shown: on PostgreSQL it goes, so the next start makes one.
    if (app.createdClient) await removeClient(app.db, app.createdClient.clientId).catch(() => undefined);
    await app.close().catch(() => undefined);
    await broker?.close().catch(() => undefined);
    undoFirstStart();
    throw explainListenError(error, config) ?? error;
  }
  // Only now: credentials printed by a start that then fails would belong to nothing. Log lines
  // are written synchronously, so the credentials come below "Server listening".
  if (app.createdClient) process.stdout.write(announceClient(app.createdClient, config));

  const plan = demoPlan(config, firstStart);
  if (plan.simulate) demo = startDemo(app, config, plan, process.stdout);
  // Seeding writes a screenful: the credentials come again below it, where they are seen.
  const created = app.createdClient;
  if (demo && plan.seed && created) {
    void demo.ready.then(() => {
      if (!stopping) process.stdout.write(remindClient(created));
    });
  }
}

/** The error of listening on host:port now, or undefined when it can be listened on (port 0 always can). */
function portInUse(host: string, port: number): Promise<NodeJS.ErrnoException | undefined> {
  if (port === 0) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', (error: NodeJS.ErrnoException) => resolve(error));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(undefined)));
  });
}

/** A listen failure the operator can fix, said with the setting to change; undefined otherwise. */
function explainListenError(error: unknown, config: Config): StartError | undefined {
  const code = (error as NodeJS.ErrnoException).code;
  const where = `${config.host}:${config.port}`;
  if (code === 'EADDRINUSE') {
    return new StartError(
      `Port ${config.port} is already in use (${where}): another program, or another bridge, listens there. ` +
        `Stop it, or choose a free port with BRIDGE_PORT (e.g. BRIDGE_PORT=${config.port === 8080 ? 8081 : 8080} npm start).`,
    );
  }
  if (code === 'EACCES') {
    return new StartError(
      `Not allowed to listen on port ${config.port} (${where}). Choose a port above 1023 with BRIDGE_PORT.`,
    );
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
    return new StartError(
      `Cannot listen on ${where}: this machine has no such address. Set BRIDGE_HOST to one of its addresses (0.0.0.0 for all).`,
    );
  }
  return undefined;
}

/**
 * The embedded MQTT broker of the zero-setup run. `auto` starts it unless its port is taken
 * (then an external broker such as Mosquitto is assumed to be there); `off` never starts it.
 */
async function startBroker(config: Config, log: FastifyBaseLogger): Promise<EmbeddedBroker | undefined> {
  const { mode, host, port } = config.embeddedMqtt;
  if (mode === 'off') return undefined;
  try {
    // aedes is loaded only when the embedded broker runs (never with BRIDGE_EMBEDDED_MQTT=off).
    const { startEmbeddedBroker } = await import('./delivery/embeddedBroker.ts');
    const broker = await startEmbeddedBroker(host, port);
    log.info({ host, port: broker.port }, 'embedded MQTT broker listening');
    return broker;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      if (mode === 'auto') {
        log.info({ port }, 'MQTT port in use: using the broker already there, not the embedded one');
        return undefined;
      }
      throw new StartError(
        `The embedded MQTT broker cannot listen on port ${port}: it is in use. Set BRIDGE_EMBEDDED_MQTT_PORT to a free port, or BRIDGE_EMBEDDED_MQTT=auto to use the broker already there.`,
      );
    }
    throw error;
  }
}
