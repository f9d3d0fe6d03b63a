// The background loop: it runs a cycle at start, then one per interval of its clock, at once when
// woken; a failing cycle is logged and the loop goes on; stop waits for the cycle in progress.
// All on a ManualClock: nothing here waits in real time.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ManualClock } from '../../../src/background/clock.ts';
import { PollingLoop } from '../../../src/background/pollingLoop.ts';

function loopOn(clock: ManualClock, cycle: (signal: AbortSignal) => Promise<void> = async () => {}) {
  const warnings: string[] = [];
  let cycles = 0;
  const loop = new PollingLoop({
    name: 'test',
    intervalMs: 1000,
    clock,
    log: { warn: (_details, message) => warnings.push(message) },
    cycle: async (signal) => {
      cycles += 1;
      await cycle(signal);
    },
  });
  return { loop, warnings, cycles: () => cycles };
}

describe('PollingLoop', () => {
  test('a cycle at start, the next one interval later on its clock, at once when woken', async () => {
    const clock = new ManualClock();
    const { loop, cycles } = loopOn(clock);
    loop.start();
    await loop.nextCycle();
    const afterStart = cycles();
    clock.advance(999);
    await new Promise(setImmediate);
    assert.equal(cycles(), afterStart, 'no cycle before the interval is over');
    clock.advance(1);
    await loop.nextCycle();
    assert.ok(cycles() >= afterStart + 1);
    const beforeWake = cycles();
    await loop.nextCycle();
    assert.equal(cycles(), beforeWake + 1, 'nextCycle wakes the loop without moving the clock');
    await loop.stop();
  });

  test('a failing cycle is logged and the loop goes on', async () => {
    const clock = new ManualClock();
    let fail = true;
    const { loop, warnings, cycles } = loopOn(clock, async () => {
      if (fail) throw new Error('database down');
    });
    loop.start();
    await loop.nextCycle();
    assert.ok(warnings.length >= 1);
    assert.equal(warnings[0], 'test cycle failed; retrying');
    fail = false;
    const before = cycles();
    clock.advance(1000);
    await loop.nextCycle();
    assert.ok(cycles() > before);
    await loop.stop();
  });

  test('stop waits for the cycle in progress, aborts its signal, and is idempotent', async () => {
    const clock = new ManualClock();
    let release: () => void = () => {};
    let sawAbort = false;
    const { loop } = loopOn(clock, async (signal) => {
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      sawAbort = signal.aborted;
    });
    loop.start();
    let stopped = false;
    const stopping = loop.stop().then(() => {
      stopped = true;
    });
    await new Promise(setImmediate);
    assert.equal(stopped, false, 'the cycle in progress is not cut off');
    release();
    await stopping;
    assert.equal(sawAbort, true);
    assert.equal(loop.stop(), loop.stop());
    await loop.nextCycle(); // a stopped loop answers at once
  });
});
