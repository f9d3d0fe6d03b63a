// Turns a mapped value into a service call (docs/resources/connectors.md, "Mappings"): a device
// sample (buffered, written in batches), an operating state change (the command's code path), or
// a piece counter's reading booked against the last one stored (services/connectorCounters.ts).
// Rules come from domain/connectors.ts.
import type { Clock } from '../background/clock.ts';

import type { Database } from '../db/database.ts';
import {
  type Connector,
  checkCounterReading,
  counterKey,
  type Mapping,
  operatingStateFor,
  RejectedValue,
  SAMPLE_BATCH_SIZE,
  toNumber,
} from '../domain/connectors.ts';
import type { SampleInput } from '../domain/devices.ts';
import { bookCounterReading } from '../services/connectorCounters.ts';
import { recordSamples } from '../services/timeSeriesService.ts';
import { changeOperatingState } from '../services/workplaceService.ts';

/** Batches written behind the values being applied at most; beyond, applying waits for the database. */
const MAX_PENDING_BATCHES = 4;

/** What applying values came to, for the connector's status. */
export interface Outcome {
  applied(count: number): void;
  rejected(count: number, reason: string): void;
}

export class ValueApplier {
  readonly #db: Database;
  readonly #connectorId: string;
  readonly #mappings: Mapping[];
  /** Each mapping's counter key (its source), by index. */
  readonly #counterKeys: string[];
  readonly #outcome: Outcome;
  /** Samples waiting for the next batch, per device. */
  #samples = new Map<string, SampleInput[]>();
  #buffered = 0;
  /** The batches being written, one after the other. */
  #writing: Promise<void> = Promise.resolve();
  #pendingBatches = 0;

  constructor(db: Database, connector: Connector, outcome: Outcome, _clock: Clock) {
    this.#db = db;
    this.#connectorId = connector.id;
    this.#mappings = connector.mappings;
    this.#counterKeys = connector.mappings.map((mapping) => counterKey(mapping.source));
    this.#outcome = outcome;
  }

  get bufferedSamples(): number {
    return this.#buffered;
  }

  /** Applies one value; throws nothing (a failure is counted as rejected). */
  async apply(index: number, value: unknown, timestamp: Date): Promise<void> {
    const mapping = this.#mappings[index];
    if (!mapping) return;
    const { target } = mapping;
    try {
      if (target.kind === 'DEVICE_SAMPLE') {
        const sample = { tag: target.tag, timestamp, value: toNumber(value) };
        const list = this.#samples.get(target.deviceId);
        if (list) list.push(sample);
        else this.#samples.set(target.deviceId, [sample]);
        this.#buffered++;
        if (this.#buffered >= SAMPLE_BATCH_SIZE) {
          // Written while the next values are applied; with too many batches waiting, wait.
          const written = this.flush();
          if (this.#pendingBatches > MAX_PENDING_BATCHES) await written;
        }
      } else if (target.kind === 'OPERATING_STATE') {
        await changeOperatingState(this.#db, target.workplaceId, operatingStateFor(target, value));
        this.#outcome.applied(1);
      } else {
        // Checked before the transaction: a bad reading is rejected in arrival order.
        const reading = checkCounterReading(toNumber(value));
        // The increase since the reading stored with the last booking, whoever made it.
        await bookCounterReading(this.#db, {
          connectorId: this.#connectorId,
          counterKey: this.#counterKeys[index] as string,
          workplaceId: target.workplaceId,
          quantityType: target.quantityType,
          reading,
          timestamp,
        });
        this.#outcome.applied(1);
      }
    } catch (error) {
      this.#outcome.rejected(1, reason(error));
    }
  }

  /**
   * Writes the buffered samples, one multi-row insert per device, after the batches already being
   * written (in order, one at a time); resolves when they are all written.
   */
  flush(): Promise<void> {
    if (this.#buffered > 0) {
      const batches = this.#samples;
      this.#samples = new Map();
      this.#buffered = 0;
      this.#pendingBatches++;
      this.#writing = this.#writing.then(async () => {
        await this.#write(batches);
        this.#pendingBatches--;
      });
    }
    return this.#writing;
  }

  async #write(batches: Map<string, SampleInput[]>): Promise<void> {
    for (const [deviceId, samples] of batches) {
      try {
        await recordSamples(this.#db, deviceId, samples);
        this.#outcome.applied(samples.length);
      } catch (error) {
        this.#outcome.rejected(samples.length, `samples of device ${deviceId}: ${reason(error)}`);
      }
    }
  }
}

function reason(error: unknown): string {
  if (error instanceof RejectedValue) return error.message;
  return error instanceof Error ? error.message : String(error);
}
