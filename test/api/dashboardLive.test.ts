// The dashboard's first hour in a real browser (Debian's chromium through playwright-core;
// docs/dashboard.md): a failed sign-in is reported at once and a right secret then works in the
// same tab; the plant's tiles stay in workplace-number order while live updates change them;
// no two texts of a tile overlap; an open device chart takes a sample posted through the API.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { createOperation, json, startTestApp, TEST_CLIENT, type TestApp } from '../support/app.ts';
import { findChromium, launchChromium } from '../support/browser.ts';
import { waitFor } from '../support/wait.ts';

const SCREENSHOTS = join(import.meta.dirname, '..', '..', '.tmp', 'screenshots');
/** Made in this order on purpose: the page must sort them (WP-2 before WP-10). */
const NUMBERS = ['WP-10', 'WP-2', 'WP-31', 'WP-1', 'WP-7', 'WP-22', 'WP-3', 'WP-15'];

/** What the page's global object offers the checks below (the test compiles without the DOM types). */
interface Rect {
  left: number;
  right: number;
  top: number;
  bottom: number;
}
type PageGlobal = {
  document: {
    querySelectorAll(selector: string): Iterable<{
      getAttribute(name: string): string | null;
      querySelectorAll(selector: string): Iterable<{
        children: { length: number };
        className: string;
        textContent: string | null;
        getBoundingClientRect(): Rect;
      }>;
    }>;
  };
};

const chromiumPath = findChromium();

