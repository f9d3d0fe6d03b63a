// Real components for delivery and fault tests: free ports, bounded polling, an HTTP receiver that
// can be down or up, a Mosquitto of our own, the service as a real child process, and a small API
// client that produces operating-state events. Everything started here has a way to stop it.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { connect, createServer as createNetServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitFor } from './wait.ts';

/** A JSON body of the API under test: its shape is what the tests assert. */
// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are checked by assertions, not by types
export type JsonObject = Record<string, any>;

const ROOT = new URL('../../', import.meta.url).pathname;
const NODE = process.execPath;

/** A TCP port that was free a moment ago on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = createNetServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export { waitFor } from './wait.ts';

/** `promise`, or a failure naming `what` after `ms`. */
export async function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs every closer in order even when one fails (so nothing is left running), then throws the
 * first failure. Undefined entries (never started) are skipped.
 */
export async function closeAll(
  ...closers: (Pick<{ close(): Promise<void> }, 'close'> | undefined)[]
): Promise<void> {
  let failure: unknown;
  for (const closer of closers) {
    try {
      await closer?.close();
    } catch (error) {
      failure ??= error;
    }
  }
  if (failure !== undefined) throw failure;
}

/** Runs `work` over `items` with at most `concurrency` at once; fails on the first error. */
export async function inParallel<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index] as T, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
}

export interface Delivery {
  path: string;
  body: string;
  headers: IncomingHttpHeaders;
  receivedAt: number;
}

/**
 * An HTTP receiver on a fixed loopback port that can be started and stopped (a stopped receiver
 * refuses connections). It records every delivery and answers 200.
 */
export class Receiver {
  readonly port: number;
  readonly deliveries: Delivery[] = [];
  /** Called for each delivery before the answer (e.g. to kill the service at the n-th one). */
  onDelivery: ((delivery: Delivery, count: number) => void) | undefined;
  #server: Server | undefined;

  private constructor(port: number) {
    this.port = port;
  }

  /** A receiver with a reserved port, not listening yet (down) unless `up`. */
  static async create(options: { up: boolean }): Promise<Receiver> {
    const receiver = new Receiver(await freePort());
    if (options.up) await receiver.start();
    return receiver;
  }

