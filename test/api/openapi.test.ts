// OpenAPI 3.1 and the documentation page (docs/api.md): the document is generated from the
// route schemas, so it is checked against the live route table; the page is loaded in a real
// browser (Debian's chromium through playwright-core) and must show the operations.
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { json, startTestApp, type TestApp } from '../support/app.ts';
import { findChromium, launchChromium } from '../support/browser.ts';
import { removeTempDirs, tempDir } from '../support/process.ts';
import { needs } from '../support/suite.ts';

// Delivery off: it has nothing to do here, and its worker must not outlive the test app.
const ENV = { BRIDGE_DELIVERY_ENABLED: 'false' };
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

/** Fastify's `/workplaces/:id` is OpenAPI's `/workplaces/{id}`. */
const toOpenApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

type Document = {
  openapi: string;
  info: { title: string };
  paths: Record<string, Record<string, { security?: unknown[]; parameters?: Parameter[] }>>;
  // biome-ignore lint/suspicious/noExplicitAny: compared whole with deepEqual below
  components: { securitySchemes: Record<string, any> };
  security: unknown[];
};
type Parameter = { name: string; in: string; required?: boolean; schema?: { default?: unknown } };

const operationsOf = (doc: Document) =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((key) => METHODS.includes(key))
      .map((method) => `${method.toUpperCase()} ${path}`),
  );

