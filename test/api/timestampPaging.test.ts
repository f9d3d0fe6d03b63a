// Timestamp-mode paging (docs/api.md "Collections") under equal timestamps, on production orders and operations:
// walking NEXT from first to last visits every item exactly once, walking back with PREVIOUS does
// the same, and PREVIOUS from a kept firstIdentifier returns exactly what changed since.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachBackend, json, type TestApp } from '../support/app.ts';
import { waitFor } from '../support/wait.ts';

const ORDERS = '/api/v2/productionOrders';
// The orders of the second test, apart from the first test's.
const MATERIAL = { number: 'Q-MAT' };
const Q_ORDERS = `${ORDERS}?materialNumber=Q-MAT`;
const OPERATIONS = '/api/v2/operations';

type Body = ReturnType<typeof json>;
const idsOf = (page: Body, name: string): string[] =>
  page._embedded[name].map((item: { properties: { id: string } }) => item.properties.id);

async function fetch(t: TestApp, url: string): Promise<Body> {
  const response = await t.request({ url });
  assert.equal(response.statusCode, 200, response.body);
  return json(response);
}

/** Every id met following `rel` links from `url`, page by page. */
async function walk(t: TestApp, url: string, rel: 'next' | 'previous', name: string): Promise<string[]> {
  const seen: string[] = [];
  let page = await fetch(t, url);
  for (let pages = 0; ; pages++) {
    assert.ok(pages < 100, 'the walk ends');
    seen.push(...idsOf(page, name));
    const link = page._links[rel];
    if (!link) return seen;
    page = await fetch(t, link.href);
  }
}

/** Waits for the clock to pass `timestamp`, so later changes are strictly newer than it. */
async function after(timestamp: string) {
  await waitFor(`the clock to pass ${timestamp}`, () => Date.now() > Date.parse(timestamp), {
    intervalMs: 1,
  });
}

describeEachBackend('timestamp paging', (t) => {
  test('operations created in one transaction share updated_at: NEXT and PREVIOUS visit each once', async () => {
    const response = await t().request({
      method: 'POST',
      url: ORDERS,
      body: { number: 'TIES', operations: Array.from({ length: 7 }, (_, i) => ({ number: `OP-${i}` })) },
    });
    assert.equal(response.statusCode, 201, response.body);
    const order = json(response);
    const all = idsOf(order, 'operations');
    const stamps = await t().app.db.query<{ n: number }>(
      'SELECT count(DISTINCT updated_at)::int AS n FROM operations WHERE production_order_id = $1',
      [order.properties.id],
    );
    assert.equal(stamps[0]?.n, 1, 'the ties this test is about');

    const url = `${OPERATIONS}?productionOrderId=${order.properties.id}&limit=2`;
    const forward = await walk(t(), url, 'next', 'operations');
    assert.equal(forward.length, 7);
    assert.deepEqual([...forward].sort(), [...all].sort());
    // Newest first, ties by id: with one timestamp, descending ids.
    assert.deepEqual(forward, [...all].sort().reverse());

    const last = await fetch(t(), `${url}&paginationDirection=PREVIOUS`);
    const backward = await walk(t(), last._links.self.href, 'previous', 'operations');
    assert.deepEqual([...backward].sort(), [...all].sort());
    assert.equal(backward.length, 7);
  });

  test('orders: NEXT walks all once; PREVIOUS from a kept firstIdentifier returns exactly the changes', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 8; i++) {
      const response = await t().request({
        method: 'POST',
        url: ORDERS,
        body: { number: `Q-${i}`, material: MATERIAL },
      });
      assert.equal(response.statusCode, 201, response.body);
      ids.push(json(response).properties.id);
    }
    const forward = await walk(t(), `${Q_ORDERS}&limit=3`, 'next', 'productionOrders');
    assert.deepEqual(forward, [...ids].reverse(), 'newest first');

    const first = await fetch(t(), `${Q_ORDERS}&limit=3`);
    const kept = first.pagination.firstIdentifier;
    assert.equal(kept.paginationIdentifier, ids[7]);
    assert.equal(first._links.previous, undefined, 'nothing newer yet');
    await after(kept.paginationTimestamp);

    // Two updates (an old and a recent order) and a new order.
    for (const index of [1, 6]) {
      const response = await t().request({
        method: 'PUT',
        url: `${ORDERS}/${ids[index]}`,
        body: { number: `Q-${index}`, material: MATERIAL, description: 'changed' },
      });
      assert.equal(response.statusCode, 200, response.body);
    }
    const created = json(
      await t().request({ method: 'POST', url: ORDERS, body: { number: 'Q-new', material: MATERIAL } }),
    );
    const since = `${Q_ORDERS}&limit=2&paginationDirection=PREVIOUS&paginationTimestamp=${encodeURIComponent(
      kept.paginationTimestamp,
    )}&paginationIdentifier=${kept.paginationIdentifier}`;
    const changes = await walk(t(), since, 'previous', 'productionOrders');
    assert.deepEqual([...changes].sort(), [ids[1], ids[6], created.properties.id].sort());

    // Updated orders moved to the front; a full walk still meets every order once.
    const now = await walk(t(), `${Q_ORDERS}&limit=3`, 'next', 'productionOrders');
    assert.deepEqual(now.slice(0, 3), [created.properties.id, ids[6], ids[1]]);
    assert.deepEqual([...now].sort(), [...ids, created.properties.id].sort());
    assert.equal(now.length, 9);

    // A PUT that changes nothing moves nothing.
    const unchanged = await t().request({
      method: 'PUT',
      url: `${ORDERS}/${ids[0]}`,
      body: { number: 'Q-0', material: MATERIAL },
    });
    assert.equal(unchanged.statusCode, 200);
    const newest = await fetch(t(), `${Q_ORDERS}&limit=1`);
    assert.deepEqual(idsOf(newest, 'productionOrders'), [created.properties.id]);
  });
});
