// Fair shares of a budget (docs/decisions/0003-delivery-from-the-event-log.md, fairness): free send slots, and events to
// read ahead, go out one at a time in turns, so a few busy callbacks cannot take them all.

/** One item that wants a share of the budget, and how much it may take at most (at least 1). */
export interface Wanting<T> {
  item: T;
  room: number;
}

/**
 * Shares `budget` out one at a time in turns over the items, each up to its room, so that no
 * item gets a second share before every other one had its first. Returns item -> share, in the
 * order the items were given; items that got nothing are left out.
 */
export function roundRobin<T>(wanting: readonly Wanting<T>[], budget: number): Map<T, number> {
  const shares = new Map<T, number>();
  const open = wanting.map((want) => ({ ...want }));
  for (let left = budget; left > 0 && open.length > 0; ) {
    for (let index = 0; index < open.length && left > 0; ) {
      const want = open[index] as (typeof open)[number];
      shares.set(want.item, (shares.get(want.item) ?? 0) + 1);
      left -= 1;
      want.room -= 1;
      if (want.room === 0) open.splice(index, 1);
      else index += 1;
    }
  }
  return shares;
}
