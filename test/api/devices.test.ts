// Devices end to end (docs/api.md "Resources"): collection with filters and embed, the devices of a workplace,
// GET, POST, PUT (the workplace is permanent), DELETE, RESOURCES_UPDATED events; recorded time
// series: batch POST, timestamp-mode GET with tag and date filters, one sample; read-only callers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createWorkplace, describeEachBackend, json, type TestApp } from '../support/app.ts';
import { eventsOf, totalEvents, type UntimedEvent, withoutTime } from '../support/events.ts';
import { absolute, get, normalized } from '../support/hal.ts';

const BASE = '/api/v2/devices';
const WORKPLACES = '/api/v2/workplaces';
const MISSING = '0190a000-0000-7000-8000-00000000abcd';

interface Quantity {
  tag: string;
  name: string | null;
  physicalQuantity: string | null;
  unit: string | null;
}

interface Device {
  id: string;
  name: string;
  description: string | null;
  type: string;
  workplaceId: string;
  recordedPhysicalQuantities: Quantity[];
}

const TEMPERATURE: Quantity = {
  tag: 'T1',
  name: 'Spindle temperature',
  physicalQuantity: 'TEMPERATURE',
  unit: '°C',
};
const SPEED: Quantity = {
  tag: 'S1',
  name: 'Spindle speed',
  physicalQuantity: 'ROTATIONAL_SPEED',
  unit: '1/min',
};

/** The representation of a device; `write`: the caller holds the write scope. */
function deviceBody(device: Device, options: { write?: boolean; embedded?: Record<string, unknown> } = {}) {
  const self = `${BASE}/${device.id}`;
  return {
    properties: { ...device },
    _links: {
      self: get(self),
      devices: get(BASE),
      workplace: get(`${WORKPLACES}/${device.workplaceId}`, true),
      recordedTimeSeries: get(`${self}/recordedTimeSeries`),
      ...((options.write ?? true)
        ? {
            recordTimeSeries: {
              href: absolute(`${self}/recordedTimeSeries`),
              method: 'POST',
              embeddable: false,
            },
          }
        : {}),
    },
    ...(options.embedded ? { _embedded: options.embedded } : {}),
  };
}

async function createDevice(t: TestApp, body: Record<string, unknown>): Promise<Device> {
  const response = await t.request({ method: 'POST', url: BASE, body: { type: 'PLC', ...body } });
  assert.equal(response.statusCode, 201, response.body);
  return json(response).properties;
}

const validation = (message: string) => ({ status: 400, code: 'VALIDATION_FAILED', message });

const sampleCount = async (t: TestApp, deviceId: string) =>
  (
    await t.app.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM recorded_time_series WHERE device_id = $1',
      [deviceId],
    )
  )[0]?.n ?? -1;

/** The sample values of a time-series page, in page order. */
const valuesOf = (page: ReturnType<typeof json>) =>
  page._embedded.recordedTimeSeries.map(
    (sample: { properties: { value: number } }) => sample.properties.value,
  );

const updated = (id: string, changeType: string): UntimedEvent => ({
  eventType: 'RESOURCES_UPDATED',
  objectType: 'DEVICE',
  objectId: id,
  data: { changeType },
});

