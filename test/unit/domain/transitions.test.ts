// The one refusal of a change of state (src/domain/transitions.ts): what a table allows passes,
// anything else is INVALID_TRANSITION naming the allowed states, worded as each family answers;
// a state the table does not have is NOT_FOUND where the family asks for it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AppError } from '../../../src/domain/errors.ts';
import { checkTransition, type TransitionRule } from '../../../src/domain/transitions.ts';

const TABLE = { OPEN: ['RUNNING'], RUNNING: ['OPEN', 'DONE'], DONE: [] } as const;
type State = keyof typeof TABLE;

/** The error params a change is refused with; undefined when it passes. */
function refusal(current: State, requested: string, rule?: TransitionRule) {
  try {
    checkTransition(TABLE, 'job', 'J1', current, requested, rule);
    return undefined;
  } catch (error) {
    assert.ok(error instanceof AppError);
    assert.equal(error.code, 'INVALID_TRANSITION');
    return error.params;
  }
}

test('a change the table lists passes; another is refused naming the allowed states', () => {
  assert.equal(refusal('OPEN', 'RUNNING'), undefined);
  assert.equal(refusal('RUNNING', 'DONE'), undefined);
  assert.deepEqual(refusal('OPEN', 'DONE'), {
    resource: 'job',
    id: 'J1',
    current: 'OPEN',
    requested: 'DONE',
    allowed: 'RUNNING',
  });
});

test('the same state again is no change, unless the family holds it to the table', () => {
  assert.equal(refusal('OPEN', 'OPEN'), undefined);
  assert.equal(refusal('OPEN', 'OPEN', { sameChecked: true })?.allowed, 'RUNNING');
});

test('a final state allows none, in the words the family gives', () => {
  assert.equal(refusal('DONE', 'OPEN')?.allowed, 'none');
  assert.equal(refusal('DONE', 'OPEN', { none: '-' })?.allowed, '-');
  assert.equal(refusal('DONE', 'DONE', { sameChecked: true, none: '-' })?.allowed, '-');
});

test('a state the table does not have is not found where the family names its states, else refused', () => {
  for (const requested of ['LOST', 'open', 'constructor']) {
    assert.throws(
      () => checkTransition(TABLE, 'job', 'J1', 'OPEN', requested, { states: 'jobState' }),
      (error) => error instanceof AppError && error.code === 'NOT_FOUND',
    );
  }
  assert.equal(refusal('OPEN', 'LOST')?.allowed, 'RUNNING');
});
