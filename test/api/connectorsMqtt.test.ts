// The MQTT connector against the Mosquitto at 127.0.0.1:1883, JSON and plain payloads published
// by a real client: the device's samples, the workplace's operating state and its history, and
// the operation's output quantities follow; the status says CONNECTED and counts. Bad input
// (malformed JSON, wrong types, unmapped values, missing paths, oversized payloads) is counted
// and described, and a flood on one topic is applied in full, within the bounded queue.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import mqtt, { type MqttClient } from 'mqtt';
import { json, startTestApp, type TestApp } from '../support/app.ts';
import {
  bookedQuantity,
  connectorNow,
  createConnector,
  createPlant,
  mosquittoMissing,
  operatingStateCode,
  type Plant,
  samplesOf,
  waitForState,
} from '../support/connectors.ts';
import { BACKENDS } from '../support/databases.ts';
import { eventsOf } from '../support/events.ts';
import { type JsonObject, waitFor } from '../support/faults.ts';

const API = '/api/v2';
const skip = await mosquittoMissing();

for (const backend of BACKENDS) {
  describe(`MQTT connector with Mosquitto [${backend}]`, { skip }, () => {
    let t: TestApp;
    let plant: Plant;
    let publisher: MqttClient;
    let connector: JsonObject;
    // A real HTTP receiver of the workplace's state changes: what a callback's subscriber sees.
    let receiver: Server;
    const received: { code: string; at: number }[] = [];
    const prefix = `bridge-test/${randomUUID()}`;
    const publish = (topic: string, payload: string | Buffer) =>
      publisher.publishAsync(`${prefix}/${topic}`, payload, { qos: 1 });

    before(async () => {
      t = await startTestApp(backend);
      plant = await createPlant(t, `MQ-${backend}`);
      receiver = createServer((request, response) => {
        let body = '';
        request.on('data', (chunk) => {
          body += chunk;
        });
        request.on('end', () => {
          const data = JSON.parse(body).properties.data;
          received.push({ code: data.currentOperatingState.code, at: Date.now() });
          response.writeHead(200).end();
        });
      });
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
      const callback = await t.request({
        method: 'POST',
        url: `${API}/callbacks`,
        body: {
          eventType: 'WORKPLACE_OPERATING_STATE_CHANGED',
          url: `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`,
          objectFilter: [{ name: 'id', value: plant.workplaceId }],
        },
      });
      assert.equal(callback.statusCode, 201, callback.body);
      publisher = await mqtt.connectAsync({ host: '127.0.0.1', port: 1883, reconnectPeriod: 100 });
      connector = await createConnector(t, {
        name: 'Press MQTT',
        type: 'MQTT',
        url: 'mqtt://127.0.0.1:1883',
        mappings: [
          {
            source: { topic: `${prefix}/+/temp`, valuePath: '/value', timestampPath: '/ts' },
            target: { kind: 'DEVICE_SAMPLE', deviceId: plant.deviceId, tag: 'temperature' },
          },
          {
            source: { topic: `${prefix}/state` },
            target: {
              kind: 'OPERATING_STATE',
              workplaceId: plant.workplaceId,
              values: { RUN: '110', STOP: '410' },
            },
          },
          {
            source: { topic: `${prefix}/count`, valuePath: '/counter/value' },
            target: { kind: 'OUTPUT_QUANTITY', workplaceId: plant.workplaceId, quantityType: 'YIELD' },
          },
        ],
      });
    });
    after(async () => {
      await publisher?.endAsync(true);
      await t?.close();
      await new Promise((resolve) => receiver?.close(resolve));
    });

    test('connects, and every mapped value changes the plant image and reaches the callback', async (context) => {
      await waitForState(t, connector.id, 'CONNECTED');
      await publish('m1/temp', JSON.stringify({ value: 71.5, ts: '2026-01-01T00:00:00.000Z' }));
      await publish('m2/temp', JSON.stringify({ value: 72, ts: 1767225601000 }));
      await publish('state', 'RUN');
      await publish('count', JSON.stringify({ counter: { value: 100 } }));
      await publish('count', JSON.stringify({ counter: { value: 103 } }));
      await publish('count', JSON.stringify({ counter: { value: 104 } }));
      // A reset: counting starts again from zero.
      await publish('count', JSON.stringify({ counter: { value: 2 } }));

      await waitFor('two samples', async () => (await samplesOf(t, plant.deviceId)).length === 2);
      const samples = await samplesOf(t, plant.deviceId);
      assert.deepEqual(
        samples.map((sample) => [sample.tag, sample.value, sample.timestamp]),
        [
          ['temperature', 72, '2026-01-01T00:00:01.000Z'],
          ['temperature', 71.5, '2026-01-01T00:00:00.000Z'],
        ],
      );
      await waitFor('state 110', async () => (await operatingStateCode(t, plant.workplaceId)) === '110');
      const history = json(
        await t.request({ url: `${API}/workplaces/${plant.workplaceId}/recordedOperatingStates` }),
      );
      assert.equal(history._embedded.recordedOperatingStates.length, 2, 'the initial state and RUN');
      await waitFor('6 pieces booked', async () => (await bookedQuantity(t, plant.operationId)) === 6, {
        describe: () => 'pieces',
      });

      // The same state again is no change: no second event.
      await publish('state', 'RUN');
      const stopAt = Date.now();
      await publish('state', 'STOP');
      await waitFor('state 410', async () => (await operatingStateCode(t, plant.workplaceId)) === '410');
      // Both changes reach the subscriber's endpoint, in order.
      await waitFor('two deliveries', () => received.length === 2);
      assert.deepEqual(
        received.map((delivery) => delivery.code),
        ['110', '410'],
      );
      context.diagnostic(`MQTT STOP published -> callback received: ${(received[1]?.at ?? 0) - stopAt} ms`);
      const changes = await eventsOf(t, plant.workplaceId, 'WORKPLACE_OPERATING_STATE_CHANGED');
      assert.deepEqual(
        changes.map((event) => (event.data.currentOperatingState as JsonObject).code),
        ['110', '410'],
      );

      const status = (await connectorNow(t, connector.id)).status;
      assert.equal(status.state, 'CONNECTED');
      assert.equal(status.messagesReceived, 9);
      assert.equal(status.valuesApplied, 9);
      assert.equal(status.valuesRejected, 0);
      assert.equal(status.lastError, null);
      assert.ok(status.lastMessageAt);
      const states = await eventsOf(t, connector.id, 'CONNECTOR_STATE_CHANGED');
      assert.equal(states.at(-1)?.data.currentState, 'CONNECTED');
    });

    test('bad input is counted and described, never applied', async () => {
      const before = (await connectorNow(t, connector.id)).status;
      const samplesBefore = (await samplesOf(t, plant.deviceId)).length;
      const bad: [string, string | Buffer][] = [
        ['m1/temp', '{"value": 7'],
        ['m1/temp', JSON.stringify({ value: 'hot', ts: '2026-01-01T00:00:02.000Z' })],
        ['m1/temp', JSON.stringify({ reading: 1, ts: '2026-01-01T00:00:02.000Z' })],
        ['m1/temp', JSON.stringify({ value: 1, ts: 'yesterday' })],
        ['state', 'MAINTENANCE'],
        ['count', JSON.stringify({ counter: { value: 1.5 } })],
        ['m1/temp', Buffer.alloc(70 * 1024, 'x')],
      ];
      for (const [topic, payload] of bad) await publish(topic, payload);
      const after = await waitFor(
        'seven rejections',
        async () => {
          const now = (await connectorNow(t, connector.id)).status;
          return now.valuesRejected - before.valuesRejected >= 7 && now;
        },
        { describe: () => 'rejections' },
      );
      assert.equal(after.valuesRejected - before.valuesRejected, 7);
      assert.equal(after.valuesApplied, before.valuesApplied);
      assert.equal(after.messagesReceived - before.messagesReceived, 7);
      assert.match(after.lastError, /exceeds/);
      assert.equal(after.state, 'CONNECTED');
      assert.equal((await samplesOf(t, plant.deviceId)).length, samplesBefore);
      assert.equal(await operatingStateCode(t, plant.workplaceId), '410');
    });

    test('a flood on one topic is applied in full, in batches', async () => {
      const before = (await connectorNow(t, connector.id)).status;
      const samplesBefore = 2;
      // 1000: what Mosquitto queues for one subscriber by default (max_queued_messages), so a
      // connector slowed by a loaded machine still gets every message.
      const flood = 1000;
      const base = Date.parse('2026-02-01T00:00:00.000Z');
      for (let start = 0; start < flood; start += 100) {
        await Promise.all(
          Array.from({ length: 100 }, (_, offset) =>
            publish('m3/temp', JSON.stringify({ value: start + offset, ts: base + start + offset })),
          ),
        );
      }
      await waitFor(
        'the flood applied',
        async () =>
          (await connectorNow(t, connector.id)).status.valuesApplied - before.valuesApplied === flood,
        { timeoutMs: 60_000 },
      );
      const stored = await t.app.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM recorded_time_series WHERE device_id = $1',
        [plant.deviceId],
      );
      assert.equal(stored[0]?.n, samplesBefore + flood);
      const status = (await connectorNow(t, connector.id)).status;
      assert.equal(status.messagesReceived - before.messagesReceived, flood);
      assert.equal(status.valuesRejected, before.valuesRejected);
    });

    test('disabled, the connector stops and says DISABLED', async () => {
      const { id, status: _status, ...config } = await connectorNow(t, connector.id);
      const response = await t.request({
        method: 'PUT',
        url: `${API}/connectors/${id}`,
        body: { ...config, enabled: false },
      });
      assert.equal(response.statusCode, 200, response.body);
      await t.app.connectors?.nextCycle();
      assert.equal(t.app.connectors?.running.has(id), false);
      assert.equal((await connectorNow(t, id)).status.state, 'DISABLED');
      const states = await eventsOf(t, id, 'CONNECTOR_STATE_CHANGED');
      assert.equal(states.at(-1)?.data.currentState, 'DISABLED');
    });
  });
}
