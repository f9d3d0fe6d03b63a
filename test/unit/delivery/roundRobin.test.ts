// src/delivery/roundRobin.ts: free slots (and read-ahead) shared in turns, so that no callback
// gets a second share before every other one that wants some had its first.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { roundRobin } from '../../../src/delivery/roundRobin.ts';

test('one each in turn, in the order given, until the budget is spent', () => {
  const shares = roundRobin(
    [
      { item: 'a', room: 5 },
      { item: 'b', room: 5 },
      { item: 'c', room: 5 },
    ],
    4,
  );
  assert.deepEqual(
    [...shares],
    [
      ['a', 2],
      ['b', 1],
      ['c', 1],
    ],
  );
});

test("an item's room bounds it; what it cannot take goes to the others", () => {
  const shares = roundRobin(
    [
      { item: 'small', room: 1 },
      { item: 'large', room: 10 },
    ],
    6,
  );
  assert.deepEqual(
    [...shares],
    [
      ['small', 1],
      ['large', 5],
    ],
  );
});

test('a budget larger than all the room gives every item its room; none gives nothing', () => {
  const wanting = [
    { item: 1, room: 2 },
    { item: 2, room: 3 },
  ];
  assert.deepEqual(
    [...roundRobin(wanting, 100)],
    [
      [1, 2],
      [2, 3],
    ],
  );
  assert.equal(roundRobin(wanting, 0).size, 0);
  assert.equal(roundRobin(wanting, -3).size, 0);
  assert.equal(roundRobin([], 10).size, 0);
});

test('the input is left as it was', () => {
  const wanting = [{ item: 'a', room: 2 }];
  roundRobin(wanting, 2);
  assert.deepEqual(wanting, [{ item: 'a', room: 2 }]);
});

test('for any rooms and budget: fair, within room, and spends min(budget, total room)', () => {
  fc.assert(
    fc.property(
      fc.array(fc.integer({ min: 1, max: 20 }), { maxLength: 30 }),
      fc.integer({ min: 0, max: 400 }),
      (rooms, budget) => {
        const shares = roundRobin(
          rooms.map((room, item) => ({ item, room })),
          budget,
        );
        const given = rooms.map((_, item) => shares.get(item) ?? 0);
        const total = rooms.reduce((sum, room) => sum + room, 0);
        assert.equal(
          given.reduce((sum, share) => sum + share, 0),
          Math.min(budget, total),
        );
        for (const [item, share] of given.entries()) assert.ok(share <= (rooms[item] as number));
        // Fair: an item short of its room got at least as much as any other, less the one turn
        // the budget may have ended in.
        const most = Math.max(0, ...given);
        for (const [item, share] of given.entries()) {
          if (share < (rooms[item] as number))
            assert.ok(share >= most - 1, `${given} for ${rooms}, budget ${budget}`);
        }
      },
    ),
  );
});