describeEachBackend('devices', (t) => {
  test('POST with the required fields only: 201, Location = self, defaults filled in', async () => {
    const workplaceId = await createWorkplace(t(), 'DEV-MIN');
    const response = await t().request({
      method: 'POST',
      url: BASE,
      body: { name: 'PLC 1', type: 'PLC', workplaceId },
    });
    assert.equal(response.statusCode, 201, response.body);
    const id = json(response).properties.id;
    const expected = deviceBody({
      id,
      name: 'PLC 1',
      description: null,
      type: 'PLC',
      workplaceId,
      recordedPhysicalQuantities: [],
    });
    assert.deepEqual(json(response), expected);
    assert.equal(response.headers.location, absolute(`${BASE}/${id}`));
    const fetched = await t().request({ url: String(response.headers.location) });
    assert.deepEqual([fetched.statusCode, json(fetched)], [200, expected]);
    assert.deepEqual(withoutTime(await eventsOf(t(), id)), [updated(id, 'CREATED')]);
  });

  test('POST with every field: quantities stored as sent, optional ones null', async () => {
    const workplaceId = await createWorkplace(t(), 'DEV-FULL');
    const device = await createDevice(t(), {
      name: 'Lathe controller',
      description: 'S7-1500',
      type: 'PLC',
      workplaceId,
      recordedPhysicalQuantities: [TEMPERATURE, { tag: 'S1' }],
    });
    const expected = deviceBody({
      id: device.id,
      name: 'Lathe controller',
      description: 'S7-1500',
      type: 'PLC',
      workplaceId,
      recordedPhysicalQuantities: [
        TEMPERATURE,
        { tag: 'S1', name: null, physicalQuantity: null, unit: null },
      ],
    });
    assert.deepEqual(json(await t().request({ url: `${BASE}/${device.id}` })), expected);
  });

  test('POST refusals: workplace required and existing, tags unique, strict body; nothing stored', async () => {
    const workplaceId = await createWorkplace(t(), 'DEV-BAD');
    const cases: [Record<string, unknown>, Record<string, unknown>][] = [
      [{ name: 'X', type: 'PLC' }, validation("Field 'workplaceId' is required.")],
      [
        { name: 'X', type: 'PLC', workplaceId: MISSING },
        {
          status: 400,
          code: 'INVALID_REFERENCE',
          message: `Field 'workplaceId' refers to '${MISSING}', which is not an existing workplace.`,
        },
      ],
      [
        { name: 'X', type: 'PLC', workplaceId: 'WP-1' },
        validation("Field 'workplaceId' must be a valid uuid."),
      ],
      [{ type: 'PLC', workplaceId }, validation("Field 'name' is required.")],
      [{ name: 'X', workplaceId }, validation("Field 'type' is required.")],
      [
        {
          name: 'X',
          type: 'PLC',
          workplaceId,
          recordedPhysicalQuantities: [TEMPERATURE, SPEED, { tag: 'T1' }],
        },
        validation(
          "Field 'recordedPhysicalQuantities[2].tag' is invalid: the tag 'T1' is already used by another quantity of this device.",
        ),
      ],
      [
        { name: 'X', type: 'PLC', workplaceId, colour: 'red' },
        { status: 400, code: 'UNKNOWN_FIELD', message: "Field 'colour' is not allowed here." },
      ],
      [
        { name: 'x'.repeat(201), type: 'PLC', workplaceId },
        validation("Field 'name' must have at most 200 characters."),
      ],
    ];
    for (const [body, error] of cases) {
      const response = await t().request({ method: 'POST', url: BASE, body });
      assert.deepEqual([response.statusCode, json(response)], [400, error], JSON.stringify(body));
    }
    assert.equal((await t().app.db.query("SELECT 1 FROM devices WHERE name = 'X'")).length, 0);
  });

  test('PUT replaces (missing optional fields become null / []); moving the workplace is 400', async () => {
    const workplaceId = await createWorkplace(t(), 'DEV-PUT');
    const otherWorkplace = await createWorkplace(t(), 'DEV-PUT2');
    const device = await createDevice(t(), {
      name: 'Before',
      description: 'old',
      workplaceId,
      recordedPhysicalQuantities: [TEMPERATURE],
    });
    const replaced = await t().request({
      method: 'PUT',
      url: `${BASE}/${device.id}`,
      body: {
        id: device.id,
        name: 'After',
        type: 'SENSOR',
        workplaceId,
        recordedPhysicalQuantities: [SPEED],
      },
    });
    const expected = deviceBody({
      ...device,
      name: 'After',
      description: null,
      type: 'SENSOR',
      recordedPhysicalQuantities: [SPEED],
    });
    assert.deepEqual([replaced.statusCode, json(replaced)], [200, expected]);
    assert.deepEqual(json(await t().request({ url: `${BASE}/${device.id}` })), expected);
    const cleared = await t().request({
      method: 'PUT',
      url: `${BASE}/${device.id}`,
      body: { name: 'After', type: 'SENSOR', workplaceId },
    });
    assert.deepEqual(json(cleared).properties.recordedPhysicalQuantities, []);

    const moved = await t().request({
      method: 'PUT',
      url: `${BASE}/${device.id}`,
      body: { name: 'After', type: 'SENSOR', workplaceId: otherWorkplace },
    });
    assert.deepEqual(
      [moved.statusCode, json(moved)],
      [
        400,
        validation(
          `Field 'workplaceId' is invalid: a device stays at the workplace it was created at ('${workplaceId}').`,
        ),
      ],
    );
    const duplicateTags = await t().request({
      method: 'PUT',
      url: `${BASE}/${device.id}`,
      body: { name: 'After', type: 'SENSOR', workplaceId, recordedPhysicalQuantities: [SPEED, SPEED] },
    });
    assert.equal(json(duplicateTags).message.includes("'recordedPhysicalQuantities[1].tag'"), true);
    assert.equal(
      json(await t().request({ url: `${BASE}/${device.id}` })).properties.workplaceId,
      workplaceId,
    );
  });

  test('PUT: body id must equal the path id; unknown and malformed ids are 404', async () => {
    const workplaceId = await createWorkplace(t(), 'DEV-PUTID');
    const device = await createDevice(t(), { name: 'Id', workplaceId });
    const mismatch = await t().request({
      method: 'PUT',
      url: `${BASE}/${device.id}`,
      body: { id: MISSING, name: 'Id2', type: 'PLC', workplaceId },
    });
    assert.deepEqual([mismatch.statusCode, json(mismatch).code], [400, 'ID_MISMATCH']);
    for (const id of [MISSING, 'not-a-uuid', device.id.toUpperCase()]) {
      const notFound = { status: 404, code: 'NOT_FOUND', message: `There is no device with id '${id}'.` };
      for (const request of [
        { url: `${BASE}/${id}` },
        { method: 'PUT' as const, url: `${BASE}/${id}`, body: { name: 'Id2', type: 'PLC', workplaceId } },
        { method: 'DELETE' as const, url: `${BASE}/${id}` },
        { url: `${BASE}/${id}/recordedTimeSeries` },
        {
          method: 'POST' as const,
          url: `${BASE}/${id}/recordedTimeSeries`,
          body: { elements: [{ tag: 'T1', timestamp: '2024-01-01T00:00:00Z', value: 1 }] },
        },
      ]) {
        const response = await t().request(request);
        assert.deepEqual([response.statusCode, json(response)], [404, notFound], `${request.url}`);
      }
    }
    assert.deepEqual(json(await t().request({ url: `${BASE}/${device.id}` })), deviceBody(device));
  });

  test('events: RESOURCES_UPDATED (DEVICE) on create, real change and delete; none for a no-op PUT', async () => {
    const workplaceId = await createWorkplace(t(), 'DEV-EV');
    const device = await createDevice(t(), {
      name: 'Ev',
      workplaceId,
      recordedPhysicalQuantities: [TEMPERATURE],
    });
    const total = await totalEvents(t());
    const same = await t().request({
      method: 'PUT',
      url: `${BASE}/${device.id}`,
      body: { name: 'Ev', type: 'PLC', workplaceId, recordedPhysicalQuantities: [TEMPERATURE] },
    });
    assert.equal(same.statusCode, 200);
    assert.equal(await totalEvents(t()), total);

    const renamedUnit = await t().request({
      method: 'PUT',
      url: `${BASE}/${device.id}`,
      body: {
        name: 'Ev',
        type: 'PLC',
        workplaceId,
        recordedPhysicalQuantities: [{ ...TEMPERATURE, unit: 'K' }],
      },
    });
    assert.equal(renamedUnit.statusCode, 200);
    const post = await t().request({
      method: 'POST',
      url: `${BASE}/${device.id}/recordedTimeSeries`,
      body: { elements: [{ tag: 'T1', timestamp: '2024-01-01T00:00:00Z', value: 290.5 }] },
    });
    assert.equal(post.statusCode, 201);
    assert.equal((await t().request({ method: 'DELETE', url: `${BASE}/${device.id}` })).statusCode, 204);
    assert.deepEqual(withoutTime(await eventsOf(t(), device.id)), [
      updated(device.id, 'CREATED'),
      updated(device.id, 'UPDATED'),
      updated(device.id, 'DELETED'),
    ]);
    // Samples write no events at all.
    assert.equal(await totalEvents(t()), total + 2);
  });

  test('collection: filters workplaceId, type, name; paging body; embed=workplace', async () => {
    const first = await createWorkplace(t(), 'DEV-FLT1');
    const second = await createWorkplace(t(), 'DEV-FLT2');
    const a = await createDevice(t(), { name: 'FLT-A', type: 'PLC', workplaceId: first });
    const b = await createDevice(t(), { name: 'FLT-B', type: 'SENSOR', workplaceId: first });
    const c = await createDevice(t(), { name: 'FLT-C', type: 'PLC', workplaceId: second });
    const names = (body: ReturnType<typeof json>) =>
      body._embedded.devices.map((item: { properties: Device }) => item.properties.name);
    const cases: [string, string[]][] = [
      [`workplaceId=${first}`, ['FLT-A', 'FLT-B']],
      [`workplaceId=${second}&type=PLC`, ['FLT-C']],
      [`workplaceId=${first}&type=PLC`, ['FLT-A']],
      [`workplaceId=${first}&name=FLT-B`, ['FLT-B']],
      ['name=FLT-C', ['FLT-C']],
      [`workplaceId=${MISSING}`, []],
      [`workplaceId=${first.toUpperCase()}`, []],
    ];
    for (const [query, expected] of cases) {
      const body = json(await t().request({ url: `${BASE}?${query}` }));
      assert.deepEqual(names(body), expected, query);
      assert.deepEqual(body.pagination, {
        limit: 100,
        count: expected.length,
        offset: 0,
        total: expected.length,
        firstIdentifier: null,
        lastIdentifier: null,
      });
    }

    const workplace = json(await t().request({ url: `${WORKPLACES}/${first}` }));
    const at = (offset: number) =>
      get(`${BASE}?workplaceId=${first}&embed=workplace&limit=1&offset=${offset}`);
    const page = json(
      await t().request({ url: `${BASE}?workplaceId=${first}&embed=workplace&limit=1&offset=1` }),
    );
    assert.deepEqual(
      normalized(page),
      normalized({
        pagination: { limit: 1, count: 1, offset: 1, total: 2, firstIdentifier: null, lastIdentifier: null },
        _embedded: { devices: [deviceBody(b, { embedded: { workplace } })] },
        _links: {
          self: at(1),
          current: at(1),
          first: at(0),
          previous: at(0),
          last: at(1),
          createDevice: { href: absolute(BASE), method: 'POST', embeddable: false },
          // The devices of the page, as the real API lists them.
          devices: [get(`${BASE}/${b.id}`)],
        },
      }),
    );
    const one = json(await t().request({ url: `${BASE}/${a.id}?embed=workplace` }));
    assert.deepEqual(one, deviceBody(a, { embedded: { workplace } }));
    const unknownEmbed = await t().request({ url: `${BASE}/${c.id}?embed=tools` });
    assert.deepEqual(
      [unknownEmbed.statusCode, json(unknownEmbed)],
      [
        400,
        { status: 400, code: 'UNKNOWN_EMBED', message: 'Cannot embed tools; embeddable here: workplace.' },
      ],
    );
  });

  test('GET /workplaces/{id}/devices: offset collection of that workplace; unknown workplace 404', async () => {
    const workplaceId = await createWorkplace(t(), 'DEV-WP');
    const other = await createWorkplace(t(), 'DEV-WP2');
    const devices = [
      await createDevice(t(), { name: 'WP-2', workplaceId }),
      await createDevice(t(), { name: 'WP-1', workplaceId }),
    ];
    await createDevice(t(), { name: 'WP-3', workplaceId: other });
    const path = `${WORKPLACES}/${workplaceId}/devices`;
    const response = await t().request({ url: path });
    assert.deepEqual(
      [response.statusCode, normalized(json(response))],
      [
        200,
        normalized({
          pagination: {
            limit: 100,
            count: 2,
            offset: 0,
            total: 2,
            firstIdentifier: null,
            lastIdentifier: null,
          },
          _embedded: { devices: [deviceBody(devices[1] as Device), deviceBody(devices[0] as Device)] },
          _links: {
            self: get(`${path}?limit=100&offset=0`),
            current: get(`${path}?limit=100&offset=0`),
            first: get(`${path}?limit=100&offset=0`),
            last: get(`${path}?limit=100&offset=0`),
            createDevice: { href: absolute(BASE), method: 'POST', embeddable: false },
            devices: [1, 0].map((n) => get(`${BASE}/${(devices[n] as Device).id}`)),
          },
        }),
      ],
    );
    for (const id of [MISSING, 'nope']) {
      const missing = await t().request({ url: `${WORKPLACES}/${id}/devices` });
      assert.deepEqual(
        [missing.statusCode, json(missing)],
        [404, { status: 404, code: 'NOT_FOUND', message: `There is no workplace with id '${id}'.` }],
      );
    }
  });

  test('a workplace with devices cannot be deleted (400 RESOURCE_IN_USE); deleting a device takes its samples', async () => {
    const workplaceId = await createWorkplace(t(), 'DEV-DEL');
    const device = await createDevice(t(), {
      name: 'Del',
      workplaceId,
      recordedPhysicalQuantities: [TEMPERATURE],
    });
    const inUse = await t().request({ method: 'DELETE', url: `${WORKPLACES}/${workplaceId}` });
    assert.deepEqual(
      [inUse.statusCode, json(inUse)],
      [
        400,
        {
          status: 400,
          code: 'RESOURCE_IN_USE',
          message: `The workplace '${workplaceId}' is still referenced by other resources.`,
        },
      ],
    );
    await t().request({
      method: 'POST',
      url: `${BASE}/${device.id}/recordedTimeSeries`,
      body: { elements: [{ tag: 'T1', timestamp: '2024-01-01T00:00:00Z', value: 1 }] },
    });
    assert.equal(await sampleCount(t(), device.id), 1);
    const deleted = await t().request({ method: 'DELETE', url: `${BASE}/${device.id}` });
    assert.deepEqual([deleted.statusCode, deleted.body], [204, '']);
    assert.equal((await t().request({ url: `${BASE}/${device.id}` })).statusCode, 404);
    assert.equal(await sampleCount(t(), device.id), 0);
    assert.equal(
      (await t().request({ method: 'DELETE', url: `${WORKPLACES}/${workplaceId}` })).statusCode,
      204,
    );
  });

  test('POST recordedTimeSeries: 201 with the count; unknown tag names the index and stores nothing', async () => {
    const workplaceId = await createWorkplace(t(), 'DEV-TS');
    const device = await createDevice(t(), {
      name: 'Ts',
      workplaceId,
      recordedPhysicalQuantities: [TEMPERATURE, SPEED],
    });
    const url = `${BASE}/${device.id}/recordedTimeSeries`;
    const stored = await t().request({
      method: 'POST',
      url,
      body: {
        elements: [
          { tag: 'T1', timestamp: '2024-01-01T00:00:00Z', value: 20.5 },
          { tag: 'S1', timestamp: '2024-01-01T00:00:00.250+01:00', value: 1200 },
        ],
      },
    });
    assert.deepEqual(
      [stored.statusCode, stored.headers.location, json(stored)],
      [
        201,
        absolute(url),
        {
          properties: { deviceId: device.id, count: 2 },
          _links: { self: get(url), device: get(`${BASE}/${device.id}`) },
        },
      ],
    );
    const refused: [unknown, Record<string, unknown>][] = [
      [
        {
          elements: [
            { tag: 'T1', timestamp: '2024-01-01T00:00:01Z', value: 1 },
            { tag: 'X9', timestamp: '2024-01-01T00:00:01Z', value: 1 },
          ],
        },
        validation("Field 'elements[1].tag' is invalid: the device does not record the tag 'X9'."),
      ],
      [{ elements: [] }, validation("Field 'elements' must have at least 1 entries.")],
      [
        { elements: [{ tag: 'T1', timestamp: 'yesterday', value: 1 }] },
        validation("Field 'elements.0.timestamp' must be a valid date-time."),
      ],
      [
        { elements: [{ tag: 'T1', timestamp: '2024-01-01T00:00:00Z', value: '1' }] },
        validation("Field 'elements.0.value' must be of type number."),
      ],
      [
        { elements: [{ tag: 'T1', timestamp: '2024-01-01T00:00:00Z' }] },
        validation("Field 'elements.0.value' is required."),
      ],
    ];
    for (const [body, error] of refused) {
      const response = await t().request({ method: 'POST', url, body });
      assert.deepEqual([response.statusCode, json(response)], [400, error], JSON.stringify(body));
    }
    assert.equal(await sampleCount(t(), device.id), 2);
  });

  test('POST recordedTimeSeries: 10,000 samples (about 1.8 MB) in one call; 10,001 is 400', async () => {
    const long = 'L'.repeat(100);
    const workplaceId = await createWorkplace(t(), 'DEV-BULK');
    const device = await createDevice(t(), {
      name: 'Bulk',
      workplaceId,
      recordedPhysicalQuantities: [{ tag: long }],
    });
    const url = `${BASE}/${device.id}/recordedTimeSeries`;
    const elements = Array.from({ length: 10_000 }, (_, i) => ({
      tag: long,
      timestamp: new Date(Date.UTC(2024, 0, 1) + i * 1000).toISOString(),
      value: i + 0.123456789,
    }));
    assert.ok(JSON.stringify({ elements }).length > 1_048_576);
    const stored = await t().request({ method: 'POST', url, body: { elements } });
    assert.deepEqual(
      [stored.statusCode, json(stored).properties.count],
      [201, 10_000],
      stored.body.slice(0, 300),
    );
    assert.equal(await sampleCount(t(), device.id), 10_000);
    const newest = json(await t().request({ url: `${url}?limit=1` }))._embedded.recordedTimeSeries[0]
      .properties;
    assert.deepEqual([newest.timestamp, newest.value], [elements[9999]?.timestamp, 9999.123456789]);

    const tooMany = await t().request({
      method: 'POST',
      url,
      body: { elements: [...elements, elements[0]] },
    });
    assert.deepEqual(
      [tooMany.statusCode, json(tooMany)],
      [400, validation("Field 'elements' must have at most 10000 entries.")],
    );
    assert.equal(await sampleCount(t(), device.id), 10_000);
  });

  test('GET recordedTimeSeries: newest first, ties by id, walking NEXT and PREVIOUS; whole page body', async () => {
    const workplaceId = await createWorkplace(t(), 'DEV-PAGE');
    const device = await createDevice(t(), {
      name: 'Page',
      workplaceId,
      recordedPhysicalQuantities: [TEMPERATURE, SPEED],
    });
    const url = `${BASE}/${device.id}/recordedTimeSeries`;
    const at = (second: number) => new Date(Date.UTC(2024, 0, 1, 0, 0, second)).toISOString();
    // Two samples share each timestamp: their ids decide the order.
    const elements = [0, 0, 1, 1, 2].map((second, i) => ({
      tag: i % 2 === 0 ? 'T1' : 'S1',
      timestamp: at(second),
      value: i,
    }));
    assert.equal((await t().request({ method: 'POST', url, body: { elements } })).statusCode, 201);
    const rows = await t().app.db.query<{ id: string; tag: string; value: number; timestamp: Date }>(
      'SELECT id, tag, value, "timestamp" FROM recorded_time_series WHERE device_id = $1 ORDER BY "timestamp" DESC, id DESC',
      [device.id],
    );
    const samples = rows.map((row) => ({
      properties: {
        id: row.id,
        deviceId: device.id,
        tag: row.tag,
        timestamp: row.timestamp.toISOString(),
        value: row.value,
      },
      _links: { self: get(`${url}/${row.id}`), device: get(`${BASE}/${device.id}`) },
    }));
    assert.deepEqual(
      samples.map((sample) => sample.properties.value),
      [4, 3, 2, 1, 0],
    );
    const position = (i: number) => ({
      timestamp: samples[i]?.properties.timestamp,
      identifier: samples[i]?.properties.id,
      paginationTimestamp: samples[i]?.properties.timestamp,
      paginationIdentifier: samples[i]?.properties.id,
    });
    const href = (query: string) => get(`${url}?${query}`);
    const q = (i: number) =>
      `paginationTimestamp=${encodeURIComponent(String(position(i).paginationTimestamp))}&paginationIdentifier=${position(i).paginationIdentifier}`;

    const first = json(await t().request({ url: `${url}?limit=2` }));
    // The page's samples also as the SDK's time series elements.
    const sdkElements = (from: number, to: number) =>
      samples
        .slice(from, to)
        .map(({ properties }) => ({ timestamp: properties.timestamp, value: properties.value }));
    assert.deepEqual(
      normalized(first),
      normalized({
        properties: { elements: sdkElements(0, 2) },
        pagination: {
          limit: 2,
          count: 2,
          offset: null,
          total: 5,
          firstIdentifier: position(0),
          lastIdentifier: position(1),
        },
        _embedded: { recordedTimeSeries: samples.slice(0, 2) },
        _links: {
          self: href('limit=2&paginationDirection=NEXT'),
          current: href('limit=2&paginationDirection=NEXT'),
          first: href('limit=2&paginationDirection=NEXT'),
          next: href(`limit=2&paginationDirection=NEXT&${q(1)}`),
          last: href('limit=2&paginationDirection=PREVIOUS'),
          createRecordedTimeSeries: { href: absolute(url), method: 'POST', embeddable: false },
        },
      }),
    );
    const second = json(await t().request({ url: first._links.next.href }));
    assert.deepEqual(second._embedded.recordedTimeSeries, samples.slice(2, 4));
    assert.deepEqual(second.properties.elements, sdkElements(2, 4));
    assert.deepEqual(Object.keys(second._links).sort(), [
      'createRecordedTimeSeries',
      'current',
      'first',
      'last',
      'next',
      'prev',
      'previous',
      'self',
    ]);
    assert.deepEqual(second._links.prev, second._links.previous);
    const third = json(await t().request({ url: second._links.next.href }));
    assert.deepEqual(third._embedded.recordedTimeSeries, samples.slice(4));
    assert.equal(third._links.next, undefined);
    const back = json(await t().request({ url: third._links.previous.href }));
    assert.deepEqual(back._embedded.recordedTimeSeries, samples.slice(2, 4));

    // Change sync: keep firstIdentifier, later ask PREVIOUS from it for what arrived since.
    await t().request({
      method: 'POST',
      url,
      body: { elements: [{ tag: 'T1', timestamp: at(3), value: 9 }] },
    });
    const since = json(await t().request({ url: `${url}?paginationDirection=PREVIOUS&${q(0)}` }));
    assert.deepEqual(valuesOf(since), [9]);

    // One sample; unknown or malformed sample ids and another device's sample are 404.
    const one = await t().request({ url: `${url}/${samples[0]?.properties.id}` });
    assert.deepEqual([one.statusCode, json(one)], [200, samples[0]]);
    const other = await createDevice(t(), { name: 'Other', workplaceId });
    for (const sampleUrl of [
      `${url}/${MISSING}`,
      `${url}/not-a-sample`,
      `${BASE}/${other.id}/recordedTimeSeries/${samples[0]?.properties.id}`,
    ]) {
      const missing = await t().request({ url: sampleUrl });
      assert.deepEqual([missing.statusCode, json(missing).code], [404, 'NOT_FOUND'], sampleUrl);
    }
  });

  test('GET recordedTimeSeries filters: tag, startDate (inclusive), endDate (exclusive), combined', async () => {
    const workplaceId = await createWorkplace(t(), 'DEV-FILTER');
    const device = await createDevice(t(), {
      name: 'Filter',
      workplaceId,
      recordedPhysicalQuantities: [TEMPERATURE, SPEED],
    });
    const url = `${BASE}/${device.id}/recordedTimeSeries`;
    const at = (minute: number) => new Date(Date.UTC(2024, 0, 1, 0, minute)).toISOString();
    const elements = [0, 1, 2, 3, 4, 5].flatMap((minute) => [
      { tag: 'T1', timestamp: at(minute), value: minute },
      { tag: 'S1', timestamp: at(minute), value: 100 + minute },
    ]);
    assert.equal((await t().request({ method: 'POST', url, body: { elements } })).statusCode, 201);
    const cases: [string, number[]][] = [
      ['tag=T1', [5, 4, 3, 2, 1, 0]],
      [`startDate=${at(4)}`, [105, 5, 104, 4]],
      [`endDate=${at(1)}`, [100, 0]],
      [`tag=S1&startDate=${at(2)}&endDate=${at(4)}`, [103, 102]],
      [`tag=T1&startDate=${at(3)}&endDate=${at(3)}`, []],
      ['tag=nothing', []],
    ];
    for (const [query, values] of cases) {
      const body = json(await t().request({ url: `${url}?${query}` }));
      assert.deepEqual(valuesOf(body), values, query);
      assert.equal(body.pagination.total, values.length, query);
    }
    // Paging links keep the filters.
    const paged = json(await t().request({ url: `${url}?tag=T1&startDate=${at(1)}&limit=2` }));
    const next = new URL(paged._links.next.href, 'http://host').searchParams;
    assert.deepEqual([next.get('tag'), next.get('startDate'), next.get('limit')], ['T1', at(1), '2']);
    assert.deepEqual(valuesOf(json(await t().request({ url: paged._links.next.href }))), [3, 2]);
    const bad: [string, string][] = [
      ['startDate=yesterday', "Field 'startDate' must be a valid date-time."],
      ['offset=0', "Query parameter 'offset' is not supported here."],
    ];
    for (const [query, message] of bad) {
      const response = await t().request({ url: `${url}?${query}` });
      assert.equal(response.statusCode, 400, query);
      assert.equal(json(response).message, message);
    }
  });

  test('security: a read token sees no create or action links and gets 403 on every write', async () => {
    const workplaceId = await createWorkplace(t(), 'DEV-SEC');
    const device = await createDevice(t(), {
      name: 'Sec',
      workplaceId,
      recordedPhysicalQuantities: [TEMPERATURE],
    });
    const read = { scopes: ['read'] };
    assert.deepEqual(
      json(await t().request({ url: `${BASE}/${device.id}`, ...read })),
      deviceBody(device, { write: false }),
    );
    for (const url of [`${BASE}?name=Sec`, `${WORKPLACES}/${workplaceId}/devices`]) {
      const list = json(await t().request({ url, ...read }));
      assert.equal('createDevice' in list._links, false, url);
      assert.deepEqual(list._embedded.devices, [deviceBody(device, { write: false })], url);
    }
    const series = json(await t().request({ url: `${BASE}/${device.id}/recordedTimeSeries`, ...read }));
    assert.equal('createRecordedTimeSeries' in series._links, false);

    const forbidden = {
      status: 403,
      code: 'INSUFFICIENT_SCOPE',
      message: "This request needs the scope 'write', which the access token does not grant.",
    };
    const writes = [
      { method: 'POST' as const, url: BASE, body: { name: 'Sec2', type: 'PLC', workplaceId } },
      {
        method: 'PUT' as const,
        url: `${BASE}/${device.id}`,
        body: { name: 'Sec3', type: 'PLC', workplaceId },
      },
      { method: 'DELETE' as const, url: `${BASE}/${device.id}` },
      {
        method: 'POST' as const,
        url: `${BASE}/${device.id}/recordedTimeSeries`,
        body: { elements: [{ tag: 'T1', timestamp: '2024-01-01T00:00:00Z', value: 1 }] },
      },
    ];
    for (const write of writes) {
      const response = await t().request({ ...write, ...read });
      assert.deepEqual(
        [response.statusCode, json(response)],
        [403, forbidden],
        `${write.method} ${write.url}`,
      );
    }
    const anonymous = await t().request({ url: `${BASE}/${device.id}/recordedTimeSeries`, anonymous: true });
    assert.equal(anonymous.statusCode, 401);
    assert.deepEqual(json(await t().request({ url: `${BASE}/${device.id}` })), deviceBody(device));
    assert.equal(await sampleCount(t(), device.id), 0);
  });
});
