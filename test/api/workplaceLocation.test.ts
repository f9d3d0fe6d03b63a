// A workplace's location end to end (docs/resources/workplaces.md, "Location"): GET with unknown
// coordinates, PUT to set and to clear them, bad bodies refused with nothing stored, the write
// scope, an unknown workplace, the WORKPLACE_UPDATED a change emits, and the link and embed on
// the workplace.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createWorkplace, describeEachBackend, json, type TestApp } from '../support/app.ts';
import { eventsOf, withoutTime } from '../support/events.ts';
import { get } from '../support/hal.ts';

const BASE = '/api/v2/workplaces';
const MISSING = '00000000-0000-4000-8000-000000000000';

const locationOf = (id: string) => `${BASE}/${id}/location`;

/** The representation of a workplace's location. */
const locationBody = (id: string, geoCoordinates: { latitude: number; longitude: number } | null) => ({
  properties: { geoCoordinates },
  _links: { self: get(locationOf(id)), workplace: get(`${BASE}/${id}`, true) },
});

const put = (t: TestApp, id: string, body: unknown, scopes?: string[]) =>
  t.request({ method: 'PUT', url: locationOf(id), body, ...(scopes ? { scopes } : {}) });

/** The stored columns, read past the API. */
async function stored(t: TestApp, id: string) {
  const rows = await t.app.db.query<{ latitude: number | null; longitude: number | null }>(
    'SELECT latitude, longitude FROM workplaces WHERE id = $1',
    [id],
  );
  return rows[0];
}

