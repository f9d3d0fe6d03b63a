// The event log and self-defined events (docs/events.md): POST /events stores an EXTERNAL
// event and delivers it like a platform event; GET /events reads every event in timestamp mode,
// filtered, so a client that kept firstIdentifier can catch up on exactly what it missed.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { describeEachBackend, json, type TestApp } from '../support/app.ts';
import { Receiver, waitFor } from '../support/faults.ts';
import { absolute, get } from '../support/hal.ts';

const EVENTS = '/api/v2/events';

async function publish(t: TestApp, body: Record<string, unknown>) {
  return t.request({ method: 'POST', url: EVENTS, body: { eventType: 'EXTERNAL', ...body } });
}

async function createGroup(t: TestApp, number: string): Promise<string> {
  const response = await t.request({
    method: 'POST',
    url: '/api/v2/workplaceGroups',
    body: { number, type: 'CAPACITY_GROUP' },
  });
  assert.equal(response.statusCode, 201, response.body);
  return json(response).properties.id;
}

const typesOf = (page: ReturnType<typeof json>) =>
  page._embedded.events.map((event: { properties: { eventType: string } }) => event.properties.eventType);

describeEachBackend(
  'event log',
  (t) => {
    const receiver = { current: undefined as Receiver | undefined };
    before(async () => {
      receiver.current = await Receiver.create({ up: true });
    });
    after(async () => {
      await receiver.current?.stop();
    });

    test('POST /events with only eventType: 201, Location, objectType NONE, data {}, time now', async () => {
      const before = Date.now();
      const response = await publish(t(), {});
      assert.equal(response.statusCode, 201, response.body);
      const body = json(response);
      const { id, timestamp, recordedAt } = body.properties;
      assert.deepEqual(body, {
        properties: {
          id,
          eventType: 'EXTERNAL',
          eventName: null,
          objectType: 'NONE',
          objectId: null,
          data: {},
          timestamp,
          recordedAt,
        },
        _links: { self: get(`${EVENTS}/${id}`) },
      });
      assert.equal(response.headers.location, absolute(`${EVENTS}/${id}`));
      assert.equal(timestamp, recordedAt);
      assert.ok(Date.parse(timestamp) >= before - 5 && Date.parse(timestamp) <= Date.now() + 5);
      const fetched = await t().request({ url: String(response.headers.location) });
      assert.deepEqual([fetched.statusCode, json(fetched)], [200, body]);
    });

    test('POST /events with every field keeps them; the object link leads to the object', async () => {
      const group = await createGroup(t(), 'EL-OBJ');
      const workplace = await t().request({
        method: 'POST',
        url: '/api/v2/workplaces',
        body: { number: 'EL-W1', capacityGroupId: group },
      });
      const workplaceId = json(workplace).properties.id;
      const response = await publish(t(), {
        objectType: 'WORKPLACE',
        objectId: workplaceId,
        eventName: 'quality-alarm',
        data: { measured: 12.5, nested: { list: [1, 'two', null] } },
        timestamp: '2026-01-02T03:04:05.678Z',
      });
      assert.equal(response.statusCode, 201, response.body);
      const { properties, _links } = json(response);
      assert.deepEqual(
        { ...properties, id: undefined, recordedAt: undefined },
        {
          id: undefined,
          eventType: 'EXTERNAL',
          eventName: 'quality-alarm',
          objectType: 'WORKPLACE',
          objectId: workplaceId,
          data: { measured: 12.5, nested: { list: [1, 'two', null] } },
          timestamp: '2026-01-02T03:04:05.678Z',
          recordedAt: undefined,
        },
      );
      // Recorded now, whatever time the publisher gives the event.
      assert.ok(Date.parse(properties.recordedAt) > Date.parse('2026-11-01T00:00:00Z'));
      assert.deepEqual(_links.object, get(`/api/v2/workplaces/${workplaceId}`));
      const object = await t().request({ url: _links.object.href });
      assert.equal(object.statusCode, 200);
    });

    test('POST /events refuses what docs/events.md does not allow, and stores nothing then', async () => {
      const count = async () =>
        json(await t().request({ url: `${EVENTS}?eventType=EXTERNAL&limit=1` })).pagination.total;
      const stored = await count();
      const cases: [Record<string, unknown>, string, string][] = [
        [
          { eventType: 'WORKPLACE_CREATED' },
          'VALIDATION_FAILED',
          "Field 'eventType' must be one of: EXTERNAL.",
        ],
        [{ eventType: 'COMMAND' }, 'VALIDATION_FAILED', "Field 'eventType' must be one of: EXTERNAL."],
        [{}, 'VALIDATION_FAILED', "Field 'eventType' is required."],
        [
          { eventType: 'EXTERNAL', objectType: 'DOCUMENT' },
          'VALIDATION_FAILED',
          "Field 'objectType' must be one of: OPERATION, PRODUCTION_ORDER, WORKPLACE, STAFF_MEMBER, TOOL, .",
        ],
        [
          { eventType: 'EXTERNAL', data: [1, 2] },
          'VALIDATION_FAILED',
          "Field 'data' must be of type object.",
        ],
        [
          { eventType: 'EXTERNAL', timestamp: 'yesterday' },
          'VALIDATION_FAILED',
          "Field 'timestamp' must be a valid date-time.",
        ],
        [{ eventType: 'EXTERNAL', source: 'x' }, 'UNKNOWN_FIELD', "Field 'source' is not allowed here."],
      ];
      for (const [body, code, message] of cases) {
        const response = await t().request({ method: 'POST', url: EVENTS, body });
        assert.deepEqual(json(response), { status: 400, code, message }, JSON.stringify(body));
      }
      assert.equal(await count(), stored);
    });

    test('data the database cannot hold (U+0000 in a key, deep nesting) is 400, not 500', async () => {
      const nested = (depth: number): unknown => (depth === 0 ? 1 : { x: nested(depth - 1) });
      const nulKey = await publish(t(), { data: { 'a\u0000b': 1 } });
      assert.deepEqual([nulKey.statusCode, json(nulKey).code], [400, 'VALIDATION_FAILED'], nulKey.body);
      const deepBody = `{"eventType":"EXTERNAL","data":{"x":${'['.repeat(5000)}${']'.repeat(5000)}}}`;
      const deep = await t().request({ method: 'POST', url: EVENTS, body: deepBody });
      assert.deepEqual([deep.statusCode, json(deep).code], [400, 'VALIDATION_FAILED'], deep.body);
      const fine = await publish(t(), { data: nested(50) });
      assert.equal(fine.statusCode, 201, fine.body);
    });

    test('an empty objectType is NONE', async () => {
      const response = await publish(t(), { objectType: '', objectId: 'free-text-id' });
      assert.equal(response.statusCode, 201, response.body);
      assert.equal(json(response).properties.objectType, 'NONE');
      assert.equal(json(response).properties.objectId, 'free-text-id');
      assert.equal(json(response)._links.object, undefined);
    });

    test('security: publishing needs write; a reader sees the log but no create link', async () => {
      const refused = await t().request({
        method: 'POST',
        url: EVENTS,
        body: { eventType: 'EXTERNAL' },
        scopes: ['read'],
      });
      assert.equal(refused.statusCode, 403);
      const asReader = json(await t().request({ url: EVENTS, scopes: ['read'] }));
      assert.equal(asReader._links.createEvent, undefined);
      const asWriter = json(await t().request({ url: EVENTS }));
      assert.deepEqual(asWriter._links.createEvent, {
        href: absolute(EVENTS),
        method: 'POST',
        embeddable: false,
      });
      const unknown = await t().request({ url: `${EVENTS}/0190a4c2-0000-7000-8000-000000000000` });
      assert.equal(unknown.statusCode, 404);
      assert.equal(json(unknown).code, 'NOT_FOUND');
    });

    test('GET /events holds the platform events, newest first, filtered by type, object type and object', async () => {
      const group = await createGroup(t(), 'EL-FILTER');
      const all = json(await t().request({ url: `${EVENTS}?objectId=${group}` }));
      assert.deepEqual(typesOf(all), ['RESOURCES_UPDATED']);
      const event = all._embedded.events[0];
      assert.equal(event.properties.objectType, 'WORKPLACE_GROUP');
      assert.deepEqual(event.properties.data, { changeType: 'CREATED' });
      assert.deepEqual(event._links.object, get(`/api/v2/workplaceGroups/${group}`));

      const byType = json(await t().request({ url: `${EVENTS}?eventType=EXTERNAL&objectType=NONE` }));
      assert.ok(byType.pagination.total >= 2);
      assert.ok(typesOf(byType).every((type: string) => type === 'EXTERNAL'));
      const times = byType._embedded.events.map(
        (e: { properties: { recordedAt: string } }) => e.properties.recordedAt,
      );
      assert.deepEqual(times, [...times].sort().reverse());
      const bad = await t().request({ url: `${EVENTS}?objectType=SOMETHING` });
      assert.equal(bad.statusCode, 400);
    });

    test('catch-up: PREVIOUS from a kept firstIdentifier returns exactly what was recorded since', async () => {
      const page = json(await t().request({ url: `${EVENTS}?limit=5` }));
      const kept = page.pagination.firstIdentifier;
      const group = await createGroup(t(), 'EL-CATCHUP');
      // Back-dated by its publisher, yet recorded now: a catching-up client must see it too.
      const external = json(await publish(t(), { eventName: 'late', timestamp: '2020-01-01T00:00:00.000Z' }));
      const since = json(
        await t().request({
          url: `${EVENTS}?paginationDirection=PREVIOUS&paginationTimestamp=${kept.paginationTimestamp}&paginationIdentifier=${kept.paginationIdentifier}`,
        }),
      );
      const seen = since._embedded.events.map(
        (e: { properties: { id: string; objectId: string } }) => e.properties,
      );
      assert.deepEqual(
        seen.map((e: { objectId: string | null }) => e.objectId),
        [null, group],
      );
      assert.equal(seen[0].id, external.properties.id);
    });

    test('an EXTERNAL event reaches a callback registered for EXTERNAL, with the callback eventName', async () => {
      const receiver_ = receiver.current as Receiver;
      const callback = await t().request({
        method: 'POST',
        url: '/api/v2/callbacks',
        body: { eventType: 'EXTERNAL', url: receiver_.url('/external'), eventName: 'from-mes' },
      });
      assert.equal(callback.statusCode, 201, callback.body);
      const callbackId = json(callback).properties.id;
      // The callback's eventName wins over the publisher's.
      const published = json(
        await publish(t(), {
          objectType: 'TOOL',
          objectId: 'T-1',
          data: { a: 1 },
          eventName: 'by-publisher',
        }),
      );
      const delivery = await waitFor('the EXTERNAL delivery', () =>
        receiver_.deliveries.find((d) => d.path === '/external'),
      );
      assert.deepEqual(JSON.parse(delivery.body), {
        properties: {
          callbackId,
          timestamp: published.properties.timestamp,
          data: { a: 1 },
          objectId: 'T-1',
          objectType: 'TOOL',
          eventType: 'EXTERNAL',
          eventName: 'from-mes',
        },
        // This app does not listen, so it has no address of its own: the href is a path from the root.
        // Where the callback was registered from (the test requests' Host).
        _links: {
          callback: { href: absolute(`/api/v2/callbacks/${callbackId}`), method: 'GET', embeddable: false },
        },
      });
      assert.equal(delivery.headers['webhook-id'], published.properties.id);
    });

    test("a callback without eventName delivers the publisher's eventName", async () => {
      const receiver_ = receiver.current as Receiver;
      const callback = await t().request({
        method: 'POST',
        url: '/api/v2/callbacks',
        body: { eventType: 'EXTERNAL', url: receiver_.url('/external-unnamed') },
      });
      assert.equal(callback.statusCode, 201, callback.body);
      const named = json(await publish(t(), { objectId: 'N-1', eventName: 'machine-note' }));
      const unnamed = json(await publish(t(), { objectId: 'N-2' }));
      const deliveries = await waitFor('both EXTERNAL deliveries', () => {
        const found = receiver_.deliveries.filter((d) => d.path === '/external-unnamed');
        return found.length >= 2 ? found : undefined;
      });
      const nameOf = (eventId: string) =>
        JSON.parse(deliveries.find((d) => d.headers['webhook-id'] === eventId)?.body ?? '{}').properties
          ?.eventName;
      assert.equal(nameOf(named.properties.id), 'machine-note');
      assert.equal(nameOf(unnamed.properties.id), null);
    });
  },
  { BRIDGE_DELIVERY_POLL_MS: '50' },
);
