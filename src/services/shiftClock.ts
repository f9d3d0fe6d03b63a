// The shift clock: announces each start and end of a shift once (WORKPLACE_SHIFT_CHANGED). It runs
// in every instance; a claim marks the shifts announced and writes their events in one
// transaction, with SKIP LOCKED, so several instances on one PostgreSQL and restarts announce
// every transition exactly once. A transition missed while no instance ran is announced late.
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Queryable } from '../db/database.ts';
import { claimDueEnds, claimDueStarts } from '../db/repositories/shifts.ts';
import type { NewEvent } from '../domain/events.ts';
import type { Shift, ShiftChange } from '../domain/shifts.ts';
import { recordEvents } from './eventLog.ts';

const BATCH = 500;

/**
 * Claims the due starts and ends and records their events, at `now` (the announcement time, so
 * event-log readers syncing by timestamp never miss a late one). Events are in the order of the
 * transitions; at the same instant an end comes before a start (one shift hands over to the
 * next). Returns how many transitions were announced.
 */
async function announceDueTransitions(tx: Queryable, now: Date): Promise<number> {
  const transitions = [
    ...(await claimDueStarts(tx, now, BATCH)).map((shift) => transition(shift, 'STARTED')),
    ...(await claimDueEnds(tx, now, BATCH)).map((shift) => transition(shift, 'ENDED')),
  ].sort((a, b) => a.at - b.at || (a.change === b.change ? 0 : a.change === 'ENDED' ? -1 : 1));
  await recordEvents(
    tx,
    transitions.map((item) => item.event),
    now,
  );
  return transitions.length;
}

function transition(shift: Shift, change: ShiftChange): { at: number; change: ShiftChange; event: NewEvent } {
  return {
    at: (change === 'STARTED' ? shift.startDate : shift.endDate).getTime(),
    change,
    event: {
      eventType: 'WORKPLACE_SHIFT_CHANGED',
      objectType: 'WORKPLACE_SHIFT',
      objectId: shift.id,
      data: {
        shiftId: shift.id,
        workplaceId: shift.workplaceId,
        change,
        startDate: shift.startDate.toISOString(),
        endDate: shift.endDate.toISOString(),
      },
    },
  };
}

export class ShiftClock {
  readonly #db: Database;
  readonly #pollMs: number;
  readonly #log: FastifyBaseLogger;
  #running = false;
  #loop: Promise<void> | undefined;
  #wakeUp: (() => void) | undefined;

  constructor(db: Database, pollMs: number, log: FastifyBaseLogger) {
    this.#db = db;
    this.#pollMs = pollMs;
    this.#log = log;
  }

  start(): void {
    if (this.#running) return;
    this.#running = true;
    this.#loop = this.#run();
  }

  /** Stops polling; resolves once a claim in progress has committed. Idempotent. */
  async stop(): Promise<void> {
    this.#running = false;
    this.#wakeUp?.();
    await this.#loop;
  }

  async #run(): Promise<void> {
    while (this.#running) {
      try {
        while (
          this.#running &&
          (await this.#db.transaction((tx) => announceDueTransitions(tx, new Date()))) >= BATCH
        ) {
          // a full batch: more are due (e.g. after a long stop), claim again at once
        }
      } catch (error) {
        this.#log.warn({ err: error }, 'shift clock cycle failed; retrying');
      }
      if (this.#running) await this.#sleep();
    }
  }

  #sleep(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, this.#pollMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.#wakeUp = done;
    });
  }
}
