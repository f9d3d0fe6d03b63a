// Addresses and versions (docs/api.md, "Addresses and versions"): /api/v1, /api/v2 and /api/v3
// answer identically, the entry point links everything a client needs, and hrefs are absolute URLs
// from the request's Host (forwarded headers only behind a trusted proxy), following
// BRIDGE_BASE_PATH and BRIDGE_PUBLIC_URL.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { describeEachBackend, json, TEST_CLIENT, type TestApp } from '../support/app.ts';
import { absolute, get } from '../support/hal.ts';

// The entry point states the licence of package.json, whatever it is.
const { license } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  license: string;
};

/** Every href anywhere in a body. */
function hrefsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(hrefsIn);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, inner]) =>
      key === 'href' && typeof inner === 'string' ? [inner] : hrefsIn(inner),
    );
  }
  return [];
}

/** Every link object (href + method + templated) anywhere in a body. */
function linksIn(value: unknown): { href: string; method: string; templated?: boolean }[] {
  if (Array.isArray(value)) return value.flatMap(linksIn);
  if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    if (typeof object.href === 'string') return [object as { href: string; method: string }];
    return Object.values(object).flatMap(linksIn);
  }
  return [];
}

/** A form POST to the token endpoint with the bootstrap client, as a new user would do. */
const getToken = (t: TestApp, href: string) =>
  t.request({
    method: 'POST',
    url: href,
    anonymous: true,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: TEST_CLIENT.id,
      client_secret: TEST_CLIENT.secret,
    }).toString(),
  });

/** Groups, a workplace with a line and a history of two records: something in every collection. */
async function fixture(t: TestApp, prefix: string, api = '/api/v2') {
  const group = await t.request({
    method: 'POST',
    url: `${api}/workplaceGroups`,
    body: { number: `${prefix}-CG`, type: 'CAPACITY_GROUP' },
  });
  const line = await t.request({
    method: 'POST',
    url: `${api}/workplaceGroups`,
    body: { number: `${prefix}-PL`, type: 'PRODUCTION_LINE' },
  });
  const workplace = await t.request({
    method: 'POST',
    url: `${api}/workplaces`,
    body: {
      number: `${prefix}-1`,
      capacityGroupId: json(group).properties.id,
      productionLineId: json(line).properties.id,
    },
  });
  assert.deepEqual(
    [group.statusCode, line.statusCode, workplace.statusCode],
    [201, 201, 201],
    workplace.body,
  );
  const id = json(workplace).properties.id as string;
  const command = await t.request({ method: 'POST', url: `${api}/workplaces/${id}/operatingState/110` });
  assert.equal(command.statusCode, 200);
  return { groupId: json(group).properties.id as string, workplaceId: id, workplace };
}

