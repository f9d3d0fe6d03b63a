// One running connector: its protocol client, a bounded queue of values applied one at a time
// (in arrival order), the sample batches, and the counts reported into its status.
import type { Clock } from '../background/clock.ts';
import type { Database } from '../db/database.ts';
import {
  type Connector,
  type ConnectorError,
  MAX_PENDING_VALUES,
  SAMPLE_FLUSH_MS,
  withErrors,
} from '../domain/connectors.ts';
import {
  reportConnectorCounts,
  reportConnectorState,
  reportStaleValues,
} from '../services/connectorService.ts';
import { ValueApplier } from './mapping.ts';
import { mqttClient } from './mqtt.ts';
import { opcUaClient } from './opcua.ts';
import type { ClientFactory, ClientOptions, LiveState, ProtocolClient, Sink } from './protocol.ts';
import { sparkplugClient } from './sparkplug.ts';

const CLIENTS: Record<Connector['type'], ClientFactory> = {
  MQTT: mqttClient,
  SPARKPLUG_B: sparkplugClient,
  OPC_UA: opcUaClient,
};

export interface RuntimeLog {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

export interface RuntimeOptions extends ClientOptions {
  /** The operating state a workplace takes when its state's source dies; null keeps it. */
  noConnectionState: string | null;
}

interface Pending {
  index: number;
  value: unknown;
  timestamp: Date;
}

export class ConnectorRuntime {
  readonly connector: Connector;
  readonly #db: Database;
  readonly #owner: string;
  readonly #clock: Clock;
  readonly #log: RuntimeLog;
  readonly #client: ProtocolClient;
  readonly #applier: ValueApplier;
  #queue: Pending[] = [];
  #draining: Promise<void> | undefined;
  #stateReports: Promise<void> = Promise.resolve();
  #state: LiveState | undefined;
  #stopped = false;
  #flushTimer: AbortController | undefined;
  // Counted since the last report.
  #messages = 0;
  #applied = 0;
  #rejected = 0;
  #lastMessageAt: Date | null = null;
  /** Problems since the last report, oldest last (the same one in a row counted once). */
  #errors: ConnectorError[] = [];

  constructor(
    db: Database,
    connector: Connector,
    owner: string,
    clock: Clock,
    log: RuntimeLog,
    options: RuntimeOptions,
  ) {
    this.#db = db;
    this.connector = connector;
    this.#owner = owner;
    this.#clock = clock;
    this.#log = log;
    this.#applier = new ValueApplier(
      db,
      connector,
      {
        applied: (count) => {
          this.#applied += count;
        },
        rejected: (count, reason) => this.#reject(count, reason),
      },
      clock,
    );
    const sink: Sink = {
      state: (state, error) => this.#setState(state, error),
      message: () => {
        this.#messages++;
        this.#lastMessageAt = this.#clock.now();
      },
      value: (index, value, timestamp) => this.#enqueue({ index, value, timestamp }),
      reject: (reason) => this.#reject(1, reason),
      stale: (indexes, reason) => {
        this.#error(`stale: ${reason}`);
        const at = this.#clock.now();
        // In order with the state reports: a death reported after the connection was lost.
        this.#stateReports = this.#stateReports
          .then(() => reportStaleValues(db, connector, owner, indexes, reason, options.noConnectionState, at))
          .catch((failure: unknown) => this.#log.warn({ err: failure }, 'connector stale report failed'));
      },
    };
    this.#client = CLIENTS[connector.type](connector, sink, options);
  }

  /** The state its protocol client last reported (undefined before the first). */
  get state(): LiveState | undefined {
    return this.#state;
  }

  start(): void {
    this.#client.start();
  }

  /** Stops the client, applies what is queued, writes the last batch and counts. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#flushTimer?.abort();
    await this.#client
      .close()
      .catch((error: unknown) => this.#log.warn({ err: error }, 'connector close failed'));
    await this.#draining;
    await this.flush();
    await this.#stateReports;
  }

  /** Writes buffered samples, the states reported so far, and adds the counts to the stored status. */
  async flush(): Promise<void> {
    await this.#applier.flush();
    await this.#stateReports;
    const delta = {
      messagesReceived: this.#messages,
      valuesApplied: this.#applied,
      valuesRejected: this.#rejected,
      lastMessageAt: this.#lastMessageAt,
      errors: [...this.#errors].reverse(),
    };
    if (delta.messagesReceived + delta.valuesApplied + delta.valuesRejected + delta.errors.length === 0)
      return;
    this.#messages = 0;
    this.#applied = 0;
    this.#rejected = 0;
    this.#lastMessageAt = null;
    this.#errors = [];
    await reportConnectorCounts(this.#db, this.connector.id, this.#owner, delta);
  }

  /** Waits until every value received so far is applied (samples still buffered). */
  async settled(): Promise<void> {
    while (this.#draining) await this.#draining;
  }

  #reject(count: number, reason: string): void {
    this.#rejected += count;
    this.#error(reason);
  }

  /** A problem for the status history (bounded: a flood of them keeps the newest few). */
  #error(message: string): void {
    this.#errors = withErrors(this.#errors, [{ at: this.#clock.now(), message, repeated: 1 }]);
  }

  #setState(state: LiveState, error?: string): void {
    if (this.#stopped) return;
    if (state === this.#state && error === undefined) return;
    this.#state = state;
    if (error !== undefined)
      this.#log.info({ connectorId: this.connector.id, state, error }, 'connector state');
    const at = this.#clock.now();
    this.#stateReports = this.#stateReports
      .then(() => reportConnectorState(this.#db, this.connector.id, this.#owner, state, error ?? null, at))
      .catch((failure: unknown) => this.#log.warn({ err: failure }, 'connector state report failed'));
  }

  #enqueue(item: Pending): void {
    if (this.#queue.length >= MAX_PENDING_VALUES) {
      this.#reject(1, `more than ${MAX_PENDING_VALUES} values waiting: value dropped`);
      return;
    }
    this.#queue.push(item);
    this.#draining ??= this.#drain();
  }

  async #drain(): Promise<void> {
    try {
      while (this.#queue.length > 0) {
        const batch = this.#queue;
        this.#queue = [];
        for (const item of batch) await this.#applier.apply(item.index, item.value, item.timestamp);
        this.#scheduleFlush();
      }
    } finally {
      this.#draining = undefined;
    }
  }

  /** Buffered samples are written within SAMPLE_FLUSH_MS of arriving (or as soon as a batch is full). */
  #scheduleFlush(): void {
    if (this.#flushTimer || this.#applier.bufferedSamples === 0 || this.#stopped) return;
    const timer = new AbortController();
    this.#flushTimer = timer;
    void this.#clock.sleep(SAMPLE_FLUSH_MS, timer.signal).then(async () => {
      this.#flushTimer = undefined;
      if (timer.signal.aborted || this.#stopped) return;
      await this.#applier
        .flush()
        .catch((error: unknown) => this.#log.warn({ err: error }, 'sample flush failed'));
    });
  }
}
