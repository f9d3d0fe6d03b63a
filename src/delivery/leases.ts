// Which callbacks this instance delivers to: it holds a lease on about its share of them, renewed
// while it lives, so several instances on one PostgreSQL split the callbacks, and a dead
// instance's callbacks go to the others once its leases expire (docs/decisions/0003-delivery-from-the-event-log.md, leases).
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/database.ts';
import { leaseCallbacks, releaseLeases } from '../db/repositories/deliveryCursors.ts';
import type { Cursors } from './cursors.ts';

export class Leases {
  /** Names this instance in leases. */
  readonly instanceId = randomUUID();
  readonly #db: Database;
  /** How long a lease lasts unless renewed. */
  readonly #leaseMs: number;
  #renewedAt = Number.NEGATIVE_INFINITY;
  #needed = true;

  constructor(db: Database, leaseMs: number) {
    this.#db = db;
    this.#leaseMs = leaseMs;
  }

  /**
   * Whether this cycle takes a lease step: a callback is waiting for a holder (`unleased`), a
   * lease was lost, or a third of the lease time has passed since the last renewal.
   */
  due(now: Date, unleased: boolean): boolean {
    return unleased || this.#needed || now.getTime() - this.#renewedAt >= this.#leaseMs / 3;
  }

  /**
   * Renews the leases, stores the positions idle cursors have passed, takes or gives back
   * callbacks towards this instance's share, and brings `cursors` in line with what it holds.
   * Callbacks with sends out, or with outcomes being recorded (`recording`), are kept.
   */
  async renew(now: Date, cursors: Cursors, recording: ReadonlySet<string>): Promise<void> {
    const idle = cursors.idlePositions(recording);
    const held = await leaseCallbacks(this.#db, this.instanceId, {
      now,
      until: new Date(now.getTime() + this.#leaseMs),
      busy: [...new Set([...cursors.busy(), ...recording])],
      idle,
    });
    cursors.reconcile(held, idle);
    this.#renewedAt = now.getTime();
    this.#needed = false;
  }

  /** A callback's lease went to another instance (or its record failed): the next cycle renews. */
  lost(): void {
    this.#needed = true;
  }

  /** Gives every lease back, so another instance goes on at once; they expire if this fails. */
  async release(log: FastifyBaseLogger): Promise<void> {
    await releaseLeases(this.#db, this.instanceId).catch((error: unknown) => {
      // They expire instead (BRIDGE_DELIVERY_LEASE_MS).
      log.warn({ err: error }, 'could not give back the delivery leases');
    });
  }
}
