// /clients (docs/resources/clients.md): OAuth clients managed through the API by a client with
// the admin scope. Asserted on the stored rows: the secret is shown once and stored only as a
// hash, a refused request changes nothing, and a client without admin cannot see or touch others.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { verifySecret } from '../../src/auth/secrets.ts';
import { findClient, listClients } from '../../src/db/repositories/clientRepository.ts';
import { describeEachBackend, json, type TestApp } from '../support/app.ts';

const ADMIN = ['read', 'write', 'admin'];

async function tokenFor(t: TestApp, id: string, secret: string) {
  return t.app.server.inject({
    method: 'POST',
    url: '/oauth/token',
    headers: {
      authorization: `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    payload: 'grant_type=client_credentials',
  });
}

const storedIds = async (t: TestApp) => (await listClients(t.app.db)).map((client) => client.clientId).sort();

describeEachBackend('clients through the API', (t) => {
  test('create: 201 with the secret once; stored as a hash; the secret gets a token with exactly those scopes', async () => {
    const created = await t().request({
      method: 'POST',
      url: '/api/v2/clients',
      scopes: ADMIN,
      body: { name: 'prometheus', scopes: ['read'] },
    });
    assert.equal(created.statusCode, 201, created.body);
    const { properties, _links } = json(created);
    assert.deepEqual(Object.keys(properties).sort(), ['clientSecret', 'createdAt', 'id', 'name', 'scopes']);
    assert.equal(properties.name, 'prometheus');
    assert.deepEqual(properties.scopes, ['read']);
    assert.match(properties.clientSecret, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(created.headers.location, _links.self.href);
    assert.ok(_links.self.href.endsWith(`/api/v2/clients/${properties.id}`));

    const stored = await findClient(t().app.db, properties.id);
    assert.ok(stored);
    assert.ok(!stored.secretHash.includes(properties.clientSecret));
    assert.ok(await verifySecret(properties.clientSecret, stored.secretHash));
    assert.equal(stored.createdAt.toISOString(), properties.createdAt);

    const token = await tokenFor(t(), properties.id, properties.clientSecret);
    assert.equal(token.statusCode, 200, token.body);
    assert.equal(json(token).scope, 'read');

    // Shown once: neither the item nor the list carries the secret again.
    const again = await t().request({ url: `/api/v2/clients/${properties.id}`, scopes: ADMIN });
    assert.equal(again.statusCode, 200, again.body);
    assert.deepEqual(json(again).properties, {
      id: properties.id,
      name: 'prometheus',
      scopes: ['read'],
      createdAt: properties.createdAt,
    });
    const list = await t().request({ url: '/api/v2/clients?limit=100', scopes: ADMIN });
    assert.equal(list.statusCode, 200, list.body);
    const body = json(list);
    assert.equal(body.pagination.total, (await storedIds(t())).length);
    assert.ok(!list.body.includes(properties.clientSecret));
    assert.ok(!list.body.includes('scrypt$'));
    assert.deepEqual(
      body._embedded.clients.map((client: { properties: { id: string } }) => client.properties.id).sort(),
      await storedIds(t()),
    );
  });

  test('create with a chosen id; the same id again is 400 ALREADY_EXISTS and the first keeps its secret', async () => {
    const first = await t().request({
      method: 'POST',
      url: '/api/v2/clients',
      scopes: ADMIN,
      body: { id: 'line-7-robot', scopes: ['read', 'write'] },
    });
    assert.equal(first.statusCode, 201, first.body);
    const before = await findClient(t().app.db, 'line-7-robot');
    const second = await t().request({
      method: 'POST',
      url: '/api/v2/clients',
      scopes: ADMIN,
      body: { id: 'line-7-robot', scopes: ['read'] },
    });
    assert.equal(second.statusCode, 400, second.body);
    assert.deepEqual(json(second), {
      status: 400,
      code: 'ALREADY_EXISTS',
      message: "Another resource already has id 'line-7-robot'.",
    });
    assert.deepEqual(await findClient(t().app.db, 'line-7-robot'), before);
  });

  for (const [name, body] of [
    ['no scopes', { name: 'x' }],
    ['an empty scope list', { scopes: [] }],
    ['an unknown scope', { scopes: ['read', 'root'] }],
    ['a repeated scope', { scopes: ['read', 'read'] }],
    ['an unknown field', { scopes: ['read'], secret: 'mine' }],
    ['an id with a colon (not usable in Basic)', { id: 'a:b', scopes: ['read'] }],
  ] as const) {
    test(`create with ${name}: 400 and nothing stored`, async () => {
      const before = await storedIds(t());
      const response = await t().request({ method: 'POST', url: '/api/v2/clients', scopes: ADMIN, body });
      assert.equal(response.statusCode, 400, response.body);
      assert.deepEqual(Object.keys(json(response)).sort(), ['code', 'message', 'status']);
      assert.deepEqual(await storedIds(t()), before);
    });
  }

  test('delete: 204, the row is gone and its secret no longer gets a token; again 404', async () => {
    const created = json(
      await t().request({
        method: 'POST',
        url: '/api/v2/clients',
        scopes: ADMIN,
        body: { scopes: ['read'] },
      }),
    ).properties;
    const removed = await t().request({
      method: 'DELETE',
      url: `/api/v2/clients/${created.id}`,
      scopes: ADMIN,
    });
    assert.equal(removed.statusCode, 204, removed.body);
    assert.equal(await findClient(t().app.db, created.id), undefined);
    assert.equal((await tokenFor(t(), created.id, created.clientSecret)).statusCode, 401);
    const again = await t().request({
      method: 'DELETE',
      url: `/api/v2/clients/${created.id}`,
      scopes: ADMIN,
    });
    assert.equal(again.statusCode, 404, again.body);
    assert.equal(json(again).code, 'NOT_FOUND');
  });

  test('a client cannot delete itself (nobody would be left to manage clients)', async () => {
    const admin = json(
      await t().request({ method: 'POST', url: '/api/v2/clients', scopes: ADMIN, body: { scopes: ADMIN } }),
    ).properties;
    const token = json(await tokenFor(t(), admin.id, admin.clientSecret)).access_token;
    const response = await t().request({
      method: 'DELETE',
      url: `/api/v2/clients/${admin.id}`,
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(response.statusCode, 400, response.body);
    assert.equal(json(response).code, 'BAD_REQUEST');
    assert.ok(await findClient(t().app.db, admin.id));
  });

  test('isolation: a client with read and write but not admin gets 403 on every /clients route and changes nothing', async () => {
    const victim = json(
      await t().request({
        method: 'POST',
        url: '/api/v2/clients',
        scopes: ADMIN,
        body: { scopes: ['read'] },
      }),
    ).properties;
    // The helper makes the read-write token's client first, so it is not counted as a change.
    const readWrite = await t().token(['read', 'write']);
    const before = await listClients(t().app.db);
    for (const [method, url, body] of [
      ['GET', '/api/v2/clients', undefined],
      ['GET', `/api/v2/clients/${victim.id}`, undefined],
      ['POST', '/api/v2/clients', { scopes: ['read', 'write', 'admin'] }],
      ['DELETE', `/api/v2/clients/${victim.id}`, undefined],
    ] as const) {
      const response = await t().request({
        method,
        url,
        body,
        headers: { authorization: `Bearer ${readWrite}` },
      });
      assert.equal(response.statusCode, 403, `${method} ${url}: ${response.body}`);
      assert.equal(json(response).code, 'INSUFFICIENT_SCOPE');
    }
    assert.deepEqual(await listClients(t().app.db), before);
  });

  test('a token asked for without admin cannot use /clients even when the client holds admin', async () => {
    const admin = json(
      await t().request({ method: 'POST', url: '/api/v2/clients', scopes: ADMIN, body: { scopes: ADMIN } }),
    ).properties;
    const narrowed = await t().app.server.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: admin.id,
        client_secret: admin.clientSecret,
        scope: 'read',
      }).toString(),
    });
    assert.equal(json(narrowed).scope, 'read');
    const response = await t().request({
      url: '/api/v2/clients',
      headers: { authorization: `Bearer ${json(narrowed).access_token}` },
    });
    assert.equal(response.statusCode, 403, response.body);
  });
});
