// The dashboard (docs/dashboard.md): the static files served at the root (types, caching,
// headers, the setting that removes them), and the page itself in a real browser (Debian's
// chromium through playwright-core): sign in, see the workplace tiles, watch a tile follow an
// operating-state change made through the API without a reload, open a workplace with a chart.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import {
  createOperation,
  createWorkplace,
  json,
  startTestApp,
  TEST_CLIENT,
  type TestApp,
} from '../support/app.ts';
import { findChromium, launchChromium } from '../support/browser.ts';

/** What the page's global object offers the checks below (the test compiles without the DOM types). */
type Browser = {
  marker?: string;
  getComputedStyle(element: unknown): { backgroundColor: string };
  document: {
    documentElement: { scrollWidth: number; clientWidth: number };
    querySelectorAll(selector: string): Iterable<{ getBoundingClientRect(): { top: number } }>;
  };
};

// The extra workplaces of the browser test get states and descriptions that vary, as in a plant.
const STATES = ['000', '000', '000', '020', '000', '110', '000', '993', '010', '000', '410'];
const KINDS = ['CNC mill', 'Press', 'Assembly cell', 'Paint line', 'Laser cutter', 'Packaging'];

const ENV = { BRIDGE_DELIVERY_ENABLED: 'false' };
const SCREENSHOTS = join(import.meta.dirname, '..', '..', '.tmp', 'screenshots');

describe('dashboard files', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp('pglite', ENV);
  });
  after(async () => {
    await t.close();
  });
  const get = (url: string, headers: Record<string, string> = {}) =>
    t.request({ url, anonymous: true, headers });

  test('GET / is the page: HTML, revalidated by ETag, with a content security policy', async () => {
    const page = await get('/');
    assert.equal(page.statusCode, 200);
    assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(page.headers['cache-control'], 'no-cache');
    assert.equal(page.headers['x-content-type-options'], 'nosniff');
    assert.match(
      String(page.headers['content-security-policy']),
      /default-src 'self'.*frame-ancestors 'none'/,
    );
    assert.match(page.body, /<script type="module" src="dashboard\/app.js">/);
    const etag = String(page.headers.etag);
    assert.match(etag, /^"[\w-]+"$/);
    const again = await get('/', { 'if-none-match': etag });
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, '');
    assert.equal((await get('/', { 'if-none-match': '"other"' })).statusCode, 200);
  });

  test('every file the page loads is served with its type; uPlot comes from node_modules', async () => {
    const expected: Record<string, RegExp> = {
      '/dashboard/app.js': /^text\/javascript/,
      '/dashboard/api.js': /^text\/javascript/,
      '/dashboard/live.js': /^text\/javascript/,
      '/dashboard/views/common.js': /^text\/javascript/,
      '/dashboard/views/plant.js': /^text\/javascript/,
      '/dashboard/views/workplace.js': /^text\/javascript/,
      '/dashboard/views/order.js': /^text\/javascript/,
      '/dashboard/views/events.js': /^text\/javascript/,
      '/dashboard/views/callbacks.js': /^text\/javascript/,
      '/dashboard/views/connectors.js': /^text\/javascript/,
      '/dashboard/dom.js': /^text\/javascript/,
      '/dashboard/sse.js': /^text\/javascript/,
      '/dashboard/style.css': /^text\/css/,
      '/dashboard/favicon.svg': /^image\/svg\+xml/,
      '/dashboard/vendor/uPlot.esm.js': /^text\/javascript/,
      '/dashboard/vendor/uPlot.min.css': /^text\/css/,
    };
    for (const [url, type] of Object.entries(expected)) {
      const response = await get(url);
      assert.equal(response.statusCode, 200, url);
      assert.match(String(response.headers['content-type']), type, url);
      assert.ok(response.headers.etag, url);
      assert.ok(response.body.length > 0, url);
    }
    assert.match(
      (await get('/dashboard/vendor/uPlot.esm.js')).body,
      /export \{ uPlot as default \}|export default/,
    );
  });

  test('nothing outside the fixed list is served; the files take no query and no other method', async () => {
    for (const url of [
      '/dashboard/../package.json',
      '/dashboard/index.ts',
      '/dashboard/vendor/uPlot.cjs.js',
      '/dashboard/',
    ]) {
      const response = await get(url);
      assert.equal(response.statusCode, 404, url);
      assert.equal(json(response).code, 'ROUTE_NOT_FOUND', url);
    }
    const query = await get('/?debug=1');
    assert.equal(query.statusCode, 400);
    assert.equal(json(query).code, 'UNKNOWN_QUERY_PARAMETER');
    const post = await t.request({ method: 'POST', url: '/', anonymous: true });
    assert.equal(post.statusCode, 405);
  });
});

