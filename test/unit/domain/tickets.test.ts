// Ticket state rules (src/domain/tickets.ts, docs/resources/tickets.md "States"): the transition
// tables, the same state as no change, and closed tickets refusing changes below them.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AppError } from '../../../src/domain/errors.ts';
import {
  checkTicketOpen,
  TICKET_ACTIVITY_TRANSITIONS,
  TICKET_TRANSITIONS,
  type Ticket,
} from '../../../src/domain/tickets.ts';
import { checkTransition } from '../../../src/domain/transitions.ts';

const STATES = ['NEW', 'IN_PROGRESS', 'DONE', 'CONFIRMED', 'REOPENED'];

/** The error params a transition is refused with; undefined when it is allowed. */
function refusal(check: () => void) {
  try {
    check();
    return undefined;
  } catch (error) {
    assert.ok(error instanceof AppError);
    assert.equal(error.code, 'INVALID_TRANSITION');
    return error.params;
  }
}

const ticket = (ticketStateId: string): Ticket => ({
  id: 'T1',
  number: '1',
  title: 't',
  description: null,
  rootCause: null,
  priority: 'LOW',
  editor: null,
  ticketStateId,
  ticketClassId: null,
  operationId: null,
  material: null,
  workplace: null,
  shiftId: null,
  shiftWorkplaceId: null,
  createdAt: new Date(0),
  updatedAt: new Date(0),
});

describe('ticket states', () => {
  test('every pair of states: allowed exactly as the table says, the same state always', () => {
    const allowed: string[] = [];
    for (const from of STATES) {
      for (const to of STATES) {
        const params = refusal(() => checkTransition(TICKET_TRANSITIONS, 'ticket', 'T1', from, to));
        if (params === undefined) allowed.push(`${from}->${to}`);
      }
    }
    assert.deepEqual(allowed, [
      'NEW->NEW',
      'NEW->IN_PROGRESS',
      'NEW->DONE',
      'IN_PROGRESS->IN_PROGRESS',
      'IN_PROGRESS->DONE',
      'DONE->DONE',
      'DONE->CONFIRMED',
      'DONE->REOPENED',
      'CONFIRMED->CONFIRMED',
      'REOPENED->IN_PROGRESS',
      'REOPENED->DONE',
      'REOPENED->REOPENED',
    ]);
  });

  test('a refusal names the current, requested and allowed states; none for a final one', () => {
    assert.deepEqual(
      refusal(() => checkTransition(TICKET_TRANSITIONS, 'ticket', 'T1', 'DONE', 'NEW')),
      { resource: 'ticket', id: 'T1', current: 'DONE', requested: 'NEW', allowed: 'CONFIRMED, REOPENED' },
    );
    assert.equal(
      refusal(() => checkTransition(TICKET_TRANSITIONS, 'ticket', 'T1', 'CONFIRMED', 'REOPENED'))?.allowed,
      'none',
    );
  });

  test('activity states: DONE goes back only to IN_PROGRESS', () => {
    const check = (from: string, to: string) =>
      refusal(() => checkTransition(TICKET_ACTIVITY_TRANSITIONS, 'ticketActivity', 'A1', from, to)) ===
      undefined;
    assert.equal(check('DONE', 'IN_PROGRESS'), true);
    assert.equal(check('DONE', 'NEW'), false);
    assert.equal(check('IN_PROGRESS', 'NEW'), true);
  });

  test('closed tickets (DONE, CONFIRMED) refuse changes below them; open ones take them', () => {
    for (const state of ['NEW', 'IN_PROGRESS', 'REOPENED']) {
      assert.equal(
        refusal(() => checkTicketOpen(ticket(state), 'new activity')),
        undefined,
        state,
      );
    }
    for (const state of ['DONE', 'CONFIRMED']) {
      assert.deepEqual(
        refusal(() => checkTicketOpen(ticket(state), 'new activity')),
        {
          rule: 'closed',
          id: 'T1',
          current: state,
          requested: 'new activity',
        },
      );
    }
  });
});
