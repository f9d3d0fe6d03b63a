// src/delivery/deadlines.ts: one timer for the deadlines of every send in flight, driven here by
// a clock of the test's own that moves only when told to, and fires the timer it holds.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Deadline, DeadlineList, type DeadlineTimers } from '../../../src/delivery/deadlines.ts';

/** A clock and its one timer, both moved by the test. */
class TestTimers implements DeadlineTimers {
  time = 0;
  timer: { at: number; fire: () => void } | null = null;
  /** Timers set so far. */
  timersSet = 0;

  now(): number {
    return this.time;
  }

  set(fire: () => void, ms: number): unknown {
    assert.equal(this.timer, null, 'one timer at a time');
    this.timersSet += 1;
    this.timer = { at: this.time + ms, fire };
    return this.timer;
  }

  clear(timer: unknown): void {
    assert.equal(timer, this.timer);
    this.timer = null;
  }

  /** When the timer is set to fire; undefined when none is set. */
  timerAt(): number | undefined {
    return this.timer?.at;
  }

  /** Moves the clock to `time`, firing the timer whenever it is due on the way. */
  advance(to: number): void {
    while (this.timer !== null && this.timer.at <= to) {
      const { at, fire } = this.timer;
      this.time = at;
      this.timer = null;
      fire();
    }
    this.time = to;
  }
}

class Send extends Deadline {
  expiredAt: number | null = null;
  readonly #timers: TestTimers;

  constructor(timers: TestTimers) {
    super();
    this.#timers = timers;
  }

  expired(): void {
    assert.equal(this.expiredAt, null, 'expired once');
    this.expiredAt = this.#timers.now();
  }
}

const setUp = (spanMs = 1000, tickMs = 10) => {
  const timers = new TestTimers();
  const list = new DeadlineList(spanMs, tickMs, timers);
  const send = () => {
    const created = new Send(timers);
    list.add(created);
    return created;
  };
  return { timers, list, send };
};

describe('DeadlineList', () => {
  test('a deadline fires at its span, rounded up to the tick, never before', () => {
    const { timers, send } = setUp(1000, 10);
    timers.advance(3);
    const first = send(); // due 1003: fires at the tick 1010
    timers.advance(1009);
    assert.equal(first.expiredAt, null);
    timers.advance(1010);
    assert.equal(first.expiredAt, 1010);
  });

  test('the deadlines of one tick fire together, on one timer', () => {
    const { timers, send } = setUp(1000, 10);
    const sends = [send()];
    timers.advance(4);
    sends.push(send());
    timers.advance(10);
    sends.push(send()); // due 1010: the same tick
    timers.advance(11);
    const later = send(); // due 1011: the next tick
    assert.equal(timers.timersSet, 1, 'one timer for all of them');
    timers.advance(1010);
    assert.deepEqual(
      sends.map((each) => each.expiredAt),
      [1000, 1010, 1010],
    );
    assert.equal(later.expiredAt, null);
    timers.advance(1020);
    assert.equal(later.expiredAt, 1020);
  });

  test('a removed deadline never fires; the others still do, in order', () => {
    const { timers, list, send } = setUp(100, 10);
    const first = send();
    timers.advance(20);
    const second = send();
    timers.advance(40);
    const third = send();
    list.remove(first);
    list.remove(first); // a second remove does nothing
    assert.equal(list.size, 2);
    timers.advance(1000);
    assert.equal(first.expiredAt, null);
    assert.equal(second.expiredAt, 120);
    assert.equal(third.expiredAt, 140);
    assert.equal(list.size, 0);
  });

  test('no timer is left once nothing is listed, and a new deadline sets one again', () => {
    const { timers, list, send } = setUp(100, 10);
    const one = send();
    const two = send();
    list.remove(two);
    assert.notEqual(timers.timer, null, 'one is still listed');
    list.remove(one);
    assert.equal(timers.timer, null);
    timers.advance(500);
    const three = send();
    assert.equal(timers.timerAt(), 600);
    timers.advance(600);
    assert.equal(three.expiredAt, 600);
    assert.equal(timers.timer, null, 'nothing left to time after the last fired');
  });

  test('when the front ended early, the timer fires for nothing and is set for the next', () => {
    const { timers, list, send } = setUp(100, 10);
    const first = send();
    timers.advance(50);
    const second = send();
    list.remove(first);
    timers.advance(100);
    assert.equal(second.expiredAt, null);
    assert.equal(timers.timerAt(), 150);
    timers.advance(150);
    assert.equal(second.expiredAt, 150);
  });

  test('a deadline added while others expire is timed from then', () => {
    const { timers, list } = setUp(100, 10);
    const chained: Send[] = [];
    class Retrying extends Send {
      override expired(): void {
        super.expired();
        const next = new Send(timers);
        chained.push(next);
        list.add(next);
      }
    }
    list.add(new Retrying(timers));
    timers.advance(100);
    assert.equal(chained.length, 1);
    timers.advance(199);
    assert.equal(chained[0]?.expiredAt, null);
    timers.advance(200);
    assert.equal(chained[0]?.expiredAt, 200);
  });
});
