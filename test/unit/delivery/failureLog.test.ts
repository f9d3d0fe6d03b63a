// src/delivery/failureLog.ts: failed deliveries in the log, summarized. The first failure of a
// callback is a line at once; the ones after it are counted into one summary line per interval;
// a callback that delivers again and stays quiet is forgotten.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FailureLog } from '../../../src/delivery/failureLog.ts';

const INTERVAL = 60_000;

/** A failure log on a clock the test moves, writing into `lines`. */
function recorded() {
  const lines: { level: 'warn' | 'info'; fields: Record<string, unknown>; message: string }[] = [];
  const clock = { now: 0 };
  const sink = {
    warn: (fields: object, message: string) => lines.push({ level: 'warn', fields: { ...fields }, message }),
    info: (fields: object, message: string) => lines.push({ level: 'info', fields: { ...fields }, message }),
  };
  const log = new FailureLog(sink as unknown as ConstructorParameters<typeof FailureLog>[0], {
    now: () => clock.now,
    intervalMs: INTERVAL,
  });
  return { log, lines, clock };
}

const refused = { error: 'HTTP 500', statusCode: 500 };
const fine = { error: null, statusCode: 204 };

test('the first failure is a line at once; the next ones wait for the summary', () => {
  const { log, lines, clock } = recorded();
  log.attempt('a', 'FAILED', refused, 'event-1');
  assert.equal(lines.length, 1);
  assert.deepEqual(lines[0]?.fields, {
    callbackId: 'a',
    eventId: 'event-1',
    outcome: 'FAILED',
    statusCode: 500,
    error: 'HTTP 500',
  });
  clock.now = 1000;
  log.attempt('a', 'FAILED', refused);
  clock.now = 2000;
  log.attempt('a', 'DISCARDED', { error: 'timeout', statusCode: null });
  assert.equal(lines.length, 1, 'counted, not logged');
  clock.now = INTERVAL;
  log.flush();
  assert.equal(lines.length, 2);
  assert.equal(lines[1]?.message, 'deliveries failing');
  assert.deepEqual(lines[1]?.fields, {
    callbackId: 'a',
    failedAttempts: 2,
    discardedNotifications: 1,
    lastStatusCode: null,
    lastError: 'timeout',
    failing: true,
    sinceMs: INTERVAL,
  });
});

test('a callback that recovered gets its summary once, then is forgotten', () => {
  const { log, lines, clock } = recorded();
  log.attempt('a', 'FAILED', refused);
  log.attempt('a', 'FAILED', refused);
  log.attempt('a', 'DELIVERED', fine);
  clock.now = INTERVAL;
  log.flush();
  assert.deepEqual(
    lines.map((line) => line.message),
    [
      'delivery failed; further failures of this callback are summarized',
      'deliveries failed, then succeeded',
    ],
  );
  clock.now = 2 * INTERVAL;
  log.flush();
  assert.equal(lines.length, 2, 'nothing more to say');
  // Forgotten: its next failure is a line at once again.
  log.attempt('a', 'FAILED', refused);
  assert.equal(lines.length, 3);
});

test('a flapping receiver stays at one line per interval', () => {
  const { log, lines, clock } = recorded();
  for (let second = 0; second < 50; second += 1) {
    clock.now = second * 1000;
    log.attempt('a', second % 2 ? 'DELIVERED' : 'FAILED', second % 2 ? fine : refused);
  }
  assert.equal(lines.length, 1);
});

test('callbacks are summarized each on their own', () => {
  const { log, lines } = recorded();
  log.attempt('a', 'FAILED', refused);
  log.attempt('b', 'FAILED', refused);
  log.attempt('a', 'DELIVERED', fine);
  assert.deepEqual(
    lines.map((line) => line.fields.callbackId),
    ['a', 'b'],
  );
});