describeEachBackend('versions', (t) => {
  test('the entry point: version, title and links to collections, token, OpenAPI and docs', async () => {
    const response = await t().request({ url: '/api/v2' });
    assert.equal(response.statusCode, 200);
    const body = json(response);
    assert.deepEqual(body.properties, { version: 2, title: 'Bridge API', license });
    const expected = {
      self: get('/api/v2'),
      workplaces: get('/api/v2/workplaces'),
      workplaceGroups: get('/api/v2/workplaceGroups'),
      operatingStates: get('/api/v2/masterData/operatingStates'),
      workplaceStates: get('/api/v2/masterData/workplaceStates'),
      token: { href: absolute('/oauth/token'), method: 'POST', embeddable: false },
      openapi: get('/api/openapi.json'),
      documentation: get('/api/docs'),
    };
    for (const [rel, link] of Object.entries(expected)) assert.deepEqual(body._links[rel], link, rel);
    assert.equal('_embedded' in body, false);
  });

  test('the entry point links every collection the API has (checked over the route table)', async () => {
    // An admin client: /clients is linked only for the clients that may use it.
    const entry = await t().request({ url: '/api/v2', scopes: ['read', 'write', 'admin'] });
    const linked = new Set(hrefsIn(json(entry)._links));
    // Top-level collections and master data lists: GET routes without path parameters.
    const collections = t()
      .app.server.routeTable.filter((route) => route.method === 'GET' && route.url.startsWith('/api/v2/'))
      .map((route) => route.url)
      .filter(
        (url) => !url.includes(':') && (url.split('/').length === 4 || url.startsWith('/api/v2/masterData/')),
      );
    assert.ok(
      collections.includes('/api/v2/workplaces') &&
        collections.includes('/api/v2/masterData/workplaceStates'),
    );
    // Master data lists are linked from the master data entry, which the entry point links.
    const masterData = json(await t().request({ url: '/api/v2/masterData' }));
    const linkedFromMasterData = new Set(hrefsIn(masterData._links));
    assert.ok(linked.has(absolute('/api/v2/masterData')), 'entry point does not link /api/v2/masterData');
    for (const url of collections) {
      const from = url.startsWith('/api/v2/masterData/') ? linkedFromMasterData : linked;
      assert.ok(from.has(absolute(url)), `not linked: ${url}`);
    }
  });

  test('every link of the entry point works: GET links answer 200, the token link gives a token', async () => {
    const body = json(await t().request({ url: '/api/v2' }));
    for (const [rel, link] of Object.entries<{ href: string; method: string }>(body._links)) {
      if (link.method !== 'GET') continue;
      const response = await t().request({ url: link.href });
      assert.equal(response.statusCode, 200, `${rel}: ${link.href}`);
    }
    const openapi = json(await t().request({ url: body._links.openapi.href, anonymous: true }));
    assert.equal(openapi.openapi, '3.1.0');
    const docs = await t().request({ url: body._links.documentation.href, anonymous: true });
    assert.match(String(docs.headers['content-type']), /^text\/html/);

    const token = await getToken(t(), body._links.token.href);
    assert.equal(token.statusCode, 200, token.body);
    assert.equal(json(token).token_type, 'bearer');
    // The token works on the API.
    const withToken = await t().request({
      url: body._links.workplaces.href,
      headers: { authorization: `Bearer ${json(token).access_token}` },
    });
    assert.equal(withToken.statusCode, 200);
  });

  test('entry point with and without trailing slash, in both versions', async () => {
    const v2 = await t().request({ url: '/api/v2' });
    const v1 = await t().request({ url: '/api/v1' });
    for (const url of ['/api/v2/', '/api/v1/']) {
      const response = await t().request({ url });
      assert.equal(response.statusCode, 200, url);
      assert.equal(response.body, url.startsWith('/api/v2') ? v2.body : v1.body, url);
    }
    assert.equal(v1.body.replaceAll('/api/v1', '/api/v2').replace('"version":1', '"version":2'), v2.body);
    // hrefs stay in the version asked.
    assert.equal(v1.body.includes('/api/v2'), false);
    assert.equal(json(v1)._links.workplaces.href, absolute('/api/v1/workplaces'));
  });

  test('/api/v3 answers as /api/v2 with hrefs in v3, and its entry point names version 3', async () => {
    const { workplaceId } = await fixture(t(), 'V3');
    for (const path of ['', '/workplaces', `/workplaces/${workplaceId}`, '/masterData/operatingStates']) {
      const v2 = await t().request({ url: `/api/v2${path}` });
      const v3 = await t().request({ url: `/api/v3${path}` });
      assert.equal(v3.statusCode, 200, path);
      assert.equal(
        v3.body.replaceAll('/api/v3', '/api/v2').replace('"version":3', '"version":2'),
        v2.body,
        path,
      );
      assert.equal(v3.body.includes('/api/v2'), false, path);
    }
    for (const version of [1, 2, 3]) {
      const entry = json(await t().request({ url: `/api/v${version}` }));
      assert.equal(entry.properties.version, version);
      assert.deepEqual(entry._links.self, get(`/api/v${version}`));
    }
  });

  test('/api/v1 answers exactly as /api/v2: collections, resources, history, errors', async () => {
    const { groupId, workplaceId } = await fixture(t(), 'VER');
    const paths = [
      '',
      '/workplaces',
      '/workplaces?limit=1&embed=capacityGroup,productionLine',
      '/workplaces?workplaceGroupNumber=VER-PL',
      `/workplaces/${workplaceId}`,
      `/workplaces/${workplaceId}?embed=productionLine`,
      `/workplaces/${workplaceId}/recordedOperatingStates?limit=1`,
      '/workplaceGroups?type=CAPACITY_GROUP',
      `/workplaceGroups/${groupId}`,
      '/masterData/operatingStates',
      '/masterData/workplaceStates/PRODUCTION',
      '/workplaces/0190a000-0000-7000-8000-000000000000',
      '/workplaces?limit=0',
    ];
    for (const path of paths) {
      const v2 = await t().request({ url: `/api/v2${path}` });
      const v1 = await t().request({ url: `/api/v1${path}` });
      assert.equal(v1.statusCode, v2.statusCode, path);
      // The entry point names the version asked; everything else is the same but for the hrefs.
      assert.equal(
        v1.body.replaceAll('/api/v1', '/api/v2').replace('"version":1', '"version":2'),
        v2.body,
        path,
      );
      assert.equal(v1.body.includes('/api/v2'), false, path);
    }
    // Read-only callers too (no action links in either version).
    const readV1 = await t().request({ url: `/api/v1/workplaces/${workplaceId}`, scopes: ['read'] });
    const readV2 = await t().request({ url: `/api/v2/workplaces/${workplaceId}`, scopes: ['read'] });
    assert.equal(readV1.body.replaceAll('/api/v1', '/api/v2'), readV2.body);
  });

  test('writes through /api/v1 work the same; Location stays in v1', async () => {
    const { workplace, workplaceId } = await fixture(t(), 'V1W', '/api/v1');
    assert.equal(workplace.headers.location, absolute(`/api/v1/workplaces/${workplaceId}`));
    assert.equal(json(workplace)._links.self.href, workplace.headers.location);
    const v2 = json(await t().request({ url: `/api/v2/workplaces/${workplaceId}` }));
    assert.equal(v2.properties.operatingState.code, '110');
  });

  test('other versions are 404', async () => {
    for (const path of ['/api/v4', '/api/v0/workplaces', '/api/v4/workplaces', '/api/v2.1', '/api']) {
      const response = await t().request({ url: path });
      assert.deepEqual(
        [response.statusCode, json(response)],
        [404, { status: 404, code: 'ROUTE_NOT_FOUND', message: `There is no resource at GET ${path}.` }],
      );
    }
  });
});

