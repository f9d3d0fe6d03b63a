// Process entry of `bridge start`: settings -> app -> listen; stops gracefully on SIGTERM/SIGINT.
import type { FastifyBaseLogger } from 'fastify';
import { createApp } from './app.ts';
import { announceClient } from './auth/clients.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import type { EmbeddedBroker } from './delivery/embeddedBroker.ts';
import { startDemo } from './demo.ts';
import { type Demo, demoPlan, isEmptyDataDir } from './simulator/demo.ts';

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
  const app = await createApp(config);
  if (app.createdClient) process.stdout.write(announceClient(app.createdClient, config));
  const broker = await startBroker(config, app.server.log);

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

  await app.server.listen({ host: config.host, port: config.port });
  const plan = demoPlan(config, firstStart);
  if (plan.simulate) demo = startDemo(app, config, plan, process.stdout);
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
    if (mode === 'auto' && (error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      log.info({ port }, 'MQTT port in use: using the broker already there, not the embedded one');
      return undefined;
    }
    throw error;
  }
}
