// The OPC UA connector's status is the truth (docs/resources/connectors.md, "Status" and "Stale
// values"), against a real node-opcua server: a server that comes back offering only
// SignAndEncrypt leaves a None connector not CONNECTED, retried under its own backoff without
// state changes, the workplace in "no connection" (998) with CONNECTOR_VALUES_STALE; when the
// server offers None again the connector reconnects, reads the counter and books what it counted
// meanwhile. And every connection attempt goes through the address policy: a host name that
// resolves to a denied address after a restart of the server is not connected to.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { systemClock } from '../../src/background/clock.ts';
import { ConnectorManager } from '../../src/connectors/manager.ts';
import { AddressPolicy } from '../../src/net/addressPolicy.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import {
  bookedQuantity,
  connectorNow,
  createConnector,
  createPlant,
  operatingStateCode,
  type Plant,
  waitForState,
} from '../support/connectors.ts';
import { BACKENDS } from '../support/databases.ts';
import { eventsOf } from '../support/events.ts';
import { closeAll, type JsonObject, waitFor } from '../support/faults.ts';
import { MACHINE_NODES, SimulatedMachine } from '../support/opcuaMachine.ts';

const quiet = { warn() {}, info() {} };

const machineMappings = (plant: Plant) => [
  {
    source: { nodeId: MACHINE_NODES.state },
    target: { kind: 'OPERATING_STATE', workplaceId: plant.workplaceId, values: { RUN: '110', STOP: '410' } },
  },
  {
    source: { nodeId: MACHINE_NODES.pieces, samplingIntervalMs: 50 },
    target: { kind: 'OUTPUT_QUANTITY', workplaceId: plant.workplaceId, quantityType: 'YIELD' },
  },
];

for (const backend of BACKENDS) {
  describe(`OPC UA connector status against a real server [${backend}]`, () => {
    let t: TestApp | undefined;
    let machine: SimulatedMachine | undefined;
    const app = () => t as TestApp;
    const sim = () => machine as SimulatedMachine;

    before(async () => {
      machine = await SimulatedMachine.start();
      t = await startTestApp(backend);
    });
    after(() => closeAll(t, machine));

    test('a server offering only SignAndEncrypt: never CONNECTED, stale, then the counter is caught up', async () => {
      const plant = await createPlant(app(), `UA-TRUTH-${backend}`);
      const connector = await createConnector(app(), {
        name: 'None connector',
        type: 'OPC_UA',
        url: sim().url,
        securityMode: 'None',
        mappings: machineMappings(plant),
      });
      await waitForState(app(), connector.id, 'CONNECTED');
      await waitFor('state 410', async () => (await operatingStateCode(app(), plant.workplaceId)) === '410');
      sim().set({ pieces: 3 });
      await waitFor('3 pieces', async () => (await bookedQuantity(app(), plant.operationId)) === 3);

      await sim().stop();
      await waitForState(app(), connector.id, 'DISCONNECTED');
      const lostAt = (await connectorNow(app(), connector.id)).status;
      sim().set({ pieces: 5 });
      await sim().start({ secureOnly: true });
      // At least three attempts failed the same way: one history entry, repeated.
      const refused = await waitFor(
        'three refused attempts',
        async () => {
          const status = (await connectorNow(app(), connector.id)).status;
          const newest = status.recentErrors[0] as JsonObject | undefined;
          return status.state !== 'DISCONNECTED' && newest && newest.repeated >= 3 && status;
        },
        { timeoutMs: 60_000, intervalMs: 200 },
      );
      assert.equal(refused.state, 'ERROR', JSON.stringify(refused));
      assert.equal(refused.messagesReceived, lostAt.messagesReceived, 'nothing received meanwhile');
      const states = (await eventsOf(app(), connector.id, 'CONNECTOR_STATE_CHANGED')).map(
        (event) => event.data.currentState,
      );
      assert.deepEqual(states.slice(-3), ['CONNECTED', 'DISCONNECTED', 'ERROR'], 'one event per real change');
      // The values are stale: the workplace shows "no connection", and an event says why.
      assert.equal(await operatingStateCode(app(), plant.workplaceId), '998');
      const stale = await eventsOf(app(), connector.id, 'CONNECTOR_VALUES_STALE');
      assert.equal(stale.length, 1);
      assert.deepEqual(stale[0]?.data.workplaceIds, [plant.workplaceId]);
      assert.match(stale[0]?.data.reason as string, /OPC UA session lost/);
      assert.equal(await bookedQuantity(app(), plant.operationId), 3);

      // The server offers None again: connected, the state read again, the 2 pieces caught up.
      await sim().stop();
      await sim().start();
      await waitForState(app(), connector.id, 'CONNECTED', 60_000);
      await waitFor(
        'state 410 again',
        async () => (await operatingStateCode(app(), plant.workplaceId)) === '410',
      );
      await waitFor('5 pieces', async () => (await bookedQuantity(app(), plant.operationId)) === 5);
      const status = (await connectorNow(app(), connector.id)).status;
      assert.ok(status.recentErrors.length >= 2, JSON.stringify(status.recentErrors));
      assert.ok(status.recentErrors.length <= 10);
    });
  });

  describe(`OPC UA connector: the address policy on every attempt [${backend}]`, () => {
    let t: TestApp | undefined;
    let machine: SimulatedMachine | undefined;
    let manager: ConnectorManager | undefined;
    /** What the host name resolves to now (the policy's resolver: DNS that changes its answer). */
    let answer = '127.0.0.1';

    before(async () => {
      machine = await SimulatedMachine.start();
      t = await startTestApp(backend, { BRIDGE_CONNECTORS_ENABLED: 'false' });
      const policy = new AddressPolicy(['0.0.0.0/0', '::/0'], ['127.0.0.2/32'], {
        resolve: async () => [{ address: answer, family: 4 }],
      });
      manager = new ConnectorManager(t.app.db, { clock: systemClock, log: quiet, policy });
      manager.start();
    });
    after(async () => {
      await manager?.stop();
      await closeAll(t, machine);
    });

    test('a host name that resolves to a denied address after a restart is not connected to', async () => {
      const t0 = t as TestApp;
      const sim = machine as SimulatedMachine;
      const plant = await createPlant(t0, `UA-POLICY-${backend}`);
      const connector = await createConnector(t0, {
        name: 'By host name',
        type: 'OPC_UA',
        url: `opc.tcp://localhost:${sim.port}/UA/Machine`,
        mappings: machineMappings(plant),
      });
      manager?.wake();
      await waitForState(t0, connector.id, 'CONNECTED', 60_000);
      await waitFor('state 410', async () => (await operatingStateCode(t0, plant.workplaceId)) === '410');

      answer = '127.0.0.2';
      await sim.stop();
      await sim.start();
      const refused = await waitFor(
        'refused twice',
        async () => {
          const status = (await connectorNow(t0, connector.id)).status;
          const newest = status.recentErrors[0] as JsonObject | undefined;
          return status.state === 'ERROR' && newest && newest.repeated >= 2 && newest;
        },
        { timeoutMs: 60_000, intervalMs: 200 },
      );
      // Refused by the policy; the address the name resolved to is the plant's, not shown.
      assert.match(refused.message, /not allowed/);
      assert.doesNotMatch(refused.message, /127\.0\.0\.2/);
      const running = manager?.running.get(connector.id);
      assert.equal(running?.state, 'ERROR');
    });
  });
}
