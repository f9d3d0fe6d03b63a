import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FairHashBudget } from '../../../src/auth/fairHashBudget.ts';
import { QueueFullError } from '../../../src/auth/limits.ts';

/** A task that ends when `finish()` is called, recording when it started. */
function gate(order: string[], name: string) {
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return {
    task: async () => {
      order.push(name);
      await done;
    },
    finish: () => finish(),
  };
}

test('waiting client ids take the free slot in turn, not in arrival order', async () => {
  const budget = new FairHashBudget(1, 100, 100);
  const order: string[] = [];
  const first = gate(order, 'a0');
  const runs = [budget.run('a', first.task)];
  const gates = [first];
  for (const name of ['a1', 'a2', 'a3', 'b1', 'c1', 'b2']) {
    const next = gate(order, name);
    gates.push(next);
    runs.push(budget.run(name.slice(0, 1), next.task));
  }
  for (const one of gates) {
    await new Promise((resolve) => setImmediate(resolve));
    one.finish();
  }
  await Promise.all(runs);
  // a0 ran; then a, b, c take turns.
  assert.deepEqual(order, ['a0', 'a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
  assert.equal(budget.started, 7);
});

test('one client id may have at most its share waiting; others still get places', async () => {
  const budget = new FairHashBudget(1, 10, 2);
  const order: string[] = [];
  const running = gate(order, 'x');
  const runs = [
    budget.run('x', running.task),
    budget.run('a', async () => {}),
    budget.run('a', async () => {}),
  ];
  await assert.rejects(
    budget.run('a', async () => {}),
    QueueFullError,
  );
  runs.push(budget.run('b', async () => {}));
  running.finish();
  await Promise.all(runs);
});
