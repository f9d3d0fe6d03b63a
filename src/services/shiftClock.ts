// The shift clock: announces each start and end of a shift once (WORKPLACE_SHIFT_CHANGED). It runs
// in every instance; a claim marks the shifts announced and writes their events in one
// transaction, with SKIP LOCKED, so several instances on one PostgreSQL and restarts announce
// every transition exactly once. A transition missed while no instance ran is announced late.
import type { FastifyBaseLogger } from 'fastify';
import { type Clock, systemClock } from '../background/clock.ts';
import { PollingLoop } from '../background/pollingLoop.ts';
import type { Database, Queryable } from '../db/database.ts';
import { claimDueEnds, claimDueStarts } from '../db/repositories/shiftRepository.ts';
import { catalogueEvent, type NewEvent } from '../domain/events.ts';
import type { Shift, ShiftChange } from '../domain/shifts.ts';
import { recordEvents } from './eventService.ts';

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
    event: catalogueEvent('WORKPLACE_SHIFT_CHANGED', shift.id, {
      shiftId: shift.id,
      workplaceId: shift.workplaceId,
      change,
      startDate: shift.startDate.toISOString(),
      endDate: shift.endDate.toISOString(),
    }),
  };
}

/** The shift clock of one instance, started, woken and stopped as a PollingLoop. */
export class ShiftClock extends PollingLoop {
  constructor(db: Database, pollMs: number, log: FastifyBaseLogger, clock: Clock = systemClock) {
    super({
      name: 'shift clock',
      intervalMs: pollMs,
      clock,
      log,
      cycle: async (stopping) => {
        while (
          !stopping.aborted &&
          (await db.transaction((tx) => announceDueTransitions(tx, clock.now()))) >= BATCH
        ) {
          // a full batch: more are due (e.g. after a long stop), claim again at once
        }
      },
    });
  }
}
