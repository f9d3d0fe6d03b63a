// Connector tests: a small plant (a workplace with a device and an operation in PROCESSING), the
// connector API, and whether the brokers the tests need are here (skip with a reason, unless CI=true).
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { createOperation, createWorkplace, json, type TestApp } from './app.ts';
import { type JsonObject, waitFor } from './faults.ts';

const API = '/api/v2';

export interface Plant {
  workplaceId: string;
  deviceId: string;
  operationId: string;
}

/** A workplace `<prefix>` with a device recording `temperature` and an operation in PROCESSING there. */
export async function createPlant(t: TestApp, prefix: string): Promise<Plant> {
  const workplaceId = await createWorkplace(t, prefix);
  const device = await t.request({
    method: 'POST',
    url: `${API}/devices`,
    body: {
      name: `${prefix}-PLC`,
      type: 'PLC',
      workplaceId,
      recordedPhysicalQuantities: [{ tag: 'temperature' }],
    },
  });
  assert.equal(device.statusCode, 201, device.body);
  const operationId = await createOperation(t, `${prefix}-OP`, { workplaceId });
  for (const phase of ['DISPATCHED', 'PROCESSING']) {
    const response = await t.request({ method: 'POST', url: `${API}/operations/${operationId}/${phase}` });
    assert.equal(response.statusCode, 200, response.body);
  }
  return { workplaceId, deviceId: json(device).properties.id, operationId };
}

export async function createConnector(t: TestApp, body: JsonObject): Promise<JsonObject> {
  const response = await t.request({ method: 'POST', url: `${API}/connectors`, body });
  assert.equal(response.statusCode, 201, response.body);
  // Started now rather than at the next lease renewal.
  await t.app.connectors?.nextCycle();
  return json(response).properties;
}

/** The connector as the API shows it, after the running instance reported what it counted. */
export async function connectorNow(t: TestApp, id: string): Promise<JsonObject> {
  await t.app.connectors?.flush();
  const response = await t.request({ url: `${API}/connectors/${id}` });
  assert.equal(response.statusCode, 200, response.body);
  return json(response).properties;
}

export const waitForState = (t: TestApp, id: string, state: string, timeoutMs = 30_000) =>
  waitFor(`connector ${id} ${state}`, async () => (await connectorNow(t, id)).status.state === state, {
    timeoutMs,
    intervalMs: 100,
  });

/** Samples of the device (the newest 100). */
export async function samplesOf(t: TestApp, deviceId: string): Promise<JsonObject[]> {
  const response = await t.request({ url: `${API}/devices/${deviceId}/recordedTimeSeries?limit=100` });
  assert.equal(response.statusCode, 200, response.body);
  return json(response)._embedded.recordedTimeSeries.map((item: JsonObject) => item.properties);
}

/** The total quantity of one type booked on the operation. */
export async function bookedQuantity(t: TestApp, operationId: string, type = 'YIELD'): Promise<number> {
  const response = await t.request({
    url: `${API}/operations/${operationId}/recordedOutputQuantities?limit=100`,
  });
  assert.equal(response.statusCode, 200, response.body);
  return json(response)
    ._embedded.recordedOutputQuantities.map((item: JsonObject) => item.properties)
    .filter((item: JsonObject) => item.quantityType === type)
    .reduce((sum: number, item: JsonObject) => sum + item.quantity, 0);
}

export async function operatingStateCode(t: TestApp, workplaceId: string): Promise<string> {
  const response = await t.request({ url: `${API}/workplaces/${workplaceId}` });
  assert.equal(response.statusCode, 200, response.body);
  return json(response).properties.operatingState.code;
}

function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Undefined when the Mosquitto at 127.0.0.1:1883 answers, else why its tests are skipped. With
 * CI=true an absent broker is a failure, not a skip.
 */
export async function mosquittoMissing(): Promise<string | undefined> {
  if (await portAnswers(1883)) return undefined;
  if (process.env.CI === 'true') throw new Error('CI=true but no MQTT broker answers at 127.0.0.1:1883');
  return 'no MQTT broker at 127.0.0.1:1883';
}
