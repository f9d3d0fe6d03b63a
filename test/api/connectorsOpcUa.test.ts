// The OPC UA connector against a node-opcua server started here, simulating a machine (state
// text, piece counter, temperature) that the test changes: the workplace's operating state, the
// operation's output quantities and the device's samples follow, the status says CONNECTED; the
// server stopped and started again, the connector recovers by itself.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../support/app.ts';
import {
  bookedQuantity,
  connectorNow,
  createConnector,
  createPlant,
  operatingStateCode,
  type Plant,
  samplesOf,
  waitForState,
} from '../support/connectors.ts';
import { BACKENDS } from '../support/databases.ts';
import { eventsOf } from '../support/events.ts';
import { closeAll, type JsonObject, waitFor } from '../support/faults.ts';
import { MACHINE_NODES, SimulatedMachine } from '../support/opcuaMachine.ts';

for (const backend of BACKENDS) {
  describe(`OPC UA connector with a simulated machine [${backend}]`, () => {
    let t: TestApp | undefined;
    let machine: SimulatedMachine | undefined;
    let plant: Plant;
    let connector: JsonObject;
    const app = () => t as TestApp;
    const sim = () => machine as SimulatedMachine;
    const temperatures = async () => (await samplesOf(app(), plant.deviceId)).map((sample) => sample.value);

    before(async () => {
      machine = await SimulatedMachine.start();
      t = await startTestApp(backend);
      plant = await createPlant(app(), `UA-${backend}`);
      connector = await createConnector(app(), {
        name: 'Lathe OPC UA',
        type: 'OPC_UA',
        url: sim().url,
        securityMode: 'None',
        mappings: [
          {
            source: { nodeId: MACHINE_NODES.state },
            target: {
              kind: 'OPERATING_STATE',
              workplaceId: plant.workplaceId,
              values: { RUN: '110', STOP: '410' },
            },
          },
          {
            source: { nodeId: MACHINE_NODES.pieces, samplingIntervalMs: 50 },
            target: { kind: 'OUTPUT_QUANTITY', workplaceId: plant.workplaceId, quantityType: 'YIELD' },
          },
          {
            source: { nodeId: MACHINE_NODES.temperature },
            target: { kind: 'DEVICE_SAMPLE', deviceId: plant.deviceId, tag: 'temperature' },
          },
        ],
      });
    });
    after(() => closeAll(t, machine));

    test('connects; the machine changes the workplace, the operation and the device', async (context) => {
      await waitForState(app(), connector.id, 'CONNECTED');
      // The initial values: STOP, the counter's baseline, 20 degrees.
      await waitFor('state 410', async () => (await operatingStateCode(app(), plant.workplaceId)) === '410');
      await waitFor('first sample', async () => (await temperatures()).includes(20));

      const runAt = Date.now();
      sim().set({ state: 'RUN', pieces: 3, temperature: 25.5 });
      await waitFor('state 110', async () => (await operatingStateCode(app(), plant.workplaceId)) === '110');
      context.diagnostic(`OPC UA value changed -> operating state read back: ${Date.now() - runAt} ms`);
      await waitFor('3 pieces', async () => (await bookedQuantity(app(), plant.operationId)) === 3);
      await waitFor('sample 25.5', async () => (await temperatures()).includes(25.5));
      sim().set({ pieces: 4 });
      await waitFor('4 pieces', async () => (await bookedQuantity(app(), plant.operationId)) === 4);

      const status = (await connectorNow(app(), connector.id)).status;
      assert.equal(status.state, 'CONNECTED');
      assert.equal(status.valuesRejected, 0, status.lastError);
      assert.ok(status.valuesApplied >= 7, JSON.stringify(status));
      assert.ok(status.messagesReceived >= 7);
      const changes = await eventsOf(app(), plant.workplaceId, 'WORKPLACE_OPERATING_STATE_CHANGED');
      assert.deepEqual(
        changes.map((event) => (event.data.currentOperatingState as JsonObject).code),
        ['410', '110'],
      );
    });

    test('the server stopped and started again: the connector recovers by itself', async () => {
      await sim().stop();
      await waitForState(app(), connector.id, 'DISCONNECTED');
      await sim().start();
      await waitForState(app(), connector.id, 'CONNECTED', 60_000);
      sim().set({ state: 'STOP', pieces: 6, temperature: 30 });
      await waitFor(
        'state 410 again',
        async () => (await operatingStateCode(app(), plant.workplaceId)) === '410',
        {
          timeoutMs: 30_000,
        },
      );
      await waitFor('6 pieces', async () => (await bookedQuantity(app(), plant.operationId)) === 6, {
        timeoutMs: 30_000,
      });
      await waitFor('sample 30', async () => (await temperatures()).includes(30), { timeoutMs: 30_000 });
      const states = (await eventsOf(app(), connector.id, 'CONNECTOR_STATE_CHANGED')).map(
        (event) => event.data.currentState,
      );
      assert.deepEqual(states.slice(-2), ['DISCONNECTED', 'CONNECTED']);
    });

    test('SignAndEncrypt: a secured session reads the machine as well', async () => {
      const secured = await createConnector(app(), {
        name: 'Lathe OPC UA secured',
        type: 'OPC_UA',
        url: sim().url,
        securityMode: 'SignAndEncrypt',
        mappings: [
          {
            source: { nodeId: MACHINE_NODES.temperature },
            target: { kind: 'DEVICE_SAMPLE', deviceId: plant.deviceId, tag: 'temperature' },
          },
        ],
      });
      await waitForState(app(), secured.id, 'CONNECTED', 60_000);
      sim().set({ temperature: 41.25 });
      await waitFor('sample 41.25', async () => (await temperatures()).includes(41.25), {
        timeoutMs: 30_000,
      });
      assert.equal((await connectorNow(app(), secured.id)).status.valuesRejected, 0);
    });
  });
}
