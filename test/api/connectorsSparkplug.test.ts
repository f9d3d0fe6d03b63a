// The Sparkplug B connector against the Mosquitto at 127.0.0.1:1883, with an edge node played by
// a real MQTT client whose payloads are encoded by sparkplug-payload (the package edge nodes
// use): birth certificates give the aliases, data by alias is applied, a seq gap or data
// without a birth asks for a rebirth (NCMD Node Control/Rebirth), an unknown alias or a payload
// that is no Sparkplug is counted, NDEATH makes the node's values stale.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import mqtt, { type MqttClient } from 'mqtt';
import sparkplug from 'sparkplug-payload';
import { startTestApp, type TestApp } from '../support/app.ts';
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
import { type JsonObject, waitFor } from '../support/faults.ts';

const codec = sparkplug.get('spBv1.0');
const skip = await mosquittoMissing();

type Metric = { name?: string; alias?: number; type: string; value: unknown };

for (const backend of BACKENDS) {
  describe(`Sparkplug B connector with Mosquitto [${backend}]`, { skip }, () => {
    let t: TestApp;
    let plant: Plant;
    let edge: MqttClient;
    let connector: JsonObject;
    const group = `G${randomUUID().slice(0, 8)}`;
    const node = 'Edge1';
    const commands: JsonObject[] = [];
    const send = (type: string, seq: number, metrics: Metric[], device?: string) =>
      edge.publishAsync(
        `spBv1.0/${group}/${type}/${node}${device ? `/${device}` : ''}`,
        Buffer.from(codec?.encodePayload({ timestamp: Date.now(), seq, metrics } as never) as Uint8Array),
        { qos: 1 },
      );
    const birth = async () => {
      await send('NBIRTH', 0, [
        { name: 'Temperature', alias: 1, type: 'Double', value: 20 },
        { name: 'Node Control/Rebirth', alias: 9, type: 'Boolean', value: false },
      ]);
      await send(
        'DBIRTH',
        1,
        [
          { name: 'State', alias: 2, type: 'String', value: 'STOP' },
          { name: 'Pieces', alias: 3, type: 'UInt32', value: 0 },
        ],
        'Press1',
      );
    };
    const status = async () => (await connectorNow(t, connector.id)).status;

    before(async () => {
      t = await startTestApp(backend);
      plant = await createPlant(t, `SP-${backend}`);
      edge = await mqtt.connectAsync({ host: '127.0.0.1', port: 1883 });
      edge.on('message', (_topic, payload) => commands.push(codec?.decodePayload(payload) as JsonObject));
      await edge.subscribeAsync(`spBv1.0/${group}/NCMD/${node}`, { qos: 1 });
      const source = (metric: string, device?: string) => ({
        groupId: group,
        edgeNodeId: node,
        ...(device ? { deviceId: device } : {}),
        metric,
      });
      connector = await createConnector(t, {
        name: 'Edge node',
        type: 'SPARKPLUG_B',
        url: 'mqtt://127.0.0.1:1883',
        mappings: [
          {
            source: source('Temperature'),
            target: { kind: 'DEVICE_SAMPLE', deviceId: plant.deviceId, tag: 'temperature' },
          },
          {
            source: source('State', 'Press1'),
            target: {
              kind: 'OPERATING_STATE',
              workplaceId: plant.workplaceId,
              values: { RUN: '110', STOP: '410' },
            },
          },
          {
            source: source('Pieces', 'Press1'),
            target: { kind: 'OUTPUT_QUANTITY', workplaceId: plant.workplaceId, quantityType: 'YIELD' },
          },
        ],
      });
      await waitForState(t, connector.id, 'CONNECTED');
    });
    after(async () => {
      await edge?.endAsync(true);
      await t?.close();
    });

    test('births give the aliases; data by alias changes the plant image', async () => {
      await birth();
      await send('NDATA', 2, [{ alias: 1, type: 'Double', value: 21.5 }]);
      await send(
        'DDATA',
        3,
        [
          { alias: 2, type: 'String', value: 'RUN' },
          { alias: 3, type: 'UInt32', value: 5 },
        ],
        'Press1',
      );
      await waitFor('state 110', async () => (await operatingStateCode(t, plant.workplaceId)) === '110');
      await waitFor('5 pieces', async () => (await bookedQuantity(t, plant.operationId)) === 5);
      await waitFor('two samples', async () => (await samplesOf(t, plant.deviceId)).length === 2);
      assert.deepEqual((await samplesOf(t, plant.deviceId)).map((sample) => sample.value).sort(), [20, 21.5]);
      const now = await status();
      assert.equal(now.valuesRejected, 0, now.lastError);
      assert.equal(now.messagesReceived, 4);
      assert.equal(commands.length, 0, 'no rebirth was needed');
    });

    test('a seq gap asks for a rebirth; after it, an unknown alias and a foreign payload are counted', async () => {
      const before = await status();
      await send('NDATA', 7, [{ alias: 1, type: 'Double', value: 99 }]);
      await waitFor('a rebirth request', () => commands.length === 1);
      assert.deepEqual(
        ((commands[0] as JsonObject).metrics as JsonObject[]).map((metric) => [metric.name, metric.value]),
        [['Node Control/Rebirth', true]],
      );
      await birth();
      await send('DDATA', 2, [{ alias: 42, type: 'Double', value: 1 }], 'Press1');
      await edge.publishAsync(`spBv1.0/${group}/NDATA/${node}`, Buffer.from('not protobuf {'), { qos: 1 });
      const after = await waitFor('three rejections', async () => {
        const now = await status();
        return now.valuesRejected - before.valuesRejected >= 3 && now;
      });
      assert.equal(after.valuesRejected - before.valuesRejected, 3);
      assert.ok(
        !(await samplesOf(t, plant.deviceId)).some((sample) => sample.value === 99),
        'the gap value is not applied',
      );
    });

    test('NDEATH makes the values stale', async () => {
      await edge.publishAsync(
        `spBv1.0/${group}/NDEATH/${node}`,
        Buffer.from(
          codec?.encodePayload({
            timestamp: Date.now(),
            metrics: [{ name: 'bdSeq', type: 'UInt64', value: 0 }],
          } as never) as Uint8Array,
        ),
        { qos: 1 },
      );
      await waitFor('stale', async () => /stale/.test((await status()).lastError ?? ''));
      assert.equal((await status()).state, 'CONNECTED');
    });
  });
}
