// The pure rules of connectors (src/domain/connectors.ts): topic filters, JSON pointers, payload
// values, state mapping, the piece counter, and the reconnect backoff with jitter.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  counterIncrease,
  operatingStateFor,
  RECONNECT_MAX_MS,
  RejectedValue,
  readPointer,
  reconnectDelay,
  toNumber,
  topicMatches,
  validTopicFilter,
  valueFromPayload,
} from '../../../src/domain/connectors.ts';

test('topic filters: + is one level, # the rest', () => {
  assert.ok(topicMatches('a/+/c', 'a/b/c'));
  assert.ok(!topicMatches('a/+/c', 'a/b/d/c'));
  assert.ok(topicMatches('a/#', 'a'));
  assert.ok(topicMatches('a/#', 'a/b/c'));
  assert.ok(!topicMatches('a/b', 'a/b/c'));
  assert.ok(validTopicFilter('a/+/#'));
  assert.ok(!validTopicFilter('a/#/b'));
  assert.ok(!validTopicFilter('a/b+'));
  assert.ok(!validTopicFilter(''));
});

test('JSON pointers and payload values', () => {
  const document = { a: { 'b/c': [1, { d: 2 }] }, 'm~n': 3 };
  assert.equal(readPointer(document, '/a/b~1c/1/d'), 2);
  assert.equal(readPointer(document, '/m~0n'), 3);
  assert.equal(readPointer(document, '/a/x'), undefined);
  assert.equal(readPointer(document, '/a/b~1c/01'), undefined);
  const at = new Date('2026-01-01T00:00:00Z');
  assert.deepEqual(valueFromPayload('71.5', { topic: 't' }, at), { value: 71.5, timestamp: at });
  assert.deepEqual(valueFromPayload('RUN', { topic: 't' }, at), { value: 'RUN', timestamp: at });
  assert.deepEqual(
    valueFromPayload(
      '{"v":1,"t":1767225600000}',
      { topic: 't', valuePath: '/v', timestampPath: '/t' },
      new Date(),
    ),
    {
      value: 1,
      timestamp: at,
    },
  );
  assert.throws(() => valueFromPayload('RUN', { topic: 't', valuePath: '/v' }, at), RejectedValue);
  assert.throws(() => valueFromPayload('{"w":1}', { topic: 't', valuePath: '/v' }, at), /no value at '\/v'/);
  assert.throws(
    () => valueFromPayload('{"v":1,"t":"soon"}', { topic: 't', valuePath: '/v', timestampPath: '/t' }, at),
    RejectedValue,
  );
});

test('numbers, states and the piece counter', () => {
  assert.equal(toNumber(true), 1);
  assert.equal(toNumber(' 2.5 '), 2.5);
  assert.throws(() => toNumber('hot'), RejectedValue);
  assert.throws(() => toNumber(Number.NaN), RejectedValue);
  assert.throws(() => toNumber({}), RejectedValue);
  const target = { kind: 'OPERATING_STATE' as const, workplaceId: 'w', values: { '1': '110', RUN: '110' } };
  assert.equal(operatingStateFor(target, 1), '110');
  assert.throws(() => operatingStateFor(target, 'IDLE'), /not mapped/);
  assert.equal(operatingStateFor({ ...target, otherwise: '000' }, 'IDLE'), '000');
  assert.throws(() => operatingStateFor(target, { RUN: 1 }), RejectedValue);
  assert.equal(counterIncrease(undefined, 100), 0, 'the first reading is the baseline');
  assert.equal(counterIncrease(100, 103), 3);
  assert.equal(counterIncrease(103, 103), 0);
  assert.equal(counterIncrease(103, 2), 2, 'a reset counts from zero');
  assert.throws(() => counterIncrease(1, 1.5), RejectedValue);
  assert.throws(() => counterIncrease(1, -1), RejectedValue);
});

test('reconnect backoff: exponential, capped, jittered between half and all', () => {
  assert.equal(reconnectDelay(0, 0), 250);
  assert.equal(reconnectDelay(0, 1), 500);
  assert.equal(reconnectDelay(3, 0), 2000);
  assert.equal(reconnectDelay(50, 0.999), Math.round(RECONNECT_MAX_MS / 2 + (RECONNECT_MAX_MS / 2) * 0.999));
  for (let attempt = 0; attempt < 30; attempt++) assert.ok(reconnectDelay(attempt, 0.5) <= RECONNECT_MAX_MS);
});