/** Follows every GET link in `body` that is not a template and expects 200 (the route exists). */
async function followAll(t: TestApp, body: unknown, toUrl: (href: string) => string = (href) => href) {
  for (const link of linksIn(body)) {
    if (link.method !== 'GET' || link.templated) continue;
    const response = await t.request({ url: toUrl(link.href) });
    assert.equal(response.statusCode, 200, `${link.href}: ${response.body.slice(0, 200)}`);
  }
}

describeEachBackend(
  'versions with BRIDGE_BASE_PATH=/ffwebservices',
  (t) => {
    test('every route lives under the prefix, nothing at the root', async () => {
      const entry = await t().request({ url: '/ffwebservices/api/v2' });
      assert.equal(entry.statusCode, 200);
      assert.equal((await t().request({ url: '/ffwebservices/api/v1/' })).statusCode, 200);
      for (const url of ['/api/v2', '/api/v2/workplaces', '/health/live', '/api/openapi.json']) {
        assert.equal((await t().request({ url })).statusCode, 404, url);
      }
      const live = await t().request({ url: '/ffwebservices/health/live', anonymous: true });
      assert.equal(live.statusCode, 200);
      const token = await getToken(t(), '/ffwebservices/oauth/token');
      assert.equal(token.statusCode, 200, token.body);
    });

    test('every href carries the prefix, Location too, and every GET link resolves', async () => {
      const entry = json(await t().request({ url: '/ffwebservices/api/v2' }));
      assert.deepEqual(entry._links.self, get('/ffwebservices/api/v2'));
      assert.deepEqual(entry._links.token, {
        href: absolute('/ffwebservices/oauth/token'),
        method: 'POST',
        embeddable: false,
      });
      assert.deepEqual(entry._links.openapi, get('/ffwebservices/api/openapi.json'));
      assert.deepEqual(entry._links.documentation, get('/ffwebservices/api/docs'));

      const { workplace, workplaceId } = await fixture(t(), 'BP', '/ffwebservices/api/v2');
      assert.equal(workplace.headers.location, absolute(`/ffwebservices/api/v2/workplaces/${workplaceId}`));

      const bodies = [entry];
      for (const url of [
        '/ffwebservices/api/v2/workplaces?embed=capacityGroup,productionLine',
        '/ffwebservices/api/v2/workplaceGroups',
        `/ffwebservices/api/v2/workplaces/${workplaceId}/recordedOperatingStates`,
        '/ffwebservices/api/v2/masterData/operatingStates',
      ]) {
        const response = await t().request({ url });
        assert.equal(response.statusCode, 200, url);
        bodies.push(json(response));
      }
      const hrefs = bodies.flatMap(hrefsIn);
      assert.ok(hrefs.length > 40);
      for (const href of hrefs) assert.ok(href.startsWith(absolute('/ffwebservices/')), href);
      for (const body of bodies) await followAll(t(), body);
    });
  },
  { BRIDGE_BASE_PATH: '/ffwebservices' },
);