describe('dashboard setting', () => {
  test('BRIDGE_DASHBOARD takes on or off, nothing else', () => {
    assert.equal(loadConfig({}).dashboard, true);
    assert.equal(loadConfig({ BRIDGE_DASHBOARD: 'off' }).dashboard, false);
    assert.throws(
      () => loadConfig({ BRIDGE_DASHBOARD: 'maybe' }),
      (error: unknown) => {
        assert.ok(error instanceof ConfigError);
        assert.match(error.message, /BRIDGE_DASHBOARD="maybe" must be one of on, off/);
        return true;
      },
    );
  });

  test('BRIDGE_DASHBOARD=off: no page, no files; the API is unchanged', async () => {
    const t = await startTestApp('pglite', { ...ENV, BRIDGE_DASHBOARD: 'off' });
    try {
      for (const url of ['/', '/dashboard/app.js', '/dashboard/vendor/uPlot.esm.js']) {
        assert.equal((await t.request({ url, anonymous: true })).statusCode, 404, url);
      }
      assert.equal((await t.request({ url: '/api/v2/workplaces' })).statusCode, 200);
      assert.ok(
        !t.app.server.routeTable.some((route) => route.url === '/' || route.url.startsWith('/dashboard')),
      );
    } finally {
      await t.close();
    }
  });

  test('under a base path the page is at {base}/ and {base} redirects there', async () => {
    const t = await startTestApp('pglite', { ...ENV, BRIDGE_BASE_PATH: '/ffwebservices' });
    try {
      const bare = await t.request({ url: '/ffwebservices', anonymous: true });
      assert.equal(bare.statusCode, 301);
      assert.equal(bare.headers.location, '/ffwebservices/');
      assert.equal((await t.request({ url: '/ffwebservices/', anonymous: true })).statusCode, 200);
      assert.equal(
        (await t.request({ url: '/ffwebservices/dashboard/app.js', anonymous: true })).statusCode,
        200,
      );
      assert.equal((await t.request({ url: '/', anonymous: true })).statusCode, 404);
    } finally {
      await t.close();
    }
  });
});

