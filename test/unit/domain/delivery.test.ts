// src/domain/delivery.ts, the delivery policy the worker applies (its specs sit with delivery's):
// what an attempt's outcome means, when a retry is due, how long a claim holds, and which
// attempts of a recorded batch go into the attempt history.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import {
  type AttemptResult,
  attemptResult,
  attemptsToRecord,
  claimLockMs,
  nextAttemptAt,
} from '../../../src/domain/delivery.ts';

test('attemptResult: a success delivers; a failure is retried until the retries are spent', () => {
  assert.equal(attemptResult(true, 9, 0), 'DELIVERED');
  // maxRedeliverAttempts 2: attempts 1 (the first delivery), 2 and 3 may fail; the third discards.
  assert.deepEqual(
    [1, 2, 3].map((attempt) => attemptResult(false, attempt, 2)),
    ['FAILED', 'FAILED', 'DISCARDED'],
  );
  assert.equal(attemptResult(false, 1, 0), 'DISCARDED', 'no retries: the first failure discards');
});

test('a retry is due one interval after the attempt ended; a claim outlasts a send', () => {
  assert.equal(
    nextAttemptAt(new Date('2026-01-01T00:00:00Z'), 30_000).toISOString(),
    '2026-01-01T00:00:30.000Z',
  );
  assert.ok(claimLockMs(5000) > 5000);
});

describe('attemptsToRecord', () => {
  const D: AttemptResult = 'DELIVERED';

  test('a batch within the history is recorded whole', () => {
    assert.deepEqual(attemptsToRecord(['a', 'a', 'b'], [D, 'FAILED', D], 2), [true, true, true]);
  });

  test('only the newest `kept` successes of a callback are recorded, counted per callback', () => {
    const ids = ['a', 'b', 'a', 'a', 'b', 'a'];
    assert.deepEqual(attemptsToRecord(ids, [D, D, D, D, D, D], 2), [false, true, false, true, true, true]);
  });

  test('failures and discards are always recorded; so is the newest success before them', () => {
    const results: AttemptResult[] = [D, D, D, 'FAILED', 'DISCARDED', 'FAILED'];
    assert.deepEqual(attemptsToRecord(['a', 'a', 'a', 'a', 'a', 'a'], results, 1), [
      false,
      false,
      true,
      true,
      true,
      true,
    ]);
  });

  test('for any batch: the newest `kept` of each callback and its newest success are recorded, every failure too', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.constantFrom('a', 'b', 'c'),
            fc.constantFrom<AttemptResult>('DELIVERED', 'FAILED', 'DISCARDED'),
          ),
          {
            maxLength: 60,
          },
        ),
        fc.integer({ min: 1, max: 10 }),
        (batch, kept) => {
          const record = attemptsToRecord(
            batch.map(([id]) => id),
            batch.map(([, result]) => result),
            kept,
          );
          for (const [index, [id, result]] of batch.entries()) {
            const newer = batch.slice(index + 1).filter(([other]) => other === id);
            const newestSuccess = result === 'DELIVERED' && !newer.some(([, later]) => later === 'DELIVERED');
            const expected = result !== 'DELIVERED' || newestSuccess || newer.length < kept;
            assert.equal(
              record[index],
              expected,
              `attempt ${index} of ${JSON.stringify(batch)}, kept ${kept}`,
            );
          }
        },
      ),
    );
  });
});