describeEachBackend(
  'versions with BRIDGE_PUBLIC_URL=https://bridge.example.com',
  (t) => {
    const ORIGIN = 'https://bridge.example.com';
    const pathOf = (href: string) => {
      const url = new URL(href);
      assert.equal(url.origin, ORIGIN, href);
      return `${url.pathname}${url.search}`;
    };

    test('hrefs are absolute URLs, Location too, and each leads to its resource', async () => {
      const entry = json(await t().request({ url: '/api/v2' }));
      assert.deepEqual(entry._links.self, get(`${ORIGIN}/api/v2`));
      assert.deepEqual(entry._links.token, {
        href: `${ORIGIN}/oauth/token`,
        method: 'POST',
        embeddable: false,
      });
      assert.deepEqual(entry._links.workplaces, get(`${ORIGIN}/api/v2/workplaces`));

      const { workplace, workplaceId } = await fixture(t(), 'PU');
      assert.equal(workplace.headers.location, `${ORIGIN}/api/v2/workplaces/${workplaceId}`);
      assert.equal(json(workplace)._links.self.href, workplace.headers.location);
      assert.equal(
        json(workplace)._links.changeOperatingState.href,
        `${ORIGIN}/api/v2/workplaces/${workplaceId}/operatingState/{operatingStateId}`,
      );

      const bodies = [entry];
      for (const url of [
        '/api/v2/workplaces?embed=capacityGroup,productionLine&limit=1',
        '/api/v2/workplaceGroups',
        `/api/v2/workplaces/${workplaceId}/recordedOperatingStates`,
        '/api/v1/workplaces',
      ]) {
        const response = await t().request({ url });
        assert.equal(response.statusCode, 200, url);
        bodies.push(json(response));
      }
      const hrefs = bodies.flatMap(hrefsIn);
      assert.ok(hrefs.length > 30);
      for (const href of hrefs) assert.ok(href.startsWith(`${ORIGIN}/`), href);
      // v1 stays v1 with absolute URLs as well.
      assert.ok(hrefsIn(bodies.at(-1)).every((href) => href.startsWith(`${ORIGIN}/api/v1/`)));
      for (const body of bodies) await followAll(t(), body, pathOf);
    });
  },
  { BRIDGE_PUBLIC_URL: 'https://bridge.example.com' },
);

describeEachBackend('hrefs from the request address', (t) => {
  const selfOf = async (headers: Record<string, string>) =>
    json(await t().request({ url: '/api/v2/workplaces', headers }))._links.self.href as string;

  test('hrefs follow the Host header the client used', async () => {
    assert.equal(
      await selfOf({ host: 'plant-gw.local:8443' }),
      'http://plant-gw.local:8443/api/v2/workplaces?limit=100&offset=0',
    );
    assert.equal(
      await selfOf({ host: '[::1]:8080' }),
      'http://[::1]:8080/api/v2/workplaces?limit=100&offset=0',
    );
  });

  test('without a trusted proxy, forwarded headers are ignored', async () => {
    const href = await selfOf({
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'evil.example',
      'x-forwarded-prefix': '/evil',
      forwarded: 'proto=https;host=evil.example',
    });
    assert.equal(href, absolute('/api/v2/workplaces?limit=100&offset=0'));
  });

  test('a Host that is no host name cannot put another URL into hrefs: paths from the root instead', async () => {
    for (const host of ['evil.example/x?', 'a@b', 'a b', '"x"']) {
      assert.equal(await selfOf({ host }), '/api/v2/workplaces?limit=100&offset=0', host);
    }
  });
});

describeEachBackend(
  'hrefs behind a trusted proxy (BRIDGE_TRUST_PROXY=true)',
  (t) => {
    const selfOf = async (headers: Record<string, string>) =>
      json(await t().request({ url: '/ffwebservices/api/v3/workplaces', headers }))._links.self
        .href as string;
    const PATH = '/ffwebservices/api/v3/workplaces?limit=100&offset=0';

    test('X-Forwarded-Proto, -Host and -Prefix name the address the client used', async () => {
      const href = await selfOf({
        'x-forwarded-proto': 'https',
        'x-forwarded-host': 'bridge.plant.example',
        'x-forwarded-prefix': '/gateway/',
      });
      assert.equal(href, `https://bridge.plant.example/gateway${PATH}`);
    });

    test('Forwarded (RFC 7239) wins over X-Forwarded-*; its first element is the client-facing one', async () => {
      const href = await selfOf({
        forwarded: 'for=10.0.0.1;proto=https;host="edge.example:8443", for=10.0.0.2;proto=http;host=inner',
        'x-forwarded-host': 'ignored.example',
      });
      assert.equal(href, `https://edge.example:8443${PATH}`);
    });

    test('a forwarded scheme other than http(s) or an odd prefix is ignored', async () => {
      const href = await selfOf({
        'x-forwarded-proto': 'javascript',
        'x-forwarded-prefix': '//evil.example',
      });
      assert.equal(href, absolute(PATH));
    });

    test('Location follows the forwarded address too', async () => {
      const created = await t().request({
        method: 'POST',
        url: '/ffwebservices/api/v3/workplaceGroups',
        body: { number: 'PROXY-G1', type: 'CAPACITY_GROUP' },
        headers: { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'bridge.plant.example' },
      });
      assert.equal(created.statusCode, 201, created.body);
      assert.equal(
        created.headers.location,
        `https://bridge.plant.example/ffwebservices/api/v3/workplaceGroups/${json(created).properties.id}`,
      );
    });
  },
  { BRIDGE_BASE_PATH: '/ffwebservices', BRIDGE_TRUST_PROXY: 'true' },
);