describe('dashboard in a real browser', () => {
  let t: TestApp | undefined;
  after(async () => {
    await t?.close();
  });

  test('sign in, watch the plant, follow a state change live, open a workplace chart', async (context) => {
    const executablePath = findChromium();
    if (!executablePath) {
      if (process.env.CI === 'true') assert.fail('chromium is required in CI');
      context.skip('chromium not installed (apt-get install -y chromium); the dashboard was not checked');
      return;
    }
    const app = await startTestApp('pglite', ENV);
    t = app;
    // A small plant: four workplaces in different states, an operation in PROCESSING on the
    // first, a device with samples on it.
    const ids: string[] = [];
    for (const [number, state] of [
      ['WP-10', '000'],
      ['WP-20', '110'],
      ['WP-30', '020'],
      ['WP-40', '993'],
    ] as const) {
      const id = await createWorkplace(app, number);
      ids.push(id);
      const changed = await app.request({
        method: 'POST',
        url: `/api/v2/workplaces/${id}/operatingState/${state}`,
      });
      assert.equal(changed.statusCode, 200, changed.body);
    }
    const [first, second] = ids as [string, string];
    // An open ticket at the first workplace before the page opens: its tile shows the badge.
    const raised = await app.request({
      method: 'POST',
      url: '/api/v2/tickets',
      body: { title: 'Guard door sensor', priority: 'HIGH', workplaceId: first },
    });
    assert.equal(raised.statusCode, 201, raised.body);
    // And 196 more, so the overview is checked at the size it is built for (200 workplaces).
    const group = await app.request({
      method: 'POST',
      url: '/api/v2/workplaceGroups',
      body: { number: 'HALL-2', type: 'CAPACITY_GROUP' },
    });
    assert.equal(group.statusCode, 201, group.body);
    for (let batch = 0; batch < 196; batch += 28) {
      const created = await Promise.all(
        Array.from({ length: 28 }, (_, i) =>
          app.request({
            method: 'POST',
            url: '/api/v2/workplaces',
            body: {
              number: `WP-${100 + batch + i}`,
              description: KINDS[(batch + i) % KINDS.length],
              capacityGroupId: json(group).properties.id,
              operatingStateId: STATES[(batch + i) % STATES.length],
            },
          }),
        ),
      );
      for (const response of created) assert.equal(response.statusCode, 201, response.body);
    }
    const operationId = await createOperation(app, 'OP-4711', {
      workplaceId: first,
      targetQuantity: 500,
      quantityUnit: 'pcs',
    });
    for (const phase of ['SETUP', 'PROCESSING']) {
      const moved = await app.request({ method: 'POST', url: `/api/v2/operations/${operationId}/${phase}` });
      assert.equal(moved.statusCode, 200, moved.body);
    }
    const device = await app.request({
      method: 'POST',
      url: '/api/v2/devices',
      body: {
        name: 'Press PLC',
        type: 'PLC',
        workplaceId: first,
        recordedPhysicalQuantities: [
          { tag: 'temp', name: 'Oil temperature', physicalQuantity: 'temperature', unit: '°C' },
        ],
      },
    });
    assert.equal(device.statusCode, 201, device.body);
    const start = Date.now() - 60 * 60_000;
    const elements = Array.from({ length: 60 }, (_, i) => ({
      tag: 'temp',
      timestamp: new Date(start + i * 60_000).toISOString(),
      value: 40 + 8 * Math.sin(i / 6) + i / 10,
    }));
    const samples = await app.request({
      method: 'POST',
      url: `/api/v2/devices/${json(device).properties.id}/recordedTimeSeries`,
      body: { elements },
    });
    assert.equal(samples.statusCode, 201, samples.body);

    await app.app.server.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(app.app.server.server.address() as AddressInfo).port}`;
    mkdirSync(SCREENSHOTS, { recursive: true });

    const browser = await launchChromium(executablePath);
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      const pageErrors: string[] = [];
      const failed: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
      const apiRequests: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/api/v2/')) apiRequests.push(`${request.method()} ${request.url()}`);
      });
      page.on('response', (response) => {
        // The optional routes (stream, OEE, quantities, connectors) may be absent: a 404 there is expected.
        const optional = /\/events\/stream|\/reports\/|quantitySummary|\/connectors/.test(response.url());
        if (response.status() >= 400 && !optional) failed.push(`${response.status()} ${response.url()}`);
      });

      assert.equal((await page.goto(`${base}/`))?.status(), 200);
      // Sign in by keyboard through the labelled fields.
      await page.getByLabel('Client id').fill(TEST_CLIENT.id);
      await page.getByLabel('Client secret').fill(TEST_CLIENT.secret);
      await page.getByLabel('Client secret').press('Enter');

      const tiles = page.locator('.tile');
      await tiles.nth(199).waitFor({ timeout: 30_000 });
      assert.equal(await tiles.count(), 200);
      // 200 tiles from a handful of reads: master data, two workplace pages, one operation
      // search, the event position and the probes of the optional routes; never one per tile.
      // Details of a tile: its OEE (with the workplace's first recorded state) and quantities.
      const isDetail = (request: string) =>
        /\/reports\/|quantitySummary|recordedOperatingStates/.test(request);
      const overviewReads = apiRequests.filter((request) => !isDetail(request)).length;
      assert.ok(overviewReads <= 12, apiRequests.join('\n'));
      context.diagnostic(`200 tiles after ${overviewReads} API requests`);
      // OEE and quantities are read for the tiles on screen only: jump to the end of the page, and
      // the last tile gets its OEE while a tile in the middle, never shown, was never asked for.
      const idOf = async (index: number) =>
        (await tiles.nth(index).getAttribute('data-workplace-id')) as string;
      const [middle, last] = [await idOf(100), await idOf(199)];
      await page.evaluate('window.scrollTo(0, document.body.scrollHeight)');
      await tiles.nth(199).locator('.oee').waitFor({ timeout: 30_000 });
      const details = apiRequests.filter(isDetail);
      assert.ok(
        details.some((request) => request.includes(last)),
        details.join('\n'),
      );
      assert.ok(!details.some((request) => request.includes(middle)), details.join('\n'));
      const detailed = new Set(
        details.flatMap((request) => request.match(/[0-9a-f]{8}-[0-9a-f-]{27}/g) ?? []),
      );
      assert.ok(detailed.size < 100, `details read for ${detailed.size} of 200 tiles`);
      context.diagnostic(`${details.length} detail reads for ${detailed.size} tiles after a jump to the end`);
      await page.evaluate('window.scrollTo(0, 0)');
      const tile = (id: string) => page.locator(`.tile[data-workplace-id="${id}"]`);
      assert.equal(await tile(first).getAttribute('data-state'), '000');
      assert.equal(await tile(second).getAttribute('data-state'), '110');
      assert.match((await tile(first).textContent()) ?? '', /OP-4711 · PROCESSING/);
      // The state colour comes from the master data: Production is #2E7D32.
      assert.equal(
        await tile(first)
          .locator('.state')
          .evaluate(
            (element) => (globalThis as unknown as Browser).getComputedStyle(element).backgroundColor,
          ),
        'rgb(46, 125, 50)',
      );
      // The token is in sessionStorage only.
      const storage = await page.evaluate(() => ({
        session: sessionStorage.length,
        local: localStorage.length,
      }));
      assert.deepEqual(storage, { session: 1, local: 0 });
      await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-overview.png') });

      // A change made through the API reaches the open page without a reload.
      await page.evaluate(() => {
        (globalThis as unknown as Browser).marker = 'same page';
      });
      const changed = await app.request({
        method: 'POST',
        url: `/api/v2/workplaces/${second}/operatingState/000`,
      });
      assert.equal(changed.statusCode, 200, changed.body);
      await page
        .locator(`.tile[data-workplace-id="${second}"][data-state="000"]`)
        .waitFor({ timeout: 30_000 });
      // Open tickets: the badge from the first read, then live as tickets are raised and closed.
      assert.equal(await tile(first).locator('.ticket-badge').getAttribute('data-open-tickets'), '1');
      assert.equal(await tile(second).locator('.ticket-badge').count(), 0);
      const ticket = await app.request({
        method: 'POST',
        url: '/api/v2/tickets',
        body: { title: 'Jammed feeder', priority: 'LOW', workplaceId: second },
      });
      assert.equal(ticket.statusCode, 201, ticket.body);
      await tile(second).locator('.ticket-badge[data-open-tickets="1"]').waitFor({ timeout: 30_000 });
      assert.match((await tile(second).locator('.ticket-badge').textContent()) ?? '', /1 open ticket/);
      const closed = await app.request({
        method: 'POST',
        url: `/api/v2/tickets/${json(ticket).properties.id}/DONE`,
      });
      assert.equal(closed.statusCode, 200, closed.body);
      await tile(second).locator('.ticket-badge').waitFor({ state: 'detached', timeout: 30_000 });
      assert.equal(await page.evaluate(() => (globalThis as unknown as Browser).marker), 'same page');
      await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-live.png') });

      // The workplace page: keyboard focus reaches the tile link, Enter opens it.
      await tile(first).locator('a').focus();
      await page.keyboard.press('Enter');
      await page.waitForURL(`${base}/#/workplaces/${first}`);
      await page.locator('.chart canvas').first().waitFor({ timeout: 30_000 });
      assert.match((await page.locator('#view h1').textContent()) ?? '', /Workplace WP-10/);
      assert.match(
        (await page.locator('.chart h3').first().textContent()) ?? '',
        /Press PLC: Oil temperature \(°C\)/,
      );
      assert.match((await page.locator('#current-title + *').textContent()) ?? '', /OP-4711/);
      assert.match((await page.locator('#tickets-title + *').textContent()) ?? '', /Guard door sensor/);
      assert.ok((await page.locator('.timeline > span').count()) >= 1);
      await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-workplace.png'), fullPage: true });

      // The order page from the operation's link: its operations with phase and target.
      await page.locator('#current-title + * a', { hasText: 'OP-4711' }).click();
      await page.locator('#view h1', { hasText: 'Production order OP-4711-PO' }).waitFor({ timeout: 30_000 });
      assert.match((await page.locator('#view table').textContent()) ?? '', /OP-4711.*PROCESSING.*500/);

      // The callbacks page answers for the signed-in client (it has none).
      await page.getByRole('link', { name: 'Callbacks' }).click();
      await page.getByText('No callbacks registered.').waitFor({ timeout: 30_000 });

      // The events page shows the log, the change among it.
      await page.getByRole('link', { name: 'Events' }).click();
      await page.getByText('WORKPLACE_OPERATING_STATE_CHANGED').first().waitFor({ timeout: 30_000 });

      // Signing out forgets the token.
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('Client id').waitFor();
      assert.equal(await page.evaluate(() => sessionStorage.length), 0);

      // On a tablet, with the page's clock under the test's control: the tiles reflow into
      // columns without sideways scrolling, and the token is renewed before it expires.
      const tablet = await browser.newContext({ viewport: { width: 768, height: 1024 } });
      await tablet.clock.install();
      const second_ = await tablet.newPage();
      second_.on('pageerror', (error) => pageErrors.push(error.message));
      await second_.goto(`${base}/`);
      await second_.getByLabel('Client id').fill(TEST_CLIENT.id);
      await second_.getByLabel('Client secret').fill(TEST_CLIENT.secret);
      await second_.getByRole('button', { name: 'Sign in' }).click();
      await second_.locator('.tile').nth(199).waitFor({ timeout: 30_000 });
      const layout = await second_.evaluate(() => {
        const root = (globalThis as unknown as Browser).document.documentElement;
        const [a, b] = [...(globalThis as unknown as Browser).document.querySelectorAll('.tile')].map(
          (tile) => tile.getBoundingClientRect(),
        );
        return { overflow: root.scrollWidth - root.clientWidth, sameRow: a?.top === b?.top };
      });
      assert.deepEqual(layout, { overflow: 0, sameRow: true });
      await second_.screenshot({ path: join(SCREENSHOTS, 'dashboard-tablet.png') });
      const expiresAt = () =>
        second_.evaluate(
          () => JSON.parse(sessionStorage.getItem('bridge.dashboard.token') ?? '{}').expiresAt as number,
        );
      const before = await expiresAt();
      const renewed = second_.waitForResponse((response) => response.url().endsWith('/oauth/token'), {
        timeout: 30_000,
      });
      // 50 of the token's 60 minutes: the page renews at 80 % (48 minutes).
      await tablet.clock.fastForward('50:00');
      assert.equal((await renewed).status(), 200);
      await second_.waitForFunction(
        (previous) =>
          JSON.parse(sessionStorage.getItem('bridge.dashboard.token') ?? '{}').expiresAt > previous,
        before,
        { timeout: 30_000 },
      );
      assert.ok(await second_.locator('.tile').first().isVisible(), 'still signed in');
      await tablet.close();

      assert.deepEqual(pageErrors, []);
      // The live update changed one tile from the event: no list was read again for it.
      assert.equal(apiRequests.filter((url) => /\/workplaces\?/.test(url)).length, 2, apiRequests.join('\n'));
      assert.deepEqual(failed, []);
    } finally {
      await browser.close();
    }
  });
});
