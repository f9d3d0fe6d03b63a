// Callbacks API (docs/api.md "Callbacks (event delivery)"): registration with every validation refusal naming its
// field, defaults and both spellings of the redelivery field, Basic Auth passwords masked in every
// representation, callbacks private to the client that registered them, DELETE, scopes.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { addClient } from '../../src/auth/clients.ts';
import { describeEachBackend, json, type TestApp } from '../support/app.ts';
import { absolute } from '../support/hal.ts';

const CALLBACKS = '/api/v2/callbacks';
const EVENT_TYPE = 'WORKPLACE_OPERATING_STATE_CHANGED';
const HOOK = 'http://127.0.0.1:9/hook';

type Body = ReturnType<typeof json>;

const register = (t: TestApp, body: Record<string, unknown>, headers?: Record<string, string>) =>
  t.request({ method: 'POST', url: CALLBACKS, body, ...(headers ? { headers } : {}) });

async function registered(t: TestApp, body: Record<string, unknown>): Promise<Body> {
  const response = await register(t, body);
  assert.equal(response.statusCode, 201, response.body);
  return json(response).properties;
}

/** A 400 with the error body whose message names `field`. */
function assertRefused(response: LightMyRequestResponse, field: string, why: string): void {
  assert.equal(response.statusCode, 400, `${why}: ${response.body}`);
  const body = json(response);
  assert.deepEqual(Object.keys(body).sort(), ['code', 'message', 'status'], why);
  assert.equal(body.status, 400, why);
  assert.equal(body.code, 'VALIDATION_FAILED', `${why}: ${response.body}`);
  assert.ok(
    body.message.startsWith(`Field '${field}' `),
    `${why}: expected field ${field} in ${body.message}`,
  );
}

/** Bearer headers of a second, independent client holding read and write. */
async function otherClient(t: TestApp): Promise<Record<string, string>> {
  const client = await addClient(t.app.db, { name: `other ${randomUUID()}`, scopes: ['read', 'write'] });
  return { authorization: `Bearer ${await t.app.tokens.issue(client.clientId, ['read', 'write'])}` };
}

