// The typed TypeScript client (clients/typescript): its generated types match the OpenAPI document
// the code serves now, and it talks to a real running service with client credentials.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { generateSchema, SCHEMA_FILE } from '../../clients/typescript/generate.ts';
import { createBridgeClient, ForeignLinkError } from '../../clients/typescript/src/index.ts';
import { startTestApp, TEST_CLIENT, type TestApp } from '../support/app.ts';

describe('typed client', () => {
  let t: TestApp;
  let baseUrl = '';
  before(async () => {
    t = await startTestApp('pglite', { BRIDGE_DELIVERY_ENABLED: 'false' });
    await t.app.server.listen({ host: '127.0.0.1', port: 0 });
    baseUrl = `http://127.0.0.1:${(t.app.server.server.address() as { port: number }).port}`;
  });
  after(async () => {
    await t?.close();
  });

  test('src/schema.d.ts is current (else: npm run client:generate)', async () => {
    const committed = readFileSync(SCHEMA_FILE, 'utf8');
    assert.ok(committed === (await generateSchema()), 'clients/typescript/src/schema.d.ts is out of date');
  });

  test('gets a token with the client credentials and calls the API, typed', async () => {
    const bridge = createBridgeClient({
      baseUrl,
      clientId: TEST_CLIENT.id,
      clientSecret: TEST_CLIENT.secret,
    });
    const created = await bridge.POST('/api/v2/workplaceGroups', {
      body: { number: 'CLIENT-CG', type: 'CAPACITY_GROUP' },
    });
    assert.equal(created.response.status, 201, JSON.stringify(created.error));
    const { data, error, response } = await bridge.GET('/api/v2/workplaceGroups', {
      params: { query: { limit: 10 } },
    });
    assert.equal(response.status, 200, JSON.stringify(error));
    const numbers = data?._embedded.workplaceGroups.map((group) => group.properties.number);
    assert.deepEqual(numbers, ['CLIENT-CG']);
    // One token serves both calls.
    assert.equal(await bridge.token(), await bridge.token());
  });

  test('wrong credentials fail with the token endpoint error', async () => {
    const bridge = createBridgeClient({
      baseUrl,
      clientId: TEST_CLIENT.id,
      clientSecret: 'wrong-secret-0123456789',
    });
    await assert.rejects(bridge.GET('/api/v2/workplaces'), /token request failed: /);
  });

  test('follow() sends no request to an href on another origin', async () => {
    const reached: string[] = [];
    const other = createServer((request, response) => {
      reached.push(`${request.method} ${request.url} ${request.headers.authorization ?? ''}`);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = other.address() as { port: number };
      const bridge = createBridgeClient({
        baseUrl,
        clientId: TEST_CLIENT.id,
        clientSecret: TEST_CLIENT.secret,
      });
      const link = (await bridge.GET('/api/v2/workplaceGroups', { params: { query: { limit: 1 } } })).data
        ?._embedded.workplaceGroups[0]?._links.self;
      assert.ok(link, 'a link to follow');
      // The service's own href is followed, with the token.
      const self = await bridge.follow<{ properties: { number: string } }>(link);
      assert.equal(self.data?.properties.number, 'CLIENT-CG');
      // The same path on another origin (another port, or https) is refused before anything is sent.
      const path = new URL(link.href).pathname;
      for (const href of [
        `http://127.0.0.1:${port}${path}`,
        `http://localhost:${port}${path}`,
        `//127.0.0.1:${port}${path}`,
        baseUrl.replace('http:', 'https:') + path,
      ]) {
        await assert.rejects(bridge.follow(href), (error: Error) => {
          assert.ok(error instanceof ForeignLinkError, String(error));
          assert.match(
            error.message,
            /follow\(\) refuses .* not on http:\/\/127\.0\.0\.1:\d+, the origin of baseUrl/,
          );
          return true;
        });
        await assert.rejects(bridge.follow({ href }, { method: 'POST', body: {} }), ForeignLinkError);
      }
      assert.deepEqual(reached, []);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });
});

/** A fetch that records what it is asked for: a token at /oauth/token, else `{}`. */
function recordingFetch() {
  const sent: string[] = [];
  const fake = async (input: Request | string | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    if (request.url.endsWith('/oauth/token'))
      return Response.json({ access_token: 'token', expires_in: 3600 });
    sent.push(`${request.method} ${request.url} ${request.headers.get('authorization')}`);
    return Response.json({});
  };
  return { sent, fetch: fake as typeof fetch };
}

test('follow() sends an href under linkRoot to baseUrl, with its path rest and query', async () => {
  const recording = recordingFetch();
  const bridge = createBridgeClient({
    baseUrl: 'http://127.0.0.1:8080/ffw/',
    clientId: 'id',
    clientSecret: 'secret',
    linkRoot: 'https://bridge.plant.example/ffwebservices/',
    fetch: recording.fetch,
  });
  const root = 'https://bridge.plant.example/ffwebservices';
  await bridge.follow(`${root}/api/v2/operations/op-1/changeOperationPhaseToSETUP`, {
    method: 'POST',
    body: {},
  });
  await bridge.follow(
    { href: `${root}/api/v2/workplaces?limit=10&offset=20` },
    { query: { sort: 'number' } },
  );
  await bridge.follow('https://BRIDGE.plant.example:443/ffwebservices/api/v2/tools');
  // Hrefs on the client's own origin go there as before.
  await bridge.follow('http://127.0.0.1:8080/ffw/api/v2/devices');
  await bridge.follow('/ffw/api/v2/shifts');
  assert.deepEqual(recording.sent, [
    'POST http://127.0.0.1:8080/ffw/api/v2/operations/op-1/changeOperationPhaseToSETUP Bearer token',
    'GET http://127.0.0.1:8080/ffw/api/v2/workplaces?limit=10&offset=20&sort=number Bearer token',
    'GET http://127.0.0.1:8080/ffw/api/v2/tools Bearer token',
    'GET http://127.0.0.1:8080/ffw/api/v2/devices Bearer token',
    'GET http://127.0.0.1:8080/ffw/api/v2/shifts Bearer token',
  ]);
  // Only under the prefix: not a longer path segment, not another path or scheme of that host.
  for (const href of [
    'https://bridge.plant.example/ffwebservicesX/api/v2/tools',
    'https://bridge.plant.example/api/v2/tools',
    'https://bridge.plant.example/ffwebservices/../api/v2/tools',
    'http://bridge.plant.example/ffwebservices/api/v2/tools',
    'https://bridge.plant.example.evil.example/ffwebservices/api/v2/tools',
  ]) {
    await assert.rejects(bridge.follow(href), ForeignLinkError, href);
  }
  assert.equal(recording.sent.length, 5);
});

test('a refused token is renewed and the request sent once more with the new one', async () => {
  let tokens = 0;
  const sent: string[] = [];
  const fake = async (input: Request | string | URL, init?: RequestInit) => {
    const request = new Request(input, init);
    if (request.url.endsWith('/oauth/token')) {
      tokens++;
      return Response.json({ access_token: `token-${tokens}`, expires_in: 3600 });
    }
    sent.push(`${request.headers.get('authorization')} ${await request.text()}`);
    return request.headers.get('authorization') === 'Bearer token-1'
      ? Response.json({ status: 401, code: 'UNAUTHORIZED', message: 'expired' }, { status: 401 })
      : Response.json({ properties: { id: 'g1' } }, { status: 201 });
  };
  const bridge = createBridgeClient({
    baseUrl: 'http://bridge.invalid',
    clientId: 'id',
    clientSecret: 'secret',
    fetch: fake as typeof fetch,
  });
  const answer = await bridge.POST('/api/v2/workplaceGroups', {
    body: { number: 'G', type: 'CAPACITY_GROUP' },
  });
  assert.equal(answer.response.status, 201);
  const body = '{"number":"G","type":"CAPACITY_GROUP"}';
  assert.deepEqual(sent, [`Bearer token-1 ${body}`, `Bearer token-2 ${body}`]);
  assert.equal(await bridge.token(), 'token-2');
});