describeEachBackend('workplace location', (t) => {
  test('GET of a workplace with no location: geoCoordinates null', async () => {
    const id = await createWorkplace(t(), 'LOC-1');
    const response = await t().request({ url: locationOf(id) });
    assert.deepEqual([response.statusCode, json(response)], [200, locationBody(id, null)]);
  });

  test('PUT then GET round trip; PUT null clears it', async () => {
    const id = await createWorkplace(t(), 'LOC-2');
    const at = { latitude: 48.137154, longitude: -11.576124 };
    const set = await put(t(), id, { geoCoordinates: at });
    assert.deepEqual([set.statusCode, json(set)], [200, locationBody(id, at)]);
    const read = await t().request({ url: locationOf(id) });
    assert.deepEqual([read.statusCode, json(read)], [200, locationBody(id, at)]);
    assert.deepEqual(await stored(t(), id), at);

    const cleared = await put(t(), id, { geoCoordinates: null });
    assert.deepEqual([cleared.statusCode, json(cleared)], [200, locationBody(id, null)]);
    assert.deepEqual(await stored(t(), id), { latitude: null, longitude: null });
  });

  test('a change emits WORKPLACE_UPDATED naming location; the same location again emits nothing', async () => {
    const id = await createWorkplace(t(), 'LOC-3');
    const { capacityGroupId } = json(await t().request({ url: `${BASE}/${id}` })).properties;
    const before = (await eventsOf(t(), id, 'WORKPLACE_UPDATED')).length;
    const at = { latitude: -33.5, longitude: 151.25 };
    assert.equal((await put(t(), id, { geoCoordinates: at })).statusCode, 200);
    assert.equal((await put(t(), id, { geoCoordinates: at })).statusCode, 200);
    assert.equal((await put(t(), id, { geoCoordinates: null })).statusCode, 200);
    const events = (await eventsOf(t(), id, 'WORKPLACE_UPDATED')).slice(before);
    const event = {
      eventType: 'WORKPLACE_UPDATED',
      objectType: 'WORKPLACE',
      objectId: id,
      data: {
        workplaceId: id,
        number: 'LOC-3',
        description: null,
        isManualWorkplace: false,
        capacityGroupId,
        productionLineId: null,
        changedProperties: ['location'],
      },
    };
    assert.deepEqual(withoutTime(events), [event, event]);
  });

  test('a PUT of the workplace keeps its location', async () => {
    const id = await createWorkplace(t(), 'LOC-4');
    const at = { latitude: 0, longitude: 180 };
    assert.equal((await put(t(), id, { geoCoordinates: at })).statusCode, 200);
    const { capacityGroupId } = json(await t().request({ url: `${BASE}/${id}` })).properties;
    const replaced = await t().request({
      method: 'PUT',
      url: `${BASE}/${id}`,
      body: { number: 'LOC-4b', capacityGroupId },
    });
    assert.equal(replaced.statusCode, 200, replaced.body);
    assert.deepEqual(json(await t().request({ url: locationOf(id) })), locationBody(id, at));
  });

  test('bad bodies are 400 naming the field, and store nothing', async () => {
    const id = await createWorkplace(t(), 'LOC-5');
    const at = { latitude: 10, longitude: 20 };
    assert.equal((await put(t(), id, { geoCoordinates: at })).statusCode, 200);
    const cases: [unknown, string, string][] = [
      [{}, 'VALIDATION_FAILED', 'geoCoordinates'],
      [{ geoCoordinates: { latitude: 10 } }, 'VALIDATION_FAILED', 'geoCoordinates.longitude'],
      [{ geoCoordinates: { longitude: 10 } }, 'VALIDATION_FAILED', 'geoCoordinates.latitude'],
      [{ geoCoordinates: { latitude: 90.5, longitude: 0 } }, 'VALIDATION_FAILED', 'geoCoordinates.latitude'],
      [{ geoCoordinates: { latitude: -91, longitude: 0 } }, 'VALIDATION_FAILED', 'geoCoordinates.latitude'],
      [
        { geoCoordinates: { latitude: 0, longitude: 180.1 } },
        'VALIDATION_FAILED',
        'geoCoordinates.longitude',
      ],
      [{ geoCoordinates: { latitude: 0, longitude: -181 } }, 'VALIDATION_FAILED', 'geoCoordinates.longitude'],
      [{ geoCoordinates: { latitude: '1', longitude: 0 } }, 'VALIDATION_FAILED', 'geoCoordinates.latitude'],
      [{ geoCoordinates: { latitude: null, longitude: 0 } }, 'VALIDATION_FAILED', 'geoCoordinates.latitude'],
      [
        { geoCoordinates: { latitude: 0, longitude: 0, altitude: 3 } },
        'UNKNOWN_FIELD',
        'geoCoordinates.altitude',
      ],
      [{ geoCoordinates: at, place: 1 }, 'UNKNOWN_FIELD', 'place'],
    ];
    for (const [body, code, field] of cases) {
      const response = await put(t(), id, body);
      const answer = json(response);
      assert.deepEqual([response.statusCode, answer.code], [400, code], JSON.stringify(body));
      assert.match(answer.message, new RegExp(`'${field.replaceAll('.', '\\.')}'`), JSON.stringify(body));
    }
    assert.deepEqual(await stored(t(), id), at);
  });

  test('a read token cannot PUT (403) and changes nothing', async () => {
    const id = await createWorkplace(t(), 'LOC-6');
    const response = await put(t(), id, { geoCoordinates: { latitude: 1, longitude: 2 } }, ['read']);
    assert.equal(response.statusCode, 403);
    assert.equal(json(response).code, 'INSUFFICIENT_SCOPE');
    assert.deepEqual(await stored(t(), id), { latitude: null, longitude: null });
    const read = await t().request({ url: locationOf(id), scopes: ['read'] });
    assert.deepEqual([read.statusCode, json(read)], [200, locationBody(id, null)]);
  });

  test('an unknown workplace is 404 for GET and PUT', async () => {
    const read = await t().request({ url: locationOf(MISSING) });
    assert.deepEqual([read.statusCode, json(read).code], [404, 'NOT_FOUND']);
    const write = await put(t(), MISSING, { geoCoordinates: { latitude: 1, longitude: 2 } });
    assert.deepEqual([write.statusCode, json(write).code], [404, 'NOT_FOUND']);
  });

  test('a workplace links its location and embeds it on embed=location', async () => {
    const id = await createWorkplace(t(), 'LOC-7');
    const at = { latitude: 52.52, longitude: 13.405 };
    assert.equal((await put(t(), id, { geoCoordinates: at })).statusCode, 200);
    const plain = json(await t().request({ url: `${BASE}/${id}` }));
    assert.deepEqual(plain._links.location, get(locationOf(id), true));
    assert.equal(plain._embedded, undefined);
    const embedded = json(await t().request({ url: `${BASE}/${id}?embed=location` }));
    assert.deepEqual(embedded._embedded, { location: locationBody(id, at) });
    const page = json(await t().request({ url: `${BASE}?workplaceNumber=LOC-7&embed=location` }));
    assert.deepEqual(page._embedded.workplaces[0]._embedded, { location: locationBody(id, at) });
  });
});