describeEachBackend(
  'callbacks API',
  (t) => {
    test('POST: 201 with Location, defaults 100/5000, both spellings, health properties, links', async () => {
      const response = await register(t(), { eventType: EVENT_TYPE, url: HOOK });
      assert.equal(response.statusCode, 201, response.body);
      const body = json(response);
      const { id, creationDate } = body.properties;
      assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      assert.match(creationDate, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      assert.ok(Math.abs(Date.parse(creationDate) - Date.now()) < 60_000);
      assert.equal(response.headers.location, absolute(`${CALLBACKS}/${id}`));
      assert.deepEqual(body.properties, {
        id,
        eventType: EVENT_TYPE,
        url: 'http://127.0.0.1:9/hook',
        eventName: null,
        objectFilter: [],
        maxRedeliverAttempts: 100,
        maxRedeliveryAttempts: 100,
        maxUnconfirmedMessages: 5000,
        signed: false,
        creationDate,
        lastTriggeredDate: null,
        lastSuccessfulDate: null,
        failedAttempts: 0,
        discardedNotifications: 0,
      });
      assert.deepEqual(body._links.self, {
        href: absolute(`${CALLBACKS}/${id}`),
        method: 'GET',
        embeddable: false,
      });
      assert.equal(body._links.deliveries.href, absolute(`${CALLBACKS}/${id}/deliveries`));

      const one = await t().request({ url: `${CALLBACKS}/${id}` });
      assert.equal(one.statusCode, 200);
      assert.deepEqual(json(one), body);
    });

    test('POST: the request fields come back; either redelivery spelling sets both; an uppercase filter id is accepted', async () => {
      const objectId = randomUUID();
      const full = await registered(t(), {
        eventType: 'OPERATION_PHASE_CHANGED',
        url: 'mqtt://localhost:1883/external/plant-1/phases',
        eventName: 'phases of line 1',
        objectFilter: [{ name: 'id', value: objectId.toUpperCase() }],
        maxRedeliveryAttempts: 7,
        maxUnconfirmedMessages: 42,
      });
      assert.equal(full.url, 'mqtt://localhost:1883/external/plant-1/phases');
      assert.equal(full.eventName, 'phases of line 1');
      assert.deepEqual(full.objectFilter, [{ name: 'id', value: objectId }]);
      assert.deepEqual(
        [full.maxRedeliverAttempts, full.maxRedeliveryAttempts, full.maxUnconfirmedMessages],
        [7, 7, 42],
      );

      const other = await registered(t(), { eventType: EVENT_TYPE, url: HOOK, maxRedeliverAttempts: 0 });
      assert.deepEqual([other.maxRedeliverAttempts, other.maxRedeliveryAttempts], [0, 0]);
      const same = await registered(t(), {
        eventType: EVENT_TYPE,
        url: HOOK,
        maxRedeliverAttempts: 10_000,
        maxRedeliveryAttempts: 10_000,
        maxUnconfirmedMessages: 100_000,
      });
      assert.deepEqual(
        [same.maxRedeliverAttempts, same.maxRedeliveryAttempts, same.maxUnconfirmedMessages],
        [10_000, 10_000, 100_000],
      );
      const bounds = await registered(t(), { eventType: EVENT_TYPE, url: HOOK, maxUnconfirmedMessages: 1 });
      assert.equal(bounds.maxUnconfirmedMessages, 1);
    });

    test('POST: EXTERNAL, every event type of docs/events.md, https and an mqtt URL without port are accepted', async () => {
      for (const eventType of [
        'EXTERNAL',
        'RESOURCES_UPDATED',
        'OBSOLETE_OPERATION_PLANNING_SCENARIOS',
        'OPERATION_PHASE_CHANGED',
        'TOOL_ASSEMBLY_ORDER_STATE_CHANGED',
        'DOCUMENT_DELETED',
        'STAFF_MEMBER_PLANNING_SCENARIO_CREATED',
      ]) {
        const callback = await registered(t(), { eventType, url: HOOK });
        assert.equal(callback.eventType, eventType);
      }
      for (const url of [
        'https://receiver.example.com:8443/hooks/bridge?token=abc',
        'mqtt://broker.example.com/external',
        'mqtt://broker.example.com:1883/external/a/b/c',
      ]) {
        const callback = await registered(t(), { eventType: 'EXTERNAL', url });
        assert.equal(callback.url, url);
      }
    });

    test('POST: every refusal of docs/api.md "Callbacks (event delivery)" is a 400 naming the field', async () => {
      const valid = { eventType: EVENT_TYPE, url: HOOK };
      const cases: [string, Record<string, unknown>, string][] = [
        ['unknown event type', { ...valid, eventType: 'WORKPLACE_EXPLODED' }, 'eventType'],
        ['lower-case event type', { ...valid, eventType: 'workplace_created' }, 'eventType'],
        ['reserved SHOP_FLOOR_TERMINAL', { ...valid, eventType: 'SHOP_FLOOR_TERMINAL' }, 'eventType'],
        ['reserved INTERNAL', { ...valid, eventType: 'INTERNAL' }, 'eventType'],
        ['no event type', { url: HOOK }, 'eventType'],
        ['no url', { eventType: EVENT_TYPE }, 'url'],
        [
          'objectFilter by number',
          { ...valid, objectFilter: [{ name: 'number', value: randomUUID() }] },
          'objectFilter.0.name',
        ],
        [
          'second objectFilter by workplaceId',
          {
            ...valid,
            objectFilter: [
              { name: 'id', value: randomUUID() },
              { name: 'workplaceId', value: randomUUID() },
            ],
          },
          'objectFilter.1.name',
        ],
        [
          'objectFilter value not a UUID',
          { ...valid, objectFilter: [{ name: 'id', value: 'WP-4711' }] },
          'objectFilter.0.value',
        ],
        [
          'objectFilter value UUID with junk',
          { ...valid, objectFilter: [{ name: 'id', value: `${randomUUID()}x` }] },
          'objectFilter.0.value',
        ],
        ['url ftp', { ...valid, url: 'ftp://files.example.com/hook' }, 'url'],
        ['url file', { ...valid, url: 'file:///etc/passwd' }, 'url'],
        ['url garbage', { ...valid, url: 'not a url at all' }, 'url'],
        ['url without scheme', { ...valid, url: 'receiver.example.com/hook' }, 'url'],
        ['url javascript', { ...valid, url: 'javascript:alert(1)' }, 'url'],
        ['url metadata address', { ...valid, url: 'http://169.254.169.254/latest/meta-data/' }, 'url'],
        ['url metadata as an integer', { ...valid, url: 'http://2852039166/latest/meta-data/' }, 'url'],
        ['url metadata via NAT64', { ...valid, url: 'http://[64:ff9b::a9fe:a9fe]/' }, 'url'],
        ['url metadata IPv4-mapped (hex)', { ...valid, url: 'http://[::ffff:a9fe:a9fe]/' }, 'url'],
        ['url unspecified 0.0.0.0', { ...valid, url: 'http://0.0.0.0:8080/hook' }, 'url'],
        ['url unspecified [::]', { ...valid, url: 'http://[::]:8080/hook' }, 'url'],
        ['mqtt unspecified', { ...valid, url: 'mqtt://0.0.0.0:1883/external/x' }, 'url'],
        ['mqtt port 1884', { ...valid, url: 'mqtt://broker:1884/external/x' }, 'url'],
        ['mqtt port 8883', { ...valid, url: 'mqtt://broker:8883/external/x' }, 'url'],
        ['mqtt topic not external', { ...valid, url: 'mqtt://broker:1883/internal/x' }, 'url'],
        ['mqtt topic externalfoo', { ...valid, url: 'mqtt://broker:1883/externals/x' }, 'url'],
        ['mqtt without topic', { ...valid, url: 'mqtt://broker:1883/' }, 'url'],
        ['mqtt wildcard +', { ...valid, url: 'mqtt://broker:1883/external/+/state' }, 'url'],
        ['mqtt wildcard # (encoded)', { ...valid, url: 'mqtt://broker:1883/external/a/%23' }, 'url'],
        ['mqtt wildcard #', { ...valid, url: 'mqtt://broker:1883/external/#' }, 'url'],
        ['mqtt query dropped from the topic', { ...valid, url: 'mqtt://broker:1883/external/a?b=1' }, 'url'],
        ['userinfo with a bad escape', { ...valid, url: 'http://user:p%E0ss@127.0.0.1:9/hook' }, 'url'],
        ['mqtt topic with a bad escape', { ...valid, url: 'mqtt://broker:1883/external/%E0%A4%A' }, 'url'],
        ['maxRedeliverAttempts -1', { ...valid, maxRedeliverAttempts: -1 }, 'maxRedeliverAttempts'],
        ['maxRedeliverAttempts 10001', { ...valid, maxRedeliverAttempts: 10_001 }, 'maxRedeliverAttempts'],
        ['maxRedeliverAttempts 1.5', { ...valid, maxRedeliverAttempts: 1.5 }, 'maxRedeliverAttempts'],
        ['maxRedeliverAttempts text', { ...valid, maxRedeliverAttempts: '5' }, 'maxRedeliverAttempts'],
        ['maxRedeliveryAttempts -1', { ...valid, maxRedeliveryAttempts: -1 }, 'maxRedeliveryAttempts'],
        ['maxRedeliveryAttempts 10001', { ...valid, maxRedeliveryAttempts: 10_001 }, 'maxRedeliveryAttempts'],
        [
          'the two spellings disagree',
          { ...valid, maxRedeliverAttempts: 3, maxRedeliveryAttempts: 4 },
          'maxRedeliveryAttempts',
        ],
        ['maxUnconfirmedMessages 0', { ...valid, maxUnconfirmedMessages: 0 }, 'maxUnconfirmedMessages'],
        [
          'maxUnconfirmedMessages 100001',
          { ...valid, maxUnconfirmedMessages: 100_001 },
          'maxUnconfirmedMessages',
        ],
        ['secret without prefix', { ...valid, secret: randomBytes(32).toString('base64') }, 'secret'],
        ['secret too short', { ...valid, secret: `whsec_${randomBytes(8).toString('base64')}` }, 'secret'],
        ['secret not base64', { ...valid, secret: `whsec_${'!'.repeat(44)}` }, 'secret'],
        ['secret a number', { ...valid, secret: 12345 }, 'secret'],
      ];
      for (const [why, body, field] of cases) assertRefused(await register(t(), body), field, why);

      const unknown = await register(t(), { ...valid, filter: [] });
      assert.equal(unknown.statusCode, 400, unknown.body);
      assert.equal(json(unknown).code, 'UNKNOWN_FIELD');
      assert.match(json(unknown).message, /'filter'/);

      // Nothing of the refused requests was stored.
      const list = await t().request({ url: `${CALLBACKS}?limit=100` });
      for (const entry of json(list)._embedded.callbacks) {
        assert.ok(!['INTERNAL', 'SHOP_FLOOR_TERMINAL'].includes(entry.properties.eventType));
        assert.doesNotMatch(entry.properties.url, /^(ftp|file):|1884|internal\//);
      }
    });

    test('a secret is accepted, shown only as signed: true, and never echoed', async () => {
      const secret = `whsec_${randomBytes(32).toString('base64')}`;
      const response = await register(t(), { eventType: EVENT_TYPE, url: HOOK, secret });
      assert.equal(response.statusCode, 201, response.body);
      const { id, signed } = json(response).properties;
      assert.equal(signed, true);
      const key = secret.slice('whsec_'.length);
      for (const url of [`${CALLBACKS}/${id}`, `${CALLBACKS}?limit=100`, `${CALLBACKS}/${id}/deliveries`]) {
        const shown = await t().request({ url });
        assert.equal(shown.statusCode, 200, shown.body);
        assert.ok(!shown.body.includes(key), `${url} shows the secret`);
      }
      assert.ok(!response.body.includes(key));
    });

    test('a password in the URL is masked in every representation and never appears in a body', async () => {
      const password = `S3cr3t-${randomUUID()}`;
      const url = `http://plant-user:${password}@127.0.0.1:9/hooks/state?site=1`;
      const created = await register(t(), { eventType: EVENT_TYPE, url, eventName: 'masked' });
      assert.equal(created.statusCode, 201, created.body);
      const masked = 'http://plant-user:****@127.0.0.1:9/hooks/state?site=1';
      const { id } = json(created).properties;
      assert.equal(json(created).properties.url, masked);

      const one = await t().request({ url: `${CALLBACKS}/${id}` });
      assert.equal(json(one).properties.url, masked);
      const list = await t().request({ url: `${CALLBACKS}?limit=100` });
      const entry = json(list)._embedded.callbacks.find((candidate: Body) => candidate.properties.id === id);
      assert.ok(entry, 'the callback is listed');
      assert.equal(entry.properties.url, masked);
      const deliveries = await t().request({ url: `${CALLBACKS}/${id}/deliveries` });
      assert.equal(deliveries.statusCode, 200, deliveries.body);

      // A password with reserved characters, percent-encoded in the URL.
      const encoded = await register(t(), {
        eventType: EVENT_TYPE,
        url: `mqtt://bridge:${encodeURIComponent(`p@ss:${password}/#`)}@broker:1883/external/x`,
      });
      assert.equal(encoded.statusCode, 201, encoded.body);
      assert.equal(json(encoded).properties.url, 'mqtt://bridge:****@broker:1883/external/x');

      // A refused registration does not echo the URL either.
      const refused = await register(t(), { eventType: 'NOPE', url });
      assert.equal(refused.statusCode, 400);

      for (const response of [created, one, list, deliveries, encoded, refused]) {
        assert.ok(!response.body.includes(password), `password shown: ${response.body}`);
        assert.ok(!response.body.includes(encodeURIComponent(password)), `password shown: ${response.body}`);
      }
      const again = await t().request({ url: `${CALLBACKS}?limit=100` });
      assert.ok(!again.body.includes(password));
    });

    test('a callback belongs to its client: another client gets 404, cannot delete it, never lists it', async () => {
      const mine = await registered(t(), { eventType: EVENT_TYPE, url: HOOK, eventName: 'mine' });
      const other = await otherClient(t());

      const before = await t().request({ url: `${CALLBACKS}?limit=100`, headers: other });
      assert.equal(before.statusCode, 200, before.body);
      assert.deepEqual(json(before).pagination, {
        limit: 100,
        count: 0,
        offset: 0,
        total: 0,
        firstIdentifier: null,
        lastIdentifier: null,
      });
      assert.deepEqual(json(before)._embedded.callbacks, []);

      const notFound = {
        status: 404,
        code: 'NOT_FOUND',
        message: `There is no callback with id '${mine.id}'.`,
      };
      const get = await t().request({ url: `${CALLBACKS}/${mine.id}`, headers: other });
      assert.deepEqual([get.statusCode, json(get)], [404, notFound]);
      const deliveries = await t().request({ url: `${CALLBACKS}/${mine.id}/deliveries`, headers: other });
      assert.equal(deliveries.statusCode, 404);
      const remove = await t().request({ method: 'DELETE', url: `${CALLBACKS}/${mine.id}`, headers: other });
      assert.deepEqual([remove.statusCode, json(remove)], [404, notFound]);

      // The other client's own callback: it sees exactly that one; the owner does not see it.
      const created = await register(t(), { eventType: 'EXTERNAL', url: HOOK, eventName: 'theirs' }, other);
      assert.equal(created.statusCode, 201, created.body);
      const theirs = json(created).properties;
      const theirList = await t().request({ url: `${CALLBACKS}?limit=100`, headers: other });
      assert.deepEqual(
        json(theirList)._embedded.callbacks.map((entry: Body) => entry.properties.id),
        [theirs.id],
      );
      assert.equal(json(theirList).pagination.total, 1);
      const ownList = await t().request({ url: `${CALLBACKS}?limit=100` });
      const ownIds = json(ownList)._embedded.callbacks.map((entry: Body) => entry.properties.id);
      assert.ok(ownIds.includes(mine.id));
      assert.ok(!ownIds.includes(theirs.id));
      const foreign = await t().request({ url: `${CALLBACKS}/${theirs.id}` });
      assert.equal(foreign.statusCode, 404);

      // Still there for its owner after the other client's attempts.
      const still = await t().request({ url: `${CALLBACKS}/${mine.id}` });
      assert.equal(still.statusCode, 200);
      assert.equal(json(still).properties.eventName, 'mine');
    });

    test('GET list: offset paging over the own callbacks in creation order', async () => {
      const headers = await otherClient(t());
      const ids: string[] = [];
      for (let index = 0; index < 5; index += 1) {
        const response = await register(t(), { eventType: EVENT_TYPE, url: `${HOOK}/${index}` }, headers);
        assert.equal(response.statusCode, 201, response.body);
        ids.push(json(response).properties.id);
      }
      const first = await t().request({ url: `${CALLBACKS}?limit=2`, headers });
      assert.equal(first.statusCode, 200, first.body);
      assert.deepEqual(json(first).pagination, {
        limit: 2,
        count: 2,
        offset: 0,
        total: 5,
        firstIdentifier: null,
        lastIdentifier: null,
      });
      const seen = [];
      let href: string | undefined = `${CALLBACKS}?limit=2`;
      while (href !== undefined) {
        const page = await t().request({ url: href, headers });
        assert.equal(page.statusCode, 200, page.body);
        seen.push(...json(page)._embedded.callbacks.map((entry: Body) => entry.properties.id));
        href = json(page)._links.next?.href;
        assert.ok(seen.length <= 5);
      }
      assert.deepEqual(seen, ids);
    });

    test('DELETE: 204 without body, then 404 for GET, DELETE and deliveries', async () => {
      const { id } = await registered(t(), { eventType: EVENT_TYPE, url: HOOK });
      const removed = await t().request({ method: 'DELETE', url: `${CALLBACKS}/${id}` });
      assert.equal(removed.statusCode, 204);
      assert.equal(removed.body, '');
      for (const [method, url] of [
        ['GET', `${CALLBACKS}/${id}`],
        ['DELETE', `${CALLBACKS}/${id}`],
        ['GET', `${CALLBACKS}/${id}/deliveries`],
      ] as const) {
        const response = await t().request({ method, url });
        assert.equal(response.statusCode, 404, `${method} ${url}`);
        assert.equal(json(response).code, 'NOT_FOUND');
      }
      const list = await t().request({ url: `${CALLBACKS}?limit=100` });
      assert.ok(!json(list)._embedded.callbacks.some((entry: Body) => entry.properties.id === id));
      const malformed = await t().request({ method: 'DELETE', url: `${CALLBACKS}/not-a-uuid` });
      assert.equal(malformed.statusCode, 404);
    });

    test('scopes: a read-only token lists and reads but cannot register or delete (403)', async () => {
      const { id } = await registered(t(), { eventType: EVENT_TYPE, url: HOOK });
      const post = await t().request({
        method: 'POST',
        url: CALLBACKS,
        body: { eventType: EVENT_TYPE, url: HOOK },
        scopes: ['read'],
      });
      assert.equal(post.statusCode, 403, post.body);
      assert.equal(json(post).status, 403);
      const remove = await t().request({ method: 'DELETE', url: `${CALLBACKS}/${id}`, scopes: ['read'] });
      assert.equal(remove.statusCode, 403, remove.body);
      const list = await t().request({ url: CALLBACKS, scopes: ['read'] });
      assert.equal(list.statusCode, 200, list.body);
      assert.equal(json(list)._links.createCallback, undefined);
      const own = await t().request({ url: CALLBACKS });
      assert.equal(json(own)._links.createCallback.href, absolute(CALLBACKS));

      const anonymous = await t().request({
        method: 'POST',
        url: CALLBACKS,
        body: { eventType: EVENT_TYPE, url: HOOK },
        anonymous: true,
      });
      assert.equal(anonymous.statusCode, 401);
      const still = await t().request({ url: `${CALLBACKS}/${id}` });
      assert.equal(still.statusCode, 200);
    });
    // Nothing is delivered here (no events); delivery itself is test/api/httpDelivery.test.ts.
  },
  { BRIDGE_DELIVERY_ENABLED: 'false' },
);
