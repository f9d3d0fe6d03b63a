import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { KnownAddresses } from '../../../src/auth/knownAddresses.ts';

describe('KnownAddresses', () => {
  test('a pair that succeeded has a lane of its own; others share the client id lane', () => {
    const known = new KnownAddresses(() => 0);
    assert.equal(known.lane('client', '10.0.0.1'), 'client');
    known.succeeded('client', '10.0.0.1');
    assert.notEqual(known.lane('client', '10.0.0.1'), 'client');
    assert.equal(known.lane('client', '10.0.0.2'), 'client');
    assert.equal(known.lane('other', '10.0.0.1'), 'other');
  });

  test('a pair is known for a day', () => {
    let now = 0;
    const known = new KnownAddresses(() => now);
    known.succeeded('client', '10.0.0.1');
    now = 24 * 60 * 60 * 1000;
    assert.equal(known.has('client', '10.0.0.1'), true);
    now += 1;
    assert.equal(known.has('client', '10.0.0.1'), false);
  });

  test('bounded: the pair that succeeded longest ago goes first', () => {
    const known = new KnownAddresses(() => 0, 2);
    known.succeeded('a', '10.0.0.1');
    known.succeeded('b', '10.0.0.1');
    known.succeeded('a', '10.0.0.1');
    known.succeeded('c', '10.0.0.1');
    assert.deepEqual(
      ['a', 'b', 'c'].map((id) => known.has(id, '10.0.0.1')),
      [true, false, true],
    );
  });

  test('keys cannot collide across the parts', () => {
    const known = new KnownAddresses(() => 0);
    known.succeeded('b:c', 'a');
    assert.equal(known.has('c', 'a:b'), false);
  });
});
