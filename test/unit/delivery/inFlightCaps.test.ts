// src/delivery/inFlightCaps.ts: a receiver that does not answer is cut to one send in flight (a
// probe); each answer after that doubles its cap until it is back at perCallback.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InFlightCaps } from '../../../src/delivery/inFlightCaps.ts';
import { failure, noAnswer, type SendResult } from '../../../src/delivery/transport.ts';

const delivered: SendResult = { ok: true, statusCode: 204, error: null, unresponsive: false };
const refused = failure(new Error('HTTP 500'), 500);
// Neither an answer nor a timeout: the send itself failed (a bad URL, a transport that threw).
const brokenSend = failure(new Error('Invalid URL'));
const timedOut = noAnswer(new Error('no answer within 1000 ms'));

test('every callback starts at the full cap: none is listed as reduced', () => {
  const caps = new InFlightCaps(8);
  caps.learn('a', delivered);
  caps.learn('a', refused);
  assert.deepEqual([...caps.reduced()], []);
});

test('no answer cuts a callback to one; answers double it back to the full cap', () => {
  const caps = new InFlightCaps(8);
  caps.learn('a', timedOut);
  assert.deepEqual([...caps.reduced()], [['a', 1]]);
  const seen: number[] = [];
  for (let answer = 0; answer < 3; answer += 1) {
    caps.learn('a', delivered);
    seen.push(caps.reduced().get('a') ?? 8);
  }
  assert.deepEqual(seen, [2, 4, 8]);
  assert.equal(caps.reduced().has('a'), false);
});

test('an error status is an answer too; a failure without one is not, and changes nothing', () => {
  const caps = new InFlightCaps(8);
  caps.learn('a', timedOut);
  caps.learn('a', refused);
  assert.equal(caps.reduced().get('a'), 2);
  caps.learn('a', brokenSend);
  assert.equal(caps.reduced().get('a'), 2);
  caps.learn('a', timedOut);
  assert.equal(caps.reduced().get('a'), 1);
});

test('a full cap that is not a power of two is reached, not passed', () => {
  const caps = new InFlightCaps(5);
  caps.learn('a', timedOut);
  caps.learn('a', delivered);
  caps.learn('a', delivered);
  assert.equal(caps.reduced().get('a'), 4);
  caps.learn('a', delivered);
  assert.equal(caps.reduced().has('a'), false);
});

test('callbacks are capped independently', () => {
  const caps = new InFlightCaps(4);
  caps.learn('a', timedOut);
  caps.learn('b', timedOut);
  caps.learn('b', delivered);
  assert.deepEqual([...caps.reduced()].sort(), [
    ['a', 1],
    ['b', 2],
  ]);
});

test('forgetDeleted drops the callbacks that no longer exist, asking only about reduced ones', async () => {
  const caps = new InFlightCaps(4);
  const asked: string[][] = [];
  await caps.forgetDeleted(async (ids) => {
    asked.push(ids);
    return new Set();
  });
  assert.equal(asked.length, 0, 'nothing reduced: nothing to ask');
  caps.learn('gone', timedOut);
  caps.learn('kept', timedOut);
  await caps.forgetDeleted(async (ids) => {
    asked.push(ids);
    return new Set(['kept']);
  });
  assert.deepEqual(asked, [['gone', 'kept']]);
  assert.deepEqual([...caps.reduced()], [['kept', 1]]);
});
