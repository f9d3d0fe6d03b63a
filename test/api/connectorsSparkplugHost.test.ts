// The Sparkplug B host rules (docs/resources/connectors.md, "Sparkplug B"), against the Mosquitto
// at 127.0.0.1:1883 and an edge node played by a real MQTT client whose payloads sparkplug-payload
// encodes, with its NDEATH as the MQTT will (as edge nodes do): an NDEATH with an older bdSeq
// (a late will of an earlier session) is ignored and the node's data keeps flowing; the node's
// own death makes its values stale (the workplace in "no connection", CONNECTOR_VALUES_STALE,
// the error history); its rebirth books what the counter counted while it was away.
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
  waitForState,
} from '../support/connectors.ts';
import { BACKENDS } from '../support/databases.ts';
import { eventsOf } from '../support/events.ts';
import { type JsonObject, waitFor } from '../support/faults.ts';

const codec = sparkplug.get('spBv1.0');
const skip = await mosquittoMissing();

type Metric = { name?: string; alias?: number; type: string; value: unknown };
const encode = (payload: object) => Buffer.from(codec?.encodePayload(payload as never) as Uint8Array);

/** An edge node session: connected with its NDEATH (bdSeq) as the will, seq counted from its NBIRTH. */
class EdgeNode {
  readonly commands: JsonObject[] = [];
  #client: MqttClient | undefined;
  #seq = 0;
  readonly group: string;
  readonly node: string;
  constructor(group: string, node: string) {
    this.group = group;
    this.node = node;
  }

  topic(type: string, device?: string): string {
    return `spBv1.0/${this.group}/${type}/${this.node}${device ? `/${device}` : ''}`;
  }

  static death(bdSeq: number): Buffer {
    return encode({ timestamp: Date.now(), metrics: [{ name: 'bdSeq', type: 'UInt64', value: bdSeq }] });
  }

  /** A new session with `bdSeq`: connect (will = NDEATH), NBIRTH and DBIRTH of Press1. */
  async born(bdSeq: number, press: { state: string; pieces: number }): Promise<void> {
    this.#client = await mqtt.connectAsync({
      host: '127.0.0.1',
      port: 1883,
      will: { topic: this.topic('NDEATH'), payload: EdgeNode.death(bdSeq), qos: 1, retain: false },
    });
    this.#client.on('message', (_topic, payload) =>
      this.commands.push(codec?.decodePayload(payload) as JsonObject),
    );
    await this.#client.subscribeAsync(this.topic('NCMD'), { qos: 1 });
    this.#seq = 0;
    await this.send('NBIRTH', [
      { name: 'bdSeq', type: 'UInt64', value: bdSeq },
      { name: 'Node Control/Rebirth', alias: 9, type: 'Boolean', value: false },
    ]);
    await this.send(
      'DBIRTH',
      [
        { name: 'State', alias: 2, type: 'String', value: press.state },
        { name: 'Pieces', alias: 3, type: 'UInt32', value: press.pieces },
      ],
      'Press1',
    );
  }

  async send(type: string, metrics: Metric[], device?: string): Promise<void> {
    const seq = this.#seq;
    this.#seq = (this.#seq + 1) % 256;
    await this.#client?.publishAsync(
      this.topic(type, device),
      encode({ timestamp: Date.now(), seq, metrics }),
      {
        qos: 1,
      },
    );
  }

  /** Publishes an NDEATH as another client would deliver it (a late will of an earlier session). */
  async foreignDeath(bdSeq: number): Promise<void> {
    const other = await mqtt.connectAsync({ host: '127.0.0.1', port: 1883 });
    await other.publishAsync(this.topic('NDEATH'), EdgeNode.death(bdSeq), { qos: 1 });
    await other.endAsync();
  }

  /** The connection drops without a DISCONNECT: the broker publishes the will (NDEATH). */
  dies(): void {
    this.#client?.stream.destroy();
    this.#client?.end(true);
    this.#client = undefined;
  }

  async close(): Promise<void> {
    await this.#client?.endAsync(true);
  }
}

