// The delivery loop of one instance (docs/decisions/0003-delivery-from-the-event-log.md): give new events
// their delivery positions, hold leases on a share of the callbacks (leases.ts), read ahead the
// events after each held callback's cursor (readAhead.ts), send them and the retries that are due
// (sending.ts), and record the outcomes in batches (recording.ts). Sends happen outside any
// transaction. Several instances on one PostgreSQL share the callbacks by lease and the retries by
// SKIP LOCKED claims; a crash loses nothing (leases and claims expire, and a cursor only ever
// passes recorded outcomes).
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../background/clock.ts';
import { PollingLoop } from '../background/pollingLoop.ts';
import type { DeliverySettings } from '../config.ts';
import type { Database } from '../db/database.ts';
import { pollDelivery } from '../db/repositories/deliveryCursors.ts';
import { Cursors } from './cursors.ts';
import { Leases } from './leases.ts';
import { ReadAhead } from './readAhead.ts';
import { Recorder } from './recording.ts';
import { Sender } from './sending.ts';
import type { Transport } from './transport.ts';

export interface DeliveryOptions extends DeliverySettings {
  /** A callback's link: at once when known, else once it has been read (CallbackLinks). */
  callbackHref: (callbackId: string) => string | Promise<string>;
  /** The time of claims, leases, retries and headers. */
  clock: Clock;
  /** Metrics hooks (src/metrics): a cycle of the loop finished; a delivery attempt's outcome. */
  onCycle?: () => void;
  onOutcome?: (outcome: string) => void;
  /** After the worker has stopped: closes connections opened for it alone. */
  onStopped?: () => Promise<void> | undefined;
}

const POLL_BATCH = 500;
const PRUNE_EVERY_MS = 60_000;

export class DeliveryWorker {
  readonly #db: Database;
  readonly #options: DeliveryOptions;
  readonly #log: FastifyBaseLogger;
  readonly #clock: Clock;
  readonly #loop: PollingLoop;
  readonly #cursors = new Cursors();
  readonly #leases: Leases;
  readonly #recorder: Recorder;
  readonly #sender: Sender;
  readonly #readAhead: ReadAhead;
  /** Sends the last cycle started or claimed: none while nothing is in flight means drained. */
  #lastClaimed = 0;
  #lastPrune = 0;
  #stopped: Promise<void> | undefined;

  constructor(
    db: Database,
    transports: Record<'http' | 'mqtt', Transport>,
    options: DeliveryOptions,
    log: FastifyBaseLogger,
  ) {
    this.#db = db;
    this.#options = options;
    this.#log = log;
    this.#clock = options.clock;
    this.#leases = new Leases(db, options.leaseMs);
    this.#recorder = new Recorder(db, this.#cursors, this.#leases, {
      retryIntervalMs: options.retryIntervalMs,
      clock: options.clock,
      log,
      onOutcome: options.onOutcome,
      recorded: () => this.wake(), // cursors moved: callbacks held back by what they had out may read again
    });
    this.#sender = new Sender(db, transports, this.#cursors, this.#recorder, {
      timeoutMs: options.timeoutMs,
      maxInFlight: options.maxInFlight,
      perCallback: options.perCallback,
      callbackHref: options.callbackHref,
      clock: options.clock,
      wake: () => this.wake(),
      wantsRead: (cursor) => this.#readAhead.wantsRead(cursor),
    });
    this.#readAhead = new ReadAhead(db, this.#cursors, this.#sender, {
      instanceId: this.#leases.instanceId,
      maxInFlight: options.maxInFlight,
      perCallback: options.perCallback,
    });
    this.#loop = new PollingLoop({
      name: 'delivery',
      intervalMs: options.pollMs,
      clock: options.clock,
      log,
      cycle: async () => {
        try {
          await this.#cycle();
        } finally {
          this.#options.onCycle?.(); // a finished cycle, even a failed one: the loop is alive
        }
      },
    });
  }

  start(): void {
    this.#options.onCycle?.();
    this.#loop.start();
  }

  /** Something changed (a write request ended, a send finished): look for work now. */
  wake(): void {
    this.#loop.wake();
  }

  /**
   * Resolves once everything due at the clock's current time has been sent and its outcome
   * recorded: cycles run until one sends nothing while no send is in flight.
   */
  async drain(): Promise<void> {
    for (;;) {
      await this.#loop.nextCycle();
      if (this.#lastClaimed === 0 && this.#sender.inFlight === 0 && this.#recorder.recording === undefined)
        return;
      await this.#sender.settled();
      await this.#recorder.recording;
    }
  }

  /**
   * Stops sending, lets the sends in flight finish (each is bounded by the timeout), records
   * them and gives the leases back, so another instance goes on at once. Idempotent.
   */
  stop(): Promise<void> {
    this.#stopped ??= this.#stop();
    return this.#stopped;
  }

  async #stop(): Promise<void> {
    this.#sender.stop();
    await this.#loop.stop();
    await this.#sender.settled();
    await this.#recorder.recording;
    await this.#leases.release(this.#log);
    await this.#sender.close();
    await this.#options.onStopped?.();
  }

  async #cycle(): Promise<void> {
    let poll = await pollDelivery(this.#db, this.#leases.instanceId, POLL_BATCH, this.#clock.now());
    while (poll.sequenced === POLL_BATCH) {
      // a full batch: more events are waiting
      poll = await pollDelivery(this.#db, this.#leases.instanceId, POLL_BATCH, this.#clock.now());
    }
    this.#readAhead.saw(poll.head);
    const now = this.#clock.now();
    if (this.#leases.due(now, poll.unleased)) {
      await this.#leases.renew(now, this.#cursors, this.#recorder.recordingFor);
    }
    this.#lastClaimed = 0;
    let free = this.#sender.freeSlots;
    if (free > 0) free -= await this.#sendFromCursors(free, now);
    else this.#sender.markContended();
    if (free > 0 && poll.nextRetryAt !== null && poll.nextRetryAt <= now) {
      this.#lastClaimed += await this.#sender.sendRetries(free, now);
    }
    if (now.getTime() - this.#lastPrune > PRUNE_EVERY_MS) {
      this.#lastPrune = now.getTime();
      await this.#recorder.pruneHistory();
      await this.#sender.forgetDeleted();
    }
  }

  /**
   * First attempts: events already read ahead go out first; then the cursors that are running
   * low read more, and what they read goes out in the slots still free. Returns how many sends
   * started.
   */
  async #sendFromCursors(free: number, now: Date): Promise<number> {
    let started = this.#sender.sendAhead(free);
    if (await this.#readAhead.read(now)) started += this.#sender.sendAhead(free - started);
    this.#lastClaimed += started;
    return started;
  }
}
