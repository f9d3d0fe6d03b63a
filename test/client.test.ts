// The typed TypeScript client (clients/typescript): its generated types match the OpenAPI document
// the code serves now, and it talks to a real running service with client credentials.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { generateSchema, SCHEMA_FILE } from '../clients/typescript/generate.ts';
import { createBridgeClient } from '../clients/typescript/src/index.ts';
import { startTestApp, TEST_CLIENT, type TestApp } from './support/app.ts';

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