for (const backend of BACKENDS) {
  describe(`Sparkplug B host rules with an edge node [${backend}]`, { skip }, () => {
    let t: TestApp;
    let plant: Plant;
    let connector: JsonObject;
    const edge = new EdgeNode(`G${randomUUID().slice(0, 8)}`, 'Edge1');
    const status = async () => (await connectorNow(t, connector.id)).status;

    before(async () => {
      t = await startTestApp(backend);
      plant = await createPlant(t, `SPH-${backend}`);
      const source = (metric: string) => ({
        groupId: edge.group,
        edgeNodeId: edge.node,
        deviceId: 'Press1',
        metric,
      });
      connector = await createConnector(t, {
        name: 'Edge node host rules',
        type: 'SPARKPLUG_B',
        url: 'mqtt://127.0.0.1:1883',
        mappings: [
          {
            source: source('State'),
            target: {
              kind: 'OPERATING_STATE',
              workplaceId: plant.workplaceId,
              values: { RUN: '110', STOP: '410' },
            },
          },
          {
            source: source('Pieces'),
            target: { kind: 'OUTPUT_QUANTITY', workplaceId: plant.workplaceId, quantityType: 'YIELD' },
          },
        ],
      });
      await waitForState(t, connector.id, 'CONNECTED');
    });
    after(async () => {
      await edge.close();
      await t?.close();
    });

    test('a stale NDEATH (older bdSeq) is ignored: the live node keeps booking', async () => {
      await edge.born(1, { state: 'RUN', pieces: 10 });
      await waitFor('state 110', async () => (await operatingStateCode(t, plant.workplaceId)) === '110');
      await edge.foreignDeath(0);
      await waitFor('the stale death counted', async () =>
        /NDEATH with bdSeq 0 ignored/.test((await status()).lastError ?? ''),
      );
      await edge.send('DDATA', [{ alias: 3, type: 'UInt32', value: 12 }], 'Press1');
      await waitFor('2 pieces', async () => (await bookedQuantity(t, plant.operationId)) === 2);
      assert.equal(edge.commands.length, 0, 'no rebirth needed');
      assert.equal(await operatingStateCode(t, plant.workplaceId), '110');
      assert.deepEqual(await eventsOf(t, connector.id, 'CONNECTOR_VALUES_STALE'), []);
    });

    test("the node's death: stale values, no connection; its rebirth books what it counted meanwhile", async () => {
      edge.dies();
      await waitFor(
        'no connection (998)',
        async () => (await operatingStateCode(t, plant.workplaceId)) === '998',
      );
      const [stale] = await eventsOf(t, connector.id, 'CONNECTOR_VALUES_STALE');
      assert.equal(stale?.objectType, 'CONNECTOR');
      assert.deepEqual(stale?.data.workplaceIds, [plant.workplaceId]);
      assert.deepEqual(stale?.data.mappings, [0, 1]);
      assert.equal(stale?.data.operatingState, '998');
      assert.match(stale?.data.reason as string, /NDEATH/);
      const afterDeath = await status();
      assert.equal(afterDeath.state, 'CONNECTED', 'the broker is still there');
      // Both problems are kept, newest first.
      assert.deepEqual(
        afterDeath.recentErrors.slice(0, 2).map((error: JsonObject) => error.message.replace(/:.*/, '')),
        ['stale', `${edge.group}/${edge.node}`],
      );

      // Born again with a new bdSeq; the counter went on from 12 to 17 meanwhile.
      await edge.born(2, { state: 'RUN', pieces: 17 });
      await waitFor(
        'state 110 again',
        async () => (await operatingStateCode(t, plant.workplaceId)) === '110',
      );
      await waitFor('7 pieces', async () => (await bookedQuantity(t, plant.operationId)) === 7);
      assert.equal(await bookedQuantity(t, plant.operationId), 7);
    });
  });
}
