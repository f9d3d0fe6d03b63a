// An MQTT broker restart: a Mosquitto of the test's own is stopped while a connector reads it,
// and started again. The connector says DISCONNECTED, reconnects by itself (backoff with
// jitter), says CONNECTED, subscribes again, and the values flow. A host the address policy
// refuses is an ERROR whose message names no credentials.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import mqtt from 'mqtt';
import { startTestApp, type TestApp } from '../support/app.ts';
import {
  connectorNow,
  createConnector,
  createPlant,
  operatingStateCode,
  type Plant,
  waitForState,
} from '../support/connectors.ts';
import { BACKENDS } from '../support/databases.ts';
import { eventsOf } from '../support/events.ts';
import { closeAll, Mosquitto, waitFor } from '../support/faults.ts';

const backend = BACKENDS.includes('postgres') ? 'postgres' : 'pglite';

describe(`connector faults [${backend}]`, () => {
  let broker: Mosquitto | undefined;
  let t: TestApp | undefined;
  let plant: Plant;
  const app = () => t as TestApp;

  before(async () => {
    broker = await Mosquitto.start();
    t = await startTestApp(backend);
    plant = await createPlant(app(), 'FAULT');
  });
  after(() => closeAll(t, broker));

  test('the broker stopped and started: the connector recovers by itself', async () => {
    const mosquitto = broker as Mosquitto;
    const topic = `bridge-test/${randomUUID()}/state`;
    const connector = await createConnector(app(), {
      name: 'Restarted broker',
      type: 'MQTT',
      url: `mqtt://127.0.0.1:${mosquitto.port}`,
      mappings: [
        {
          source: { topic },
          target: {
            kind: 'OPERATING_STATE',
            workplaceId: plant.workplaceId,
            values: { RUN: '110', STOP: '410' },
          },
        },
      ],
    });
    await waitForState(app(), connector.id, 'CONNECTED');
    await mosquitto.stop();
    await waitForState(app(), connector.id, 'DISCONNECTED');
    await mosquitto.start();
    await waitForState(app(), connector.id, 'CONNECTED', 60_000);

    const publisher = await mqtt.connectAsync({ host: '127.0.0.1', port: mosquitto.port });
    try {
      await publisher.publishAsync(topic, 'RUN', { qos: 1 });
      await waitFor(
        'RUN after the restart',
        async () => (await operatingStateCode(app(), plant.workplaceId)) === '110',
      );
    } finally {
      await publisher.endAsync(true);
    }
    const states = (await eventsOf(app(), connector.id, 'CONNECTOR_STATE_CHANGED')).map(
      (e) => e.data.currentState,
    );
    assert.deepEqual(states, ['CONNECTED', 'DISCONNECTED', 'CONNECTED']);
  });

  test('a host resolving to a refused address is an ERROR; credentials appear in no body', async () => {
    // Loopback denied on this instance: 'localhost' passes registration (a name, not an address
    // literal) and is refused at the connection, on the address it resolves to.
    const strict = await startTestApp('pglite', { BRIDGE_CALLBACK_DENY_LOOPBACK: 'true' });
    try {
      const connector = await createConnector(strict, {
        name: 'Refused',
        type: 'MQTT',
        url: 'mqtt://localhost:1883',
        username: 'operator',
        password: 'very-secret-password',
        mappings: [],
      });
      const status = await waitFor('an error', async () => {
        const now = (await connectorNow(strict, connector.id)).status;
        return now.state === 'ERROR' && now;
      });
      assert.match(status.lastError, /not allowed/);
      const body = JSON.stringify(await connectorNow(strict, connector.id));
      assert.doesNotMatch(body, /very-secret-password/);
      const events = JSON.stringify(await eventsOf(strict, connector.id));
      assert.doesNotMatch(events, /very-secret-password/);
    } finally {
      await strict.close();
    }
  });
});
