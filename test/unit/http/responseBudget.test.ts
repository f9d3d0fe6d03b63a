import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ByteBudget } from '../../../src/http/responseBudget.ts';

test('reservations beyond the budget wait in order and get in as bytes are given back', async () => {
  const budget = new ByteBudget(100, 10, 60_000);
  const first = await budget.reserve(60);
  const second = await budget.reserve(40);
  assert.equal(budget.used, 100);
  const granted: string[] = [];
  const third = budget.reserve(50).then((r) => {
    granted.push('third');
    return r;
  });
  const fourth = budget.reserve(10).then((r) => {
    granted.push('fourth');
    return r;
  });
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(granted, []);
  // Shrinking to the answer's size lets the first waiter in; the smaller one behind it still waits
  // its turn.
  first.resize(10);
  await third;
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(granted, ['third']);
  assert.equal(budget.used, 10 + 40 + 50);
  second.release();
  await fourth;
  assert.deepEqual(granted, ['third', 'fourth']);
  (await third).release();
  (await fourth).release();
  first.release();
  assert.equal(budget.used, 0);
});

test('a full queue and a long wait are refused', async () => {
  const budget = new ByteBudget(10, 1, 50);
  const held = await budget.reserve(10);
  const waiting = budget.reserve(5);
  await assert.rejects(budget.reserve(5));
  await assert.rejects(waiting);
  held.release();
  assert.equal(budget.used, 0);
});
