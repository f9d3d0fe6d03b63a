// Values JSON and URLs can carry but the database cannot hold faithfully: lone UTF-16 surrogates
// (jsonb refuses them, text stores U+FFFD) and numbers beyond double precision (1e400 is Infinity,
// which jsonb and integer columns cannot hold). Each is a 400 naming the field or parameter, and
// nothing stored changes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createOperation, createWorkplace, describeEachBackend, json, type TestApp } from '../support/app.ts';

const ENV = { BRIDGE_DELIVERY_ENABLED: 'false' };

/** The answer must be 400 VALIDATION_FAILED with a message that names `field`. */
function assertNamesField(response: { statusCode: number; body: string }, field: string) {
  assert.equal(response.statusCode, 400, response.body);
  const body = JSON.parse(response.body) as { code: string; message: string; status: number };
  assert.equal(body.code, 'VALIDATION_FAILED', response.body);
  assert.equal(body.status, 400);
  assert.ok(body.message.includes(`'${field}'`), `${body.message} should name '${field}'`);
}

const countOf = async (t: TestApp, table: string) =>
  ((await t.app.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`))[0] as { n: number }).n;

// A JSON text with a lone surrogate escape in it: JSON.stringify would escape it the same way.
const LONE_HIGH = '"a\\ud800b"';
const LONE_LOW = '"\\udc00"';

describeEachBackend(
  'hostile values',
  (t) => {
    test('a lone surrogate in a string that goes into jsonb is a 400 naming the field', async () => {
      const events = await countOf(t(), 'events');
      const response = await t().request({
        method: 'POST',
        url: '/api/v2/workplaceGroups',
        body: `{"number": ${LONE_HIGH}, "type": "CAPACITY_GROUP"}`,
      });
      assertNamesField(response, 'number');
      assert.equal(await countOf(t(), 'events'), events);
      assert.equal(await countOf(t(), 'workplace_groups'), 0);
    });

    test('a lone surrogate in a text-only field is not stored as U+FFFD', async () => {
      const workplace = await createWorkplace(t(), 'HV-1');
      const response = await t().request({
        method: 'POST',
        url: `/api/v2/workplaces/${workplace}/shifts`,
        body: `{"name": ${LONE_LOW}, "startDate": "2099-01-01T06:00:00Z", "endDate": "2099-01-01T14:00:00Z"}`,
      });
      assertNamesField(response, 'name');
      assert.equal(await countOf(t(), 'shifts'), 0);
    });

    test('a lone surrogate deep in the data of an EXTERNAL event names its path', async () => {
      const events = await countOf(t(), 'events');
      const response = await t().request({
        method: 'POST',
        url: '/api/v2/events',
        body: `{"eventType": "EXTERNAL", "data": {"a": {"b": [1, ${LONE_HIGH}]}}}`,
      });
      assertNamesField(response, 'data.a.b.1');
      const inKey = await t().request({
        method: 'POST',
        url: '/api/v2/events',
        body: `{"eventType": "EXTERNAL", "data": {${LONE_LOW}: 1}}`,
      });
      assert.equal(inKey.statusCode, 400, inKey.body);
      assert.equal(json(inKey).code, 'VALIDATION_FAILED');
      assert.equal(await countOf(t(), 'events'), events);
    });

    test('well-formed surrogate pairs (emoji) are accepted and read back unchanged', async () => {
      const response = await t().request({
        method: 'POST',
        url: '/api/v2/events',
        body: '{"eventType": "EXTERNAL", "eventName": "\\ud83d\\ude00", "data": {"\\ud83c\\udf89": "\\ud83d\\ude00"}}',
      });
      assert.equal(response.statusCode, 201, response.body);
      const read = json(await t().request({ url: `/api/v2/events/${json(response).properties.id}` }));
      assert.equal(read.properties.eventName, '😀');
      assert.deepEqual(read.properties.data, { '🎉': '😀' });
    });

    test('a percent-encoded lone surrogate in a query string is a 400 naming the parameter', async () => {
      // %ED%A0%80 is U+D800 encoded as if it were UTF-8: not valid UTF-8 at all.
      const response = await t().request({ url: '/api/v2/events?eventType=a%ED%A0%80b' });
      assertNamesField(response, 'eventType');
    });

    test('a percent-encoded lone surrogate in a path is no route (404), not U+FFFD', async () => {
      for (const url of ['/api/v2/workplaces/%ED%A0%80', '/api/v2/workplaceGroups/a%ED%B0%80b']) {
        const response = await t().request({ url });
        assert.equal(response.statusCode, 404, response.body);
        assert.equal(json(response).code, 'ROUTE_NOT_FOUND');
      }
    });

    test('1e400 as a query offset is a 400 naming the parameter', async () => {
      for (const url of ['/api/v2/workplaces', '/api/v2/devices', '/api/v2/workplaceGroups']) {
        assertNamesField(await t().request({ url: `${url}?offset=1e400` }), 'offset');
        assertNamesField(await t().request({ url: `${url}?limit=1e400` }), 'limit');
        assertNamesField(await t().request({ url: `${url}?offset=-1e400` }), 'offset');
      }
    });

    test('1e400 in an integer field of a body is a 400 naming the field', async () => {
      const operation = await createOperation(t(), 'HV-OP1');
      const before = json(await t().request({ url: `/api/v2/operations/${operation}` })).properties;
      const response = await t().request({
        method: 'PUT',
        url: `/api/v2/operations/${operation}`,
        body: `{"productionOrderId": "${before.productionOrderId}", "number": "HV-OP1", "targetSetupTime": 1e400}`,
      });
      assertNamesField(response, 'targetSetupTime');
      const order = await t().request({
        method: 'POST',
        url: '/api/v2/tools/assemblyOrders',
        body: '{"toolDescription": "HV", "lifespan": {"maximum": 1e400}}',
      });
      assertNamesField(order, 'lifespan.maximum');
    });

    test('a sensor value of 1e400 is a 400 naming the field, never stored as Infinity', async () => {
      const workplace = await createWorkplace(t(), 'HV-2');
      const device = await t().request({
        method: 'POST',
        url: '/api/v2/devices',
        body: {
          name: 'HV-D1',
          type: 'PLC',
          workplaceId: workplace,
          recordedPhysicalQuantities: [{ tag: 't' }],
        },
      });
      assert.equal(device.statusCode, 201, device.body);
      const samples = await countOf(t(), 'recorded_time_series');
      for (const value of ['1e400', '-1e400']) {
        const response = await t().request({
          method: 'POST',
          url: `/api/v2/devices/${json(device).properties.id}/recordedTimeSeries`,
          body: `{"elements": [{"tag": "t", "timestamp": "2099-01-01T00:00:00Z", "value": ${value}}]}`,
        });
        assertNamesField(response, 'elements.0.value');
      }
      assert.equal(await countOf(t(), 'recorded_time_series'), samples);
    });

    test('1e400 in the free-form data of an EXTERNAL event is a 400, not null', async () => {
      const response = await t().request({
        method: 'POST',
        url: '/api/v2/events',
        body: '{"eventType": "EXTERNAL", "data": {"reading": {"value": 1e400}}}',
      });
      assertNamesField(response, 'data.reading.value');
    });
  },
  ENV,
);
