// Responses stay bounded whatever is stored: EXTERNAL event data has a size limit (413 beyond,
// BRIDGE_EVENT_DATA_MAX_BYTES) and a page of the event log a byte budget (BRIDGE_PAGE_MAX_BYTES):
// it ends early with a link that continues exactly where it stopped.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachBackend, json, type TestApp } from '../support/app.ts';

type Page = ReturnType<typeof json> & { bytes: number };

const DATA_MAX = 20_000;
const PAGE_MAX = 65_536;
const ENV = {
  BRIDGE_DELIVERY_ENABLED: 'false',
  BRIDGE_EVENT_DATA_MAX_BYTES: String(DATA_MAX),
  BRIDGE_PAGE_MAX_BYTES: String(PAGE_MAX),
};

/** Event data of about `bytes` bytes of JSON. */
const dataOf = (bytes: number, label: string) => ({ label, filler: 'x'.repeat(bytes - 40) });

const publish = (t: TestApp, data: unknown) =>
  t.request({
    method: 'POST',
    url: '/api/v2/events',
    body: { eventType: 'EXTERNAL', objectId: 'size', data },
  });

/** Follows `rel` links from `url` and returns every page. */
async function walk(t: TestApp, url: string, rel: 'next' | 'previous') {
  const pages: Page[] = [];
  let href: string | undefined = url;
  while (href !== undefined && pages.length < 100) {
    const response = await t.request({ url: href });
    assert.equal(response.statusCode, 200, response.body);
    pages.push({ ...json(response), bytes: response.rawPayload.length });
    href = json(response)._links[rel]?.href;
  }
  return pages;
}

const labels = (page: Page) =>
  (page._embedded.events as { properties: { data: { label: string } } }[]).map(
    (e) => e.properties.data.label,
  );

describeEachBackend(
  'response size',
  (t) => {
    test('EXTERNAL event data beyond the limit is 413 naming data, and is not stored', async () => {
      const before = await t().app.db.query('SELECT id FROM events');
      const response = await publish(t(), dataOf(DATA_MAX + 100, 'big'));
      assert.equal(response.statusCode, 413, response.body);
      assert.equal(json(response).code, 'PAYLOAD_TOO_LARGE');
      assert.equal(json(response).status, 413);
      assert.match(json(response).message, /'data'.*20000/);
      assert.equal((await t().app.db.query('SELECT id FROM events')).length, before.length);
      assert.equal((await publish(t(), dataOf(DATA_MAX - 100, 'fits'))).statusCode, 201);
    });

    test('a page of the event log ends at the byte budget, and its links continue exactly', async () => {
      // 12 events of ~15 KB: about four fit in a page of 64 KiB.
      const published: string[] = [];
      for (let index = 0; index < 12; index += 1) {
        const response = await publish(t(), dataOf(15_000, `e${index}`));
        assert.equal(response.statusCode, 201, response.body);
        published.push(`e${index}`);
      }
      const newestFirst = [...published].reverse();
      const forward = await walk(t(), '/api/v2/events?objectId=size&limit=100', 'next');
      assert.ok(forward.length >= 3, `${forward.length} pages`);
      for (const page of forward) {
        assert.ok(page.bytes < PAGE_MAX + 16_384, `a page of ${page.bytes} bytes`);
        assert.ok(page.pagination.count >= 1);
      }
      // Every event exactly once, in order, across the pages (the 'fits' event of the first test too).
      assert.deepEqual(forward.flatMap(labels), [...newestFirst, 'fits']);
      // Backwards from the oldest, PREVIOUS links cover the same events.
      const oldest = forward.at(-1)?._links.last.href as string;
      const backward = await walk(t(), oldest, 'previous');
      assert.deepEqual(backward.reverse().flatMap(labels), [...newestFirst, 'fits']);
    });

    test('events stored larger than the budget still come one per page', async () => {
      // Written before the limit existed (or by another tool): bigger than a whole page.
      const big = JSON.stringify({ label: 'legacy', filler: 'y'.repeat(PAGE_MAX * 2) });
      for (const id of ['0190a4c2-0000-7000-8000-0000000000a1', '0190a4c2-0000-7000-8000-0000000000a2']) {
        await t().app.db.query(
          `INSERT INTO events (id, event_type, event_name, object_type, object_id, data, "timestamp", recorded_at)
           VALUES ($1, 'EXTERNAL', NULL, 'NONE', 'legacy', $2, now(), now())`,
          [id, big],
        );
      }
      const pages = await walk(t(), '/api/v2/events?objectId=legacy', 'next');
      assert.deepEqual(
        pages.map((page) => page.pagination.count),
        [1, 1],
      );
    });
  },
  ENV,
);
