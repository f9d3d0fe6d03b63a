// Each connector runs on exactly one instance (docs/resources/connectors.md, "Ownership"): two app
// instances on one PostgreSQL database, each on a ManualClock the test moves. The first to claim
// runs the connector; the other does not while the lease is renewed. When the owner stops
// without giving the lease up (as a dying process does), the other takes it over once the lease
// expires, within 15 s of the owner's last renewal, and the values flow through it.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import mqtt, { type MqttClient } from 'mqtt';
import { type App, createApp } from '../../src/app.ts';
import { ManualClock } from '../../src/background/clock.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import { LEASE_RENEW_MS, LEASE_TTL_MS } from '../../src/domain/connectors.ts';
import { startTestApp, type TestApp } from '../support/app.ts';
import {
  connectorNow,
  createConnector,
  createPlant,
  mosquittoMissing,
  operatingStateCode,
  type Plant,
  waitForState,
} from '../support/connectors.ts';
import { BACKENDS } from '../support/databases.ts';
import { waitFor } from '../support/faults.ts';

const skip = !BACKENDS.includes('postgres') ? 'PostgreSQL not reachable' : await mosquittoMissing();

describe('connector lease: two instances on one PostgreSQL', { skip }, () => {
  const start = new Date();
  const clockA = new ManualClock(start);
  const clockB = new ManualClock(start);
  let a: TestApp;
  let b: App;
  let plant: Plant;
  let publisher: MqttClient;
  let connectorId: string;
  const topic = `bridge-test/${randomUUID()}/state`;

  before(async () => {
    a = await startTestApp('postgres', {}, { clock: clockA });
    const db = await openPostgres({ url: a.database.url as string, timeoutMs: 10_000, poolSize: 3 });
    b = await createApp(a.config, db, { clock: clockB });
    plant = await createPlant(a, 'LEASE');
    publisher = await mqtt.connectAsync({ host: '127.0.0.1', port: 1883 });
  });
  after(async () => {
    await publisher?.endAsync(true);
    await b?.close();
    await a?.close();
  });

  test('one instance runs it; the other takes over when the owner dies', async () => {
    const connector = await createConnector(a, {
      name: 'Lease MQTT',
      type: 'MQTT',
      url: 'mqtt://127.0.0.1:1883',
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
    connectorId = connector.id;
    const managerA = a.app.connectors;
    const managerB = b.connectors;
    assert.ok(managerA && managerB);
    await managerB.nextCycle();
    assert.equal(managerA.running.has(connectorId), true, 'A created it and claimed it first');
    assert.equal(managerB.running.has(connectorId), false);
    await waitForState(a, connectorId, 'CONNECTED');
    await publisher.publishAsync(topic, 'RUN', { qos: 1 });
    await waitFor('RUN through A', async () => (await operatingStateCode(a, plant.workplaceId)) === '110');

    // While A renews, B never gets it.
    for (let renewal = 0; renewal < 3; renewal++) {
      clockA.advance(LEASE_RENEW_MS);
      clockB.advance(LEASE_RENEW_MS);
      await managerA.nextCycle();
      await managerB.nextCycle();
      assert.equal(managerB.running.has(connectorId), false);
    }

    // A dies: its connectors stop, its lease stays until it expires.
    await managerA.stop({ release: false });
    clockB.advance(LEASE_TTL_MS / 2);
    await managerB.nextCycle();
    assert.equal(managerB.running.has(connectorId), false, 'the lease has not expired yet');
    clockB.advance(LEASE_TTL_MS / 2 + LEASE_RENEW_MS);
    await managerB.nextCycle();
    assert.equal(managerB.running.has(connectorId), true, 'taken over within 15 s of the last renewal');

    // The row still says CONNECTED (A died without a word): wait for B's own client.
    await waitFor('CONNECTED through B', () => managerB.running.get(connectorId)?.state === 'CONNECTED');
    await managerB.flush();
    assert.equal((await connectorNow(a, connectorId)).status.state, 'CONNECTED');
    await publisher.publishAsync(topic, 'STOP', { qos: 1 });
    await waitFor('STOP through B', async () => (await operatingStateCode(a, plant.workplaceId)) === '410');
    const owner = await a.app.db.query<{ lease_owner: string }>(
      'SELECT lease_owner FROM connectors WHERE id = $1',
      [connectorId],
    );
    assert.equal(owner[0]?.lease_owner, managerB.owner);
  });
});
