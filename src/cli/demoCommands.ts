// `bridge seed` and `bridge simulate` (docs/demo.md): against a running service (--url with a
// client's credentials), or against the configured database through an in-process server on a
// loopback port with a client created for the run and removed after it.
import { BridgeApiError, type BridgeClient, createBridgeClient } from '../../clients/typescript/src/index.ts';
import { type App, createApp } from '../app.ts';
import { announceClient } from '../auth/clients.ts';
import { systemClock } from '../background/clock.ts';
import { PollingLoop } from '../background/pollingLoop.ts';
import type { Config } from '../config.ts';
import { loopbackApi } from '../demo.ts';
import { describeCounts } from '../simulator/demo.ts';
import { DEFAULT_SIZE } from '../simulator/plant.ts';
import { seedPlant } from '../simulator/seed.ts';
import { Simulator } from '../simulator/simulate.ts';

export interface CommandOptions {
  url?: string | undefined;
  clientId?: string | undefined;
  clientSecret?: string | undefined;
  seed?: string | undefined;
  size?: string | undefined;
  rate?: string | undefined;
  steps?: string | undefined;
  concurrency?: string | undefined;
}

/** A wrong option value: the CLI prints it with the usage (exit 2). */
export class CommandOptionError extends Error {}

function count(name: string, text: string | undefined, fallback: number, min: number, max: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max) {
    throw new CommandOptionError(`--${name} takes an integer from ${min} to ${max} (got "${text}")`);
  }
  return value;
}

/** Runs `work` with the typed API client: the --url service, or an in-process one on the configured database. */
async function withApi(config: Config, options: CommandOptions, work: (api: BridgeClient) => Promise<void>) {
  if (options.url !== undefined) {
    if (!options.clientId || !options.clientSecret) {
      throw new CommandOptionError('--url needs --client-id and --client-secret');
    }
    const url = new URL(options.url);
    const basePath = url.pathname.replace(/\/+$/, '');
    await work(
      createBridgeClient({
        baseUrl: `${url.origin}${basePath}`,
        clientId: options.clientId,
        clientSecret: options.clientSecret,
      }),
    );
    return;
  }
  const local: Config = { ...config, host: '127.0.0.1', port: 0, logLevel: 'warn', tlsCertFile: undefined };
  const app: App = await createApp({ ...local, tlsKeyFile: undefined });
  // A new database got its first client: shown as `bridge start` shows it, for the service as configured.
  if (app.createdClient) process.stdout.write(announceClient(app.createdClient, config));
  try {
    await app.server.listen({ host: local.host, port: local.port });
    const loopback = await loopbackApi(app, local, 'bridge seed/simulate');
    try {
      await work(loopback.api);
    } finally {
      await loopback.remove();
    }
  } finally {
    await app.close();
  }
}

export async function seedCommand(config: Config, options: CommandOptions): Promise<void> {
  const size = count('size', options.size, DEFAULT_SIZE, 1, 10_000_000);
  const seed = count('seed', options.seed, 1, 0, 4_294_967_295);
  const concurrency = count('concurrency', options.concurrency, 4, 1, 64);
  await withApi(config, options, async (api) => {
    const started = Date.now();
    let shown = -1;
    const counts = await seedPlant(api, {
      size,
      seed,
      concurrency,
      onProgress: (done, total) => {
        const percent = Math.floor((done * 100) / total);
        if (percent === shown) return;
        shown = percent;
        const bar = '#'.repeat(Math.floor(percent / 2.5)).padEnd(40, '.');
        process.stderr.write(`\r[${bar}] ${String(percent).padStart(3)}%  ${done}/${total}`);
      },
    });
    const seconds = (Date.now() - started) / 1000;
    process.stderr.write('\n');
    process.stdout.write(
      `Seeded in ${seconds.toFixed(1)} s (${Math.round(counts.operations / seconds)} operations/s): ${describeCounts(counts)}\n`,
    );
  });
}

export async function simulateCommand(config: Config, options: CommandOptions): Promise<void> {
  const seed = count('seed', options.seed, Date.now() % 4_294_967_296, 0, 4_294_967_295);
  const rate = count('rate', options.rate, 2, 1, 1000);
  const steps = options.steps === undefined ? undefined : count('steps', options.steps, 0, 1, 100_000_000);
  await withApi(config, options, async (api) => {
    const simulator = await Simulator.connect(api, { seed });
    process.stdout.write(`Simulating with seed ${seed} at ${rate} changes/s; Ctrl-C stops.\n`);
    let done = 0;
    let finish: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const loop = new PollingLoop({
      name: 'simulator',
      intervalMs: Math.max(1, Math.round(1000 / rate)),
      clock: systemClock,
      log: { warn: (details, message) => process.stderr.write(`${message}: ${JSON.stringify(details)}\n`) },
      cycle: async () => {
        if (steps !== undefined && done >= steps) return finish();
        try {
          await simulator.step();
        } catch (error) {
          // An answer the simulator did not expect: one line with the API's error, no stack.
          if (!(error instanceof BridgeApiError)) throw error;
          process.stderr.write(`simulator: ${error.message}\n`);
        }
        done++;
      },
    });
    process.once('SIGINT', finish);
    process.once('SIGTERM', finish);
    loop.start();
    await finished;
    await loop.stop();
    const kinds = [...simulator.counts].map(([kind, n]) => `${kind} ${n}`).join(', ');
    process.stdout.write(`${done} steps: ${kinds}\n`);
  });
}
