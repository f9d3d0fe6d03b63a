import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FailureGuard } from '../../../src/auth/failureGuard.ts';
import { failureLimiter } from '../../../src/auth/limits.ts';
import { pairBackoff, pairKey } from '../../../src/auth/pairBackoff.ts';

describe('FailureGuard', () => {
  test('failure limiter: a key over the limit waits until its window ends, then starts afresh', () => {
    let now = 0;
    const limiter = failureLimiter(2, 10_000, () => now);
    limiter.fail('a');
    assert.equal(limiter.retryAfter('a'), 0);
    limiter.fail('a');
    now = 2500;
    assert.equal(limiter.retryAfter('a'), 8);
    assert.equal(limiter.retryAfter('b'), 0);
    now = 10_000;
    assert.equal(limiter.retryAfter('a'), 0);
    limiter.fail('a');
    assert.equal(limiter.retryAfter('a'), 0);
  });

  test('pair backoff: free failures, then a doubling wait up to the bound; reset forgets', () => {
    const now = 0;
    const backoff = pairBackoff(1, 4, () => now);
    const key = pairKey('client', '10.0.0.1');
    backoff.fail(key);
    assert.equal(backoff.retryAfter(key), 1);
    const waits = [2, 4, 4].map(() => {
      backoff.fail(key);
      return backoff.retryAfter(key);
    });
    assert.deepEqual(waits, [2, 4, 4]);
    assert.equal(backoff.retryAfter(pairKey('client', '10.0.0.2')), 0);
    backoff.reset(key);
    assert.equal(backoff.retryAfter(key), 0);
  });

  test('pair keys cannot collide across the parts', () => {
    assert.notEqual(pairKey('b:c', 'a'), pairKey('c', 'a:b'));
  });

  test('bounded: the key written longest ago goes first', () => {
    const guard = new FailureGuard<number>(
      { fail: (count) => (count ?? 0) + 1, retryAt: () => 5000, expired: () => false },
      () => 0,
      2,
    );
    for (const key of ['a', 'b', 'a', 'c']) guard.fail(key);
    assert.deepEqual(
      ['a', 'b', 'c'].map((key) => guard.retryAfter(key)),
      [5, 0, 5],
    );
  });
});
