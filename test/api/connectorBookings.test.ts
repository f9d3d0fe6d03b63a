// Where a connector's pieces are booked (docs/resources/connectors.md, "Piece counters"), with a
// real MQTT publisher through the Mosquitto at 127.0.0.1:1883: with no operation in PROCESSING on
// the workplace itself (in its quantity summary and OEE, with WORKPLACE_OUTPUT_QUANTITY_RECORDED);
// with several in PROCESSING on the one that entered PROCESSING last, and the event names them
// all. And a message without its timestamp field is rejected as missing.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import mqtt, { type MqttClient } from 'mqtt';
import { createOperation, createWorkplace, json, startTestApp, type TestApp } from '../support/app.ts';
import {
  bookedQuantity,
  connectorNow,
  createConnector,
  mosquittoMissing,
  waitForState,
} from '../support/connectors.ts';
import { BACKENDS } from '../support/databases.ts';
import { eventsOf } from '../support/events.ts';
import { type JsonObject, waitFor } from '../support/faults.ts';

const API = '/api/v2';
const skip = await mosquittoMissing();

for (const backend of BACKENDS) {
  describe(`connector bookings at a workplace [${backend}]`, { skip }, () => {
    let t: TestApp;
    let publisher: MqttClient;
    let workplaceId: string;
    let connector: JsonObject;
    const base = `bridge-test/${randomUUID()}`;
    const startedAt = new Date(Date.now() - 60_000);
    const publish = (topic: string, payload: string) =>
      publisher.publishAsync(`${base}/${topic}`, payload, { qos: 1 });
    const get = async (url: string) => {
      const response = await t.request({ url: `${API}${url}` });
      assert.equal(response.statusCode, 200, response.body);
      return json(response);
    };
    const window = () =>
      new URLSearchParams({
        startDate: startedAt.toISOString(),
        endDate: new Date(Date.now() + 60_000).toISOString(),
      }).toString();
    const status = async () => (await connectorNow(t, connector.id)).status;
    const processing = async (operationId: string) => {
      for (const phase of ['DISPATCHED', 'PROCESSING']) {
        const response = await t.request({
          method: 'POST',
          url: `${API}/operations/${operationId}/${phase}`,
        });
        assert.equal(response.statusCode, 200, response.body);
      }
    };

    before(async () => {
      t = await startTestApp(backend);
      workplaceId = await createWorkplace(t, `BOOK-${backend}`);
      publisher = await mqtt.connectAsync({ host: '127.0.0.1', port: 1883 });
      connector = await createConnector(t, {
        name: 'Counter between orders',
        type: 'MQTT',
        url: 'mqtt://127.0.0.1:1883',
        mappings: [
          {
            source: { topic: `${base}/count` },
            target: { kind: 'OUTPUT_QUANTITY', workplaceId, quantityType: 'YIELD' },
          },
          {
            source: { topic: `${base}/timed`, valuePath: '/value', timestampPath: '/ts' },
            target: { kind: 'OUTPUT_QUANTITY', workplaceId, quantityType: 'SCRAP' },
          },
        ],
      });
      await waitForState(t, connector.id, 'CONNECTED');
    });
    after(async () => {
      await publisher?.endAsync(true);
      await t?.close();
    });

    test('no operation in PROCESSING: the pieces are booked on the workplace, in its summary and OEE', async () => {
      await publish('count', '10');
      await waitFor('the baseline applied', async () => (await status()).valuesApplied === 1);
      await publish('count', '13');
      await waitFor(
        'the booking event',
        async () => (await eventsOf(t, workplaceId, 'WORKPLACE_OUTPUT_QUANTITY_RECORDED')).length === 1,
      );
      const [event] = await eventsOf(t, workplaceId, 'WORKPLACE_OUTPUT_QUANTITY_RECORDED');
      assert.equal(event?.objectType, 'WORKPLACE');
      assert.deepEqual(
        { ...event?.data, recordedWorkplaceOutputQuantityId: undefined, timestamp: undefined },
        {
          workplaceId,
          recordedWorkplaceOutputQuantityId: undefined,
          quantity: 3,
          quantityType: 'YIELD',
          timestamp: undefined,
          connectorId: connector.id,
          qualityDetailId: null,
        },
      );
      const summary = (await get(`/workplaces/${workplaceId}/quantitySummary?${window()}`)).properties;
      assert.equal(summary.totalQuantity, 3);
      assert.deepEqual(summary.elements[0].quantities, { yield: 3, scrap: 0, rework: 0, uncategorized: 0 });
      const oee = (await get(`/reports/overallEquipmentEfficiency?workplaceId=${workplaceId}&${window()}`))
        .properties;
      assert.equal(oee.totalQuantity, 3);
      assert.equal(oee.yieldQuantity, 3);
      assert.equal((await status()).valuesRejected, 0);
    });

    test('two operations in PROCESSING: booked on the one started last; the event names both', async () => {
      const first = await createOperation(t, `BOOK-${backend}-1`, { workplaceId });
      const second = await createOperation(t, `BOOK-${backend}-2`, { workplaceId });
      await processing(first);
      await processing(second);
      await publish('count', '15');
      await waitFor('2 pieces on the second', async () => (await bookedQuantity(t, second)) === 2);
      assert.equal(await bookedQuantity(t, first), 0);
      const [event] = await eventsOf(t, second, 'OPERATION_OUTPUT_QUANTITY_RECORDED');
      assert.equal(event?.data.connectorId, connector.id);
      assert.deepEqual(event?.data.operationsInProcessing, [second, first]);
      const summary = (await get(`/workplaces/${workplaceId}/quantitySummary?${window()}`)).properties;
      assert.equal(summary.totalQuantity, 5, 'the workplace booking and the operation booking');
    });

    test('a message without its timestamp field is rejected as missing', async () => {
      const before = await status();
      await publish('timed', JSON.stringify({ value: 4 }));
      const after = await waitFor('one rejection', async () => {
        const now = await status();
        return now.valuesRejected > before.valuesRejected && now;
      });
      assert.equal(after.lastError, `'${base}/timed': payload has no timestamp at '/ts'`);
      assert.equal(after.recentErrors[0].message, after.lastError);
    });
  });
}
