// A memory budget for large answers (docs/operations.md, "Memory"): the pages of the event log
// can each be megabytes, first as rows, then as one JSON text, then as bytes waiting in the
// socket for a client that may read slowly. Each such request reserves the page's byte budget
// before it loads; once serialised the reservation shrinks to the answer's size, and it is given
// back when the answer has left (or the connection closed). Requests beyond the budget wait in
// order; a full queue or a long wait is 503 SERVER_BUSY with Retry-After. Clients that do not read
// are cut off by the send timeout (connectionGuard.ts), so they cannot hold the budget.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../domain/errors.ts';
import { sendError } from './errors.ts';

class BudgetBusy extends Error {}

interface Waiter {
  bytes: number;
  grant: () => void;
}

export class ByteBudget {
  readonly #total: number;
  readonly #maxWaiting: number;
  readonly #maxWaitMs: number;
  readonly #waiting: Waiter[] = [];
  #used = 0;

  constructor(total: number, maxWaiting: number, maxWaitMs: number) {
    this.#total = total;
    this.#maxWaiting = maxWaiting;
    this.#maxWaitMs = maxWaitMs;
  }

  get used(): number {
    return this.#used;
  }

  /** Reserves `bytes` (at most the whole budget); resolves when granted. */
  async reserve(bytes: number): Promise<Reservation> {
    const wanted = Math.min(bytes, this.#total);
    if (this.#waiting.length === 0 && this.#used + wanted <= this.#total) {
      this.#used += wanted;
      return new Reservation(this, wanted);
    }
    if (this.#waiting.length >= this.#maxWaiting) throw new BudgetBusy();
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        bytes: wanted,
        grant: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        this.#waiting.splice(this.#waiting.indexOf(waiter), 1);
        reject(new BudgetBusy());
      }, this.#maxWaitMs);
      this.#waiting.push(waiter);
    });
    return new Reservation(this, wanted);
  }

  /** Changes what is held by `delta` bytes and lets waiters in, first come first served. */
  adjust(delta: number): void {
    this.#used += delta;
    for (let next = this.#waiting[0]; next !== undefined; next = this.#waiting[0]) {
      if (this.#used + next.bytes > this.#total) break;
      this.#waiting.shift();
      this.#used += next.bytes;
      next.grant();
    }
  }
}

export class Reservation {
  readonly #budget: ByteBudget;
  #bytes: number;

  constructor(budget: ByteBudget, bytes: number) {
    this.#budget = budget;
    this.#bytes = bytes;
  }

  resize(bytes: number): void {
    if (this.#bytes === 0) return;
    this.#budget.adjust(bytes - this.#bytes);
    this.#bytes = bytes;
  }

  release(): void {
    this.resize(0);
  }
}

/**
 * Puts the requests `isLarge` picks under `budget`, each reserving `reserveBytes` until its answer
 * is serialised. Registered after authentication, so unauthenticated requests reserve nothing.
 */
export function budgetLargeResponses(
  app: FastifyInstance,
  budget: ByteBudget,
  isLarge: (request: FastifyRequest) => boolean,
  reserveBytes: number,
): void {
  const held = new WeakMap<FastifyRequest, Reservation>();
  app.addHook('onRequest', async (request, reply) => {
    if (!isLarge(request)) return;
    let reservation: Reservation;
    try {
      reservation = await budget.reserve(reserveBytes);
    } catch (error) {
      if (!(error instanceof BudgetBusy)) throw error;
      return sendError(reply, new AppError('SERVER_BUSY', { retryAfter: 1 }), { 'retry-after': '1' });
    }
    held.set(request, reservation);
    // 'close' comes when the answer has been handed to the kernel or the connection ended.
    reply.raw.once('close', () => reservation.release());
  });
  app.addHook('onSend', (request, _reply, payload, done) => {
    const reservation = held.get(request);
    if (reservation !== undefined && typeof payload === 'string') {
      reservation.resize(Buffer.byteLength(payload));
    }
    done(null, payload);
  });
}