  url(path = '/hook'): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  async start(): Promise<void> {
    if (this.#server) return;
    const server = createHttpServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const delivery = {
          path: request.url ?? '',
          body: Buffer.concat(chunks).toString('utf8'),
          headers: request.headers,
          receivedAt: Date.now(),
        };
        this.deliveries.push(delivery);
        this.onDelivery?.(delivery, this.deliveries.length);
        response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      });
    });
    server.keepAliveTimeout = 60_000;
    server.listen(this.port, '127.0.0.1');
    await once(server, 'listening');
    this.#server = server;
  }

  async stop(): Promise<void> {
    const server = this.#server;
    if (!server) return;
    this.#server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** How often each webhook-id (event id) arrived (on `path` only, when given). */
  countsById(path?: string): Map<string, number> {
    const counts = new Map<string, number>();
    for (const delivery of this.deliveries) {
      if (path !== undefined && delivery.path !== path) continue;
      const id = String(delivery.headers['webhook-id']);
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    return counts;
  }
}

/** Distinct ids and how many arrivals were extra copies. */
export function duplicateSummary(counts: Map<string, number>): { distinct: number; duplicates: number } {
  let duplicates = 0;
  for (const count of counts.values()) duplicates += count - 1;
  return { distinct: counts.size, duplicates };
}

async function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * A Mosquitto of our own on a free loopback port, stopped and started at will. It persists its
 * state in a temp dir: a normal stop (SIGTERM) keeps sessions and queued QoS 1 messages, so a
 * subscriber with a persistent session misses nothing the broker confirmed.
 */
export class Mosquitto {
  readonly port: number;
  readonly #dir: string;
  #process: ChildProcess | undefined;
  #output = '';

  private constructor(port: number, dir: string) {
    this.port = port;
    this.#dir = dir;
  }

  /** `settings`: more lines of mosquitto.conf (the benchmarks lift the queue limit per client). */
  static async start(settings: readonly string[] = []): Promise<Mosquitto> {
    const dir = mkdtempSync(join(tmpdir(), 'bridge-mosquitto-'));
    // Started as root, mosquitto drops to its own user: without write access to the directory
    // it cannot save its state on stop, and persistent sessions would silently not survive.
    chmodSync(dir, 0o777);
    const broker = new Mosquitto(await freePort(), dir);
    writeFileSync(
      join(dir, 'mosquitto.conf'),
      [
        `listener ${broker.port} 127.0.0.1`,
        'allow_anonymous true',
        'persistence true',
        `persistence_location ${dir}/`,
        'log_dest stderr',
        ...settings,
        '',
      ].join('\n'),
    );
    try {
      await broker.start();
    } catch (error) {
      await broker.close();
      throw error;
    }
    return broker;
  }

  async start(): Promise<void> {
    if (this.#process) return;
    const child = spawn('mosquitto', ['-c', join(this.#dir, 'mosquitto.conf')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const collect = (chunk: Buffer) => {
      this.#output = (this.#output + chunk.toString()).slice(-5000);
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    this.#process = child;
    await waitFor(`mosquitto on port ${this.port}`, () => portAnswers(this.port), {
      timeoutMs: 10_000,
      describe: () => this.#output.slice(-500),
      giveUp: () => (child.exitCode === null ? undefined : `mosquitto exited (${child.exitCode})`),
    });
  }

  /** A normal stop (SIGTERM): the broker saves its state and exits (SIGKILL after 5 s). */
  async stop(): Promise<void> {
    const child = this.#process;
    this.#process = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit');
    child.kill('SIGTERM');
    const forced = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(forced);
  }

  /** Stops the broker and removes its files. */
  async close(): Promise<void> {
    await this.stop();
    rmSync(this.#dir, { recursive: true, force: true });
  }
}

export interface ServiceOptions {
  /** PostgreSQL URL, or undefined for PGlite in `dataDir`. */
  databaseUrl?: string | undefined;
  dataDir?: string | undefined;
  port?: number;
  env?: Record<string, string>;
}

export const SERVICE_CLIENT = { id: 'fault-client', secret: 'fault-client-secret-0123456789' };

/** The real service (`node src/cli/main.ts start`) as a child process. */
export class ServiceProcess {
  readonly port: number;
  readonly baseUrl: string;
  readonly #options: ServiceOptions;
  #child: ChildProcess | undefined;
  #output = '';

  private constructor(port: number, options: ServiceOptions) {
    this.port = port;
    this.baseUrl = `http://127.0.0.1:${port}`;
    this.#options = options;
  }

  /** Starts the service and waits until it answers /health/ready. */
  static async start(options: ServiceOptions): Promise<ServiceProcess> {
    const service = await ServiceProcess.prepare(options);
    await service.start();
    return service;
  }

  /** A service not started yet, for a test that needs its handle first; `launch` or `start` it. */
  static async prepare(options: ServiceOptions): Promise<ServiceProcess> {
    return new ServiceProcess(options.port ?? (await freePort()), options);
  }

  /** Output of every run so far (stdout and stderr), for failure messages. */
  get output(): string {
    return this.#output;
  }

  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** Starts the process and waits until it answers /health/ready. */
  async start(): Promise<void> {
    const child = this.launch();
    await waitFor(
      `the service on port ${this.port} to be ready`,
      async () => {
        const response = await fetch(`${this.baseUrl}/health/ready`);
        await response.body?.cancel();
        return response.status === 200;
      },
      {
        // A bound against hanging: a first start on a busy machine can take long.
        timeoutMs: 90_000,
        intervalMs: 100,
        describe: () => this.#output.slice(-1000),
        giveUp: () =>
          child.exitCode !== null || child.signalCode !== null
            ? `service exited (${child.exitCode ?? child.signalCode})`
            : undefined,
      },
    );
  }

  /** Spawns the process without waiting for it (a test may kill it before it is ready). */
  launch(): ChildProcess {
    if (this.#child) throw new Error('service already running');
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '/tmp',
      BRIDGE_HOST: '127.0.0.1',
      BRIDGE_PORT: String(this.port),
      BRIDGE_EMBEDDED_MQTT: 'off',
      BRIDGE_BOOTSTRAP_CLIENT_ID: SERVICE_CLIENT.id,
      BRIDGE_BOOTSTRAP_CLIENT_SECRET: SERVICE_CLIENT.secret,
      BRIDGE_LOG_LEVEL: 'warn',
      ...(this.#options.databaseUrl ? { DATABASE_URL: this.#options.databaseUrl } : {}),
      ...(this.#options.dataDir ? { BRIDGE_DATA_DIR: this.#options.dataDir } : {}),
      ...this.#options.env,
    };
    const child = spawn(NODE, ['src/cli/main.ts', 'start'], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const collect = (chunk: Buffer) => {
      this.#output = (this.#output + chunk.toString()).slice(-20_000);
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    this.#child = child;
    return child;
  }

  /** Resolves when the running process has exited (at once when none runs). */
  async exited(): Promise<void> {
    const child = this.#child;
    if (child && child.exitCode === null && child.signalCode === null) await once(child, 'exit');
    this.#child = undefined;
  }

  /** kill -9, synchronously: what happens in flight stays unfinished. */
  killNow(): void {
    this.#child?.kill('SIGKILL');
  }

  /** kill -9 and wait until the process is gone. */
  async kill(): Promise<void> {
    const child = this.#child;
    if (!child) return;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    }
    this.#child = undefined;
  }

  /** SIGTERM (graceful stop), SIGKILL after 15 s. */
  async stop(): Promise<void> {
    const child = this.#child;
    if (!child) return;
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      const forced = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(forced);
    }
    this.#child = undefined;
  }
}

/** A minimal client of the service's HTTP API with a bearer token. */
export class Api {
  readonly baseUrl: string;
  readonly token: string;

  constructor(baseUrl: string, token: string) {
    this.baseUrl = baseUrl;
    this.token = token;
  }

  /** A client_credentials token from `baseUrl`'s /oauth/token. */
  static async login(baseUrl: string, client = SERVICE_CLIENT): Promise<Api> {
    const response = await fetch(`${baseUrl}/oauth/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
      },
      body: 'grant_type=client_credentials',
    });
    const body = (await response.json()) as { access_token?: string };
    if (response.status !== 200 || !body.access_token) {
      throw new Error(`token request failed: ${response.status} ${JSON.stringify(body)}`);
    }
    return new Api(baseUrl, body.access_token);
  }

  /** The same token against another instance. */
  on(baseUrl: string): Api {
    return new Api(baseUrl, this.token);
  }

  async request(
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: JsonObject | undefined }> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
  }

  /** A request that must answer `status`; returns the body's properties. */
  async expect(status: number, method: string, path: string, body?: unknown): Promise<JsonObject> {
    const response = await this.request(method, path, body);
    if (response.status !== status) {
      throw new Error(
        `${method} ${path}: expected ${status}, got ${response.status} ${JSON.stringify(response.body)}`,
      );
    }
    return response.body?.properties ?? {};
  }
}

const API = '/api/v2';

/** Creates a capacity group and `count` workplaces in it; returns the workplace ids. */
export async function createWorkplaces(api: Api, count: number, prefix: string): Promise<string[]> {
  const group = await api.expect(201, 'POST', `${API}/workplaceGroups`, {
    number: `${prefix}-group`,
    type: 'CAPACITY_GROUP',
  });
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const workplace = await api.expect(201, 'POST', `${API}/workplaces`, {
      number: `${prefix}-wp-${index}`,
      capacityGroupId: group.id,
    });
    ids.push(workplace.id as string);
  }
  return ids;
}

/** Registers a callback; returns its id. */
export async function registerCallback(
  api: Api,
  body: { eventType: string; url: string; [field: string]: unknown },
): Promise<string> {
  return (await api.expect(201, 'POST', `${API}/callbacks`, body)).id as string;
}

/**
 * Emits `total` WORKPLACE_OPERATING_STATE_CHANGED events: one lane per workplace, each lane
 * alternating 110 / 000 in sequence (a change to the same state emits nothing), lanes in parallel.
 * `apis` are used round robin per request (two instances: half the changes through each).
 */
export async function changeOperatingStates(
  apis: Api[],
  workplaceIds: string[],
  total: number,
): Promise<void> {
  const perLane = Math.ceil(total / workplaceIds.length);
  let issued = 0;
  await inParallel(workplaceIds, workplaceIds.length, async (workplaceId) => {
    for (let step = 0; step < perLane; step += 1) {
      if (issued >= total) return;
      const index = issued++;
      const api = apis[index % apis.length] as Api;
      const code = step % 2 === 0 ? '110' : '000';
      await api.expect(200, 'POST', `${API}/workplaces/${workplaceId}/operatingState/${code}`);
    }
  });
}
