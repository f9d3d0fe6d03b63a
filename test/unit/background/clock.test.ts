// The clocks of the background work: a ManualClock stands still until a test moves it (so nothing
// waits in real time); the system clock sleeps in real time and stops sleeping when aborted.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ManualClock, systemClock } from '../../../src/background/clock.ts';

describe('ManualClock', () => {
  test('stands still until moved; a sleep ends when the clock reaches its end, or when aborted', async () => {
    const clock = new ManualClock(new Date('2030-01-01T00:00:00Z'));
    const ended: string[] = [];
    void clock.sleep(1000).then(() => ended.push('1s'));
    const aborter = new AbortController();
    void clock.sleep(5000, aborter.signal).then(() => ended.push('aborted'));
    clock.advance(999);
    await Promise.resolve();
    assert.deepEqual(ended, []);
    clock.advance(1);
    aborter.abort();
    await new Promise(setImmediate);
    assert.deepEqual(ended, ['1s', 'aborted']);
    assert.equal(clock.now().toISOString(), '2030-01-01T00:00:01.000Z');
  });

  test('never runs backwards', () => {
    const clock = new ManualClock(new Date('2030-01-01T00:00:00Z'));
    assert.throws(() => clock.set(new Date('2029-12-31T23:59:59Z')), RangeError);
    assert.throws(() => clock.advance(-1), RangeError);
  });

  test('the system clock tells the time and ends an aborted sleep at once', async () => {
    const before = Date.now();
    assert.ok(systemClock.now().getTime() >= before);
    const aborter = new AbortController();
    const sleeping = systemClock.sleep(3_600_000, aborter.signal);
    aborter.abort();
    await sleeping;
  });
});