describe('OpenAPI document', () => {
  let t: TestApp;
  let doc: Document;
  before(async () => {
    t = await startTestApp('pglite', ENV);
    const response = await t.request({ url: '/api/openapi.json', anonymous: true });
    assert.equal(response.statusCode, 200, response.body);
    doc = json(response) as Document;
  });
  after(async () => {
    await t?.close();
  });

  test('is served without a token as OpenAPI 3.1.0', async () => {
    assert.equal(doc.openapi, '3.1.0');
    assert.equal(doc.info.title, 'Bridge API');
  });

  test('lists every v2 route of the route table with its method, and nothing else under /api', () => {
    const v2Routes = t.app.server.routeTable
      .filter((route) => route.url.startsWith('/api/v2') && route.method !== 'HEAD')
      .map((route) => `${route.method} ${toOpenApiPath(route.url)}`);
    assert.ok(v2Routes.length >= 20, `expected the API routes, found ${v2Routes.length}`);
    const documented = operationsOf(doc);
    const missing = v2Routes.filter((operation) => !documented.includes(operation));
    assert.deepEqual(missing, [], 'routes missing in the OpenAPI document');
    // And no operation is documented that the server does not have.
    const phantom = documented.filter((op) => op.includes(' /api/v2') && !v2Routes.includes(op));
    assert.deepEqual(phantom, []);
  });

  test('does not list v1 (it mirrors v2) nor the documentation routes', () => {
    const paths = Object.keys(doc.paths);
    assert.deepEqual(
      paths.filter((path) => path.startsWith('/api/v1')),
      [],
    );
    assert.deepEqual(
      paths.filter((path) => path.startsWith('/api/docs') || path === '/api/openapi.json'),
      [],
    );
  });

  test('describes OAuth 2.0 client credentials with the token URL, required on the API', () => {
    assert.deepEqual(doc.components.securitySchemes.oauth2, {
      type: 'oauth2',
      flows: {
        clientCredentials: {
          tokenUrl: '/oauth/token',
          scopes: { read: 'HTTP GET', write: 'HTTP POST, PUT, DELETE' },
        },
      },
    });
    assert.deepEqual(doc.security, [{ oauth2: [] }]);
    // The public operations say so; the token endpoint is listed with Basic authentication.
    assert.deepEqual(doc.paths['/health/live']?.get?.security, []);
    assert.deepEqual(doc.paths['/health/ready']?.get?.security, []);
    assert.deepEqual(doc.paths['/oauth/token']?.post?.security, [{ basicAuth: [] }, {}]);
  });

  test('every operation has a summary and an operationId, unique in the document (generators)', () => {
    const ids = new Map<string, string>();
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (!METHODS.includes(method)) continue;
        const { operationId, summary } = operation as { operationId?: string; summary?: string };
        const key = `${method.toUpperCase()} ${path}`;
        assert.ok(summary, `${key} has no summary`);
        assert.match(operationId ?? '', /^[a-z][A-Za-z0-9]*$/, `${key} has no usable operationId`);
        assert.equal(ids.get(operationId as string), undefined, `${key} repeats ${operationId}`);
        ids.set(operationId as string, key);
      }
    }
    // Derived by the resource-route helper from the collection's name and owners.
    assert.equal(ids.get('listWorkplaces'), 'GET /api/v2/workplaces');
    assert.equal(ids.get('getWorkplace'), 'GET /api/v2/workplaces/{id}');
    assert.equal(ids.get('createWorkplace'), 'POST /api/v2/workplaces');
    assert.equal(ids.get('replaceWorkplace'), 'PUT /api/v2/workplaces/{id}');
    assert.equal(ids.get('deleteWorkplace'), 'DELETE /api/v2/workplaces/{id}');
    assert.equal(ids.get('listWorkplaceShifts'), 'GET /api/v2/workplaces/{id}/shifts');
    assert.equal(ids.get('streamEvents'), 'GET /api/v2/events/stream');
    assert.deepEqual((doc as { servers?: unknown }).servers, [{ url: '/', description: 'This service' }]);
  });

  test('health and metrics are tagged monitoring, apart from the production resource "operations"', () => {
    const tagsOf = (path: string) =>
      (doc.paths[path] as Record<string, { tags?: string[] }> | undefined)?.get?.tags;
    for (const path of ['/health/live', '/health/ready'])
      assert.deepEqual(tagsOf(path), ['monitoring'], path);
    assert.deepEqual(tagsOf('/api/v2/operations'), ['operations']);
    // The clients of the admin scope are a group of their own.
    assert.deepEqual(tagsOf('/api/v2/clients'), ['clients']);
  });

  test('the event stream is documented as text/event-stream', () => {
    const stream = doc.paths['/api/v2/events/stream']?.get as {
      responses?: Record<string, { content?: object }>;
    };
    assert.ok(stream?.responses?.['200']?.content && 'text/event-stream' in stream.responses['200'].content);
  });

  test('query parameters come from the route schemas', () => {
    const parameters = doc.paths['/api/v2/workplaces']?.get?.parameters ?? [];
    const query = parameters
      .filter((parameter) => parameter.in === 'query')
      .map((parameter) => parameter.name);
    assert.deepEqual(query.sort(), [
      'embed',
      'erpContextId',
      'limit',
      'offset',
      'workplaceGroupId',
      'workplaceGroupNumber',
      'workplaceNumber',
      'workplaceType',
    ]);
  });

  test('parameters that have a default are not marked required', () => {
    // A client may leave out limit and offset (they default to 100 and 0); a document that calls
    // them required makes generated clients and the "Try it out" form demand them.
    const wronglyRequired = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.values(item).flatMap((operation) =>
        (operation.parameters ?? [])
          .filter((parameter) => parameter.required === true && parameter.schema?.default !== undefined)
          .map((parameter) => `${path} ${parameter.name}`),
      ),
    );
    assert.deepEqual([...new Set(wronglyRequired)], []);
  });
});

describe('OpenAPI document under a base path and a public URL', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp('pglite', {
      ...ENV,
      BRIDGE_BASE_PATH: '/ffwebservices',
      BRIDGE_PUBLIC_URL: 'https://bridge.plant.example/ffwebservices',
    });
  });
  after(async () => {
    await t?.close();
  });

  test('moves with the base path and points at the public token URL', async () => {
    assert.equal((await t.request({ url: '/api/openapi.json', anonymous: true })).statusCode, 404);
    const response = await t.request({ url: '/ffwebservices/api/openapi.json', anonymous: true });
    assert.equal(response.statusCode, 200);
    const doc = json(response) as Document;
    assert.equal(
      doc.components.securitySchemes.oauth2.flows.clientCredentials.tokenUrl,
      'https://bridge.plant.example/ffwebservices/oauth/token',
    );
    assert.ok(doc.paths['/ffwebservices/api/v2/workplaces']?.get, Object.keys(doc.paths).join(' '));
  });
});