describe('dashboard: first hour in a real browser', { skip: skipReason() }, () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  const ids = new Map<string, string>();
  const operations = new Map<string, string>();
  let deviceId: string;

  before(async () => {
    t = await startTestApp('pglite', { BRIDGE_DELIVERY_ENABLED: 'false' });
    const group = await t.request({
      method: 'POST',
      url: '/api/v2/workplaceGroups',
      body: { number: 'HALL-1', type: 'CAPACITY_GROUP' },
    });
    assert.equal(group.statusCode, 201, group.body);
    for (const number of NUMBERS) {
      const created = await t.request({
        method: 'POST',
        url: '/api/v2/workplaces',
        body: {
          number,
          description: `Machining centre with a rather long description ${number}`,
          capacityGroupId: json(group).properties.id,
          operatingStateId: '000',
        },
      });
      assert.equal(created.statusCode, 201, created.body);
      ids.set(number, json(created).properties.id);
    }
    // Half the workplaces run an operation with output booked: the tiles show text, a quantity
    // bar and OEE, the layout the overlap check is about.
    for (const number of NUMBERS.slice(0, 4)) {
      const operationId = await createOperation(t, `OP-${number}`, {
        workplaceId: ids.get(number),
        targetQuantity: 400,
        quantityUnit: 'pcs',
        targetTimePerUnit: 60_000,
      });
      operations.set(number, operationId);
      for (const phase of ['SETUP', 'PROCESSING']) {
        const moved = await t.request({ method: 'POST', url: `/api/v2/operations/${operationId}/${phase}` });
        assert.equal(moved.statusCode, 200, moved.body);
      }
      await book(operationId, 37);
    }
    const device = await t.request({
      method: 'POST',
      url: '/api/v2/devices',
      body: {
        name: 'PLC WP-1',
        type: 'PLC',
        workplaceId: ids.get('WP-1'),
        recordedPhysicalQuantities: [
          { tag: 'power', name: 'Power draw', physicalQuantity: 'POWER', unit: 'kW' },
        ],
      },
    });
    assert.equal(device.statusCode, 201, device.body);
    deviceId = json(device).properties.id;
    await postSample(Date.now() - 60_000, 10.5);

    await t.app.server.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.server.address() as AddressInfo).port}`;
    mkdirSync(SCREENSHOTS, { recursive: true });
    browser = await launchChromium(chromiumPath as string);
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  async function book(operationId: string, quantity: number) {
    const booked = await t.request({
      method: 'POST',
      url: `/api/v2/operations/${operationId}/recordedOutputQuantities`,
      body: { quantity, quantityType: 'YIELD' },
    });
    assert.equal(booked.statusCode, 201, booked.body);
  }

  async function postSample(at: number, value: number) {
    const posted = await t.request({
      method: 'POST',
      url: `/api/v2/devices/${deviceId}/recordedTimeSeries`,
      body: { elements: [{ tag: 'power', timestamp: new Date(at).toISOString(), value }] },
    });
    assert.equal(posted.statusCode, 201, posted.body);
  }

  async function signedIn(): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${base}/`);
    await page.getByLabel('Client id').fill(TEST_CLIENT.id);
    await page.getByLabel('Client secret').fill(TEST_CLIENT.secret);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page
      .locator('.tile')
      .nth(NUMBERS.length - 1)
      .waitFor({ timeout: 30_000 });
    return page;
  }

  const tileNumbers = (page: Page) =>
    page.locator('.tile .number').evaluateAll((nodes) => nodes.map((node) => node.textContent ?? ''));

  test('a wrong secret is reported within a second, and the right one then signs in', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(`${base}/`);
      const error = page.locator('#sign-in-error');
      await page.getByLabel('Client id').fill(TEST_CLIENT.id);
      await page.getByLabel('Client secret').fill('not-the-secret');
      // Measured from the token endpoint's answer (the service's own time to check a secret is
      // not the page's): a browser that prompts for Basic credentials never gets here.
      const answered = page.waitForResponse((response) => response.url().endsWith('/oauth/token'));
      await page.getByRole('button', { name: 'Sign in' }).click();
      assert.equal((await answered).status(), 401);
      const at = Date.now();
      await error.filter({ hasText: /Sign-in failed/ }).waitFor({ timeout: 15_000 });
      const shownAfter = Date.now() - at;
      assert.ok(shownAfter < 1000, `the error showed ${shownAfter} ms after the answer`);
      // The token endpoint's answer reached the page (not a prompt of the browser's own).
      assert.match((await error.textContent()) ?? '', /client/i);

      // The service unreachable (a network error): reported as quickly.
      await page.route('**/oauth/token', (route) => route.abort('connectionrefused'));
      await page.getByRole('button', { name: 'Sign in' }).click();
      await error.filter({ hasText: /could not be reached/ }).waitFor({ timeout: 1000 });
      // A 5xx: its message is shown.
      await page.unroute('**/oauth/token');
      await page.route('**/oauth/token', (route) =>
        route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: JSON.stringify({
            status: 503,
            code: 'SERVICE_UNAVAILABLE',
            message: 'The database is starting',
          }),
        }),
      );
      await page.getByRole('button', { name: 'Sign in' }).click();
      await error.filter({ hasText: /database is starting/ }).waitFor({ timeout: 1000 });
      await page.unroute('**/oauth/token');

      // The same tab recovers with the right secret.
      await page.getByLabel('Client secret').fill(TEST_CLIENT.secret);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page
        .locator('.tile')
        .nth(NUMBERS.length - 1)
        .waitFor({ timeout: 30_000 });
      assert.equal(await error.textContent(), '');
    } finally {
      await page.close();
    }
  });

  test('tiles are in workplace-number order and stay in place through live updates', async () => {
    const page = await signedIn();
    try {
      const sorted = [...NUMBERS].sort((a, b) => a.localeCompare(b, undefined, { numeric: true }));
      assert.deepEqual(await tileNumbers(page), sorted);
      // Live updates of every kind the plant page follows: states, phases, quantities.
      const changes: [string, string][] = [
        ['WP-10', '110'],
        ['WP-1', '010'],
        ['WP-31', '020'],
        ['WP-2', '000'],
        ['WP-15', '110'],
        ['WP-1', '000'],
      ];
      for (const [number, state] of changes) {
        const changed = await t.request({
          method: 'POST',
          url: `/api/v2/workplaces/${ids.get(number)}/operatingState/${state}`,
        });
        assert.equal(changed.statusCode, 200, changed.body);
      }
      const interrupted = await t.request({
        method: 'POST',
        url: `/api/v2/operations/${operations.get('WP-2')}/INTERRUPTED`,
      });
      assert.equal(interrupted.statusCode, 200, interrupted.body);
      await book(operations.get('WP-31') as string, 5);
      const tile = (number: string) => page.locator(`.tile[data-workplace-id="${ids.get(number)}"]`);
      await tile('WP-15').and(page.locator('[data-state="110"]')).waitFor({ timeout: 15_000 });
      await tile('WP-1').and(page.locator('[data-state="000"]')).waitFor({ timeout: 15_000 });
      await tile('WP-2').getByText('INTERRUPTED').waitFor({ timeout: 15_000 });
      await tile('WP-31')
        .getByText(/42 \/ 400/)
        .waitFor({ timeout: 15_000 });
      assert.deepEqual(await tileNumbers(page), sorted);
    } finally {
      await page.close();
    }
  });

  test('no two texts of a tile overlap (layout compared, screenshot saved)', async () => {
    const page = await signedIn();
    try {
      // Every running operation's tile has its quantity bar and OEE.
      await waitFor(
        'OEE on the tiles with operations',
        async () =>
          (await page.locator('.tile .oee').count()) >= 4 &&
          (await page.locator('.tile .progress').count()) >= 4,
      );
      for (const width of [1280, 768, 380]) {
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({ path: join(SCREENSHOTS, `dashboard-tiles-${width}.png`), fullPage: true });
        const overlaps = await page.evaluate(() => {
          const found: string[] = [];
          const { document } = globalThis as unknown as PageGlobal;
          for (const tile of document.querySelectorAll('.tile')) {
            // The innermost elements: the texts and the quantity bar's fill (empty boxes left out).
            const boxes = [...tile.querySelectorAll('*')]
              .filter((part) => part.children.length === 0)
              .map((part) => ({
                name: part.className || part.textContent,
                box: part.getBoundingClientRect(),
              }))
              .filter(({ box }) => box.right > box.left && box.bottom > box.top);
            for (const [i, a] of boxes.entries())
              for (const b of boxes.slice(i + 1)) {
                const apart =
                  a.box.right <= b.box.left ||
                  b.box.right <= a.box.left ||
                  a.box.bottom <= b.box.top ||
                  b.box.bottom <= a.box.top;
                if (!apart) found.push(`${tile.getAttribute('data-number')}: ${a.name} / ${b.name}`);
              }
          }
          return found;
        });
        assert.deepEqual(overlaps, [], `at ${width} px`);
      }
    } finally {
      await page.close();
    }
  });

  test('an open device chart takes a sample posted through the API, without a reload', async () => {
    const page = await signedIn();
    try {
      await page.evaluate(() => {
        (globalThis as unknown as { marker: string }).marker = 'same page';
      });
      await page.goto(`${base}/#/workplaces/${ids.get('WP-1')}`);
      const chart = page.locator('.chart[data-tag="power"]');
      await chart.locator('canvas').waitFor({ timeout: 30_000 });
      assert.equal(await chart.getAttribute('data-samples'), '1');
      await postSample(Date.now(), 42.25);
      await page.locator('.chart[data-tag="power"][data-samples="2"]').waitFor({ timeout: 15_000 });
      assert.match((await chart.getAttribute('aria-label')) ?? '', /2 samples, latest 42\.25/);
      assert.equal(
        await page.evaluate(() => (globalThis as unknown as { marker?: string }).marker),
        'same page',
      );
      await page.screenshot({ path: join(SCREENSHOTS, 'dashboard-chart-live.png'), fullPage: true });
    } finally {
      await page.close();
    }
  });
});

function skipReason(): string | false {
  if (chromiumPath) return false;
  if (process.env.CI === 'true') throw new Error('chromium is required in CI');
  return 'chromium not installed (apt-get install -y chromium); the dashboard was not checked';
}