describe('documentation page in a real browser', () => {
  let t: TestApp | undefined;
  after(async () => {
    await t?.close();
    removeTempDirs();
  });

  test('/api/docs renders Swagger UI with every operation', async (context) => {
    const executablePath = findChromium();
    if (!executablePath) {
      // Skipped with the reason; CI=true requires it (needs() fails the test then).
      context.skip(
        String(needs('chromium', false, 'apt-get install -y chromium; the docs page was not checked')),
      );
      return;
    }
    t = await startTestApp('pglite', ENV);
    await t.app.server.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.server.address() as AddressInfo).port}`;

    const browser = await launchChromium(executablePath);
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 2400 } });
      const pageErrors: string[] = [];
      const failed: string[] = [];
      page.on('pageerror', (error) => pageErrors.push(error.message));
      page.on('response', (response) => {
        if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
      });
      page.on('requestfailed', (request) => failed.push(`failed ${request.url()}`));

      // No token: the page and the document it loads are public.
      const response = await page.goto(`${base}/api/docs`);
      assert.equal(response?.status(), 200);
      await page.locator('.opblock').first().waitFor({ timeout: 30_000 });

      assert.match((await page.locator('.info .title').first().textContent()) ?? '', /^Bridge API/);
      // Swagger UI renders the operations near the viewport only: scrolled through page by page,
      // every documented operation shows as one block.
      const documented = (await fetch(`${base}/api/docs/json`).then((answer) => answer.json())) as {
        paths: Record<string, object>;
      };
      const expected = new Set<string>();
      for (const [path, operations] of Object.entries(documented.paths)) {
        for (const method of Object.keys(operations)) expected.add(`${method} ${path}`);
      }
      const shown = new Set<string>();
      for (let screen = 0; screen < 2000; screen += 1) {
        const blocks = await page.locator('.opblock').evaluateAll((elements) =>
          elements.map((element) => {
            const method = [...element.classList].find((name) =>
              /^opblock-(get|put|post|delete|patch|head|options)$/.test(name),
            );
            return `${method?.slice('opblock-'.length)} ${element.querySelector('[data-path]')?.getAttribute('data-path')}`;
          }),
        );
        for (const block of blocks) shown.add(block);
        // Half a screen at a time: a section scrolled past between two looks would not render.
        const scrolled = await page.evaluate(
          '(() => { const before = window.scrollY; window.scrollBy(0, window.innerHeight / 2); return window.scrollY !== before; })()',
        );
        if (!scrolled) break;
        // The blocks of the new position are rendered within the next frames.
        await page.evaluate(
          'new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(true))))',
        );
      }
      assert.deepEqual(
        [...expected].filter((operation) => !shown.has(operation)),
        [],
      );
      await page.evaluate('window.scrollTo(0, 0)');
      // The OAuth scheme is offered: the Authorize button is there.
      assert.ok(await page.locator('.btn.authorize').isVisible());

      const screenshot = join(tempDir('docs'), 'api-docs.png');
      await page.screenshot({ path: screenshot, fullPage: false });
      assert.deepEqual([...readFileSync(screenshot).subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10]);
      // To look at it: BRIDGE_TEST_SCREENSHOT=/some/file.png copies it out of the temp dir.
      if (process.env.BRIDGE_TEST_SCREENSHOT) copyFileSync(screenshot, process.env.BRIDGE_TEST_SCREENSHOT);

      assert.deepEqual(pageErrors, []);
      assert.deepEqual(failed, []);
    } finally {
      await browser.close();
    }
  });
});
