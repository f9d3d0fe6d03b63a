// The worked example of docs/resources/reports.md, stored through the API where the API can
// back-date (shifts, output quantities) and as history rows where it stamps the present
// (operating states and operation phases are recorded at the time of the command).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { OPERATING_STATES } from '../../src/domain/masterData.ts';
import { json, type TestApp } from './app.ts';

const API = '/api/v2';
export const DAY = '2026-01-05';
export const at = (time: string) => `${DAY}T${time}:00.000Z`;
export const WINDOW = { startDate: at('04:00'), endDate: at('14:00') };

const stateId = (code: string) => {
  const state = OPERATING_STATES.find((candidate) => candidate.code === code);
  if (!state) throw new Error(`no operating state ${code}`);
  return state.id;
};

export interface Scenario {
  groupId: string;
  workplaceA: string;
  workplaceB: string;
  operationId: string;
}

async function post(t: TestApp, url: string, body: unknown) {
  const response = await t.request({ method: 'POST', url: `${API}${url}`, body });
  assert.equal(response.statusCode, 201, response.body);
  return json(response).properties.id as string;
}

/**
 * Builds the example under its own numbers (`prefix`), so one database may hold several;
 * `order` adds fields to its production order (the reports' example gives it a material).
 */
export async function buildScenario(
  t: TestApp,
  prefix: string,
  order: Record<string, unknown> = {},
): Promise<Scenario> {
  const groupId = await post(t, '/workplaceGroups', { number: `${prefix}-CG`, type: 'CAPACITY_GROUP' });
  const workplaceA = await post(t, '/workplaces', { number: `${prefix}-A`, capacityGroupId: groupId });
  const workplaceB = await post(t, '/workplaces', { number: `${prefix}-B`, capacityGroupId: groupId });
  const orderId = await post(t, '/productionOrders', { number: `${prefix}-PO`, ...order });
  const operationId = await post(t, '/operations', {
    productionOrderId: orderId,
    number: `${prefix}-10`,
    workplaceId: workplaceA,
    targetQuantity: 300,
    quantityUnit: 'pcs',
    targetTimePerUnit: 60_000,
    targetSetupTime: 1_800_000,
  });

  // One shift 06:00-14:00 at A; B has none.
  await post(t, `/workplaces/${workplaceA}/shifts`, { startDate: at('06:00'), endDate: at('14:00') });

  // A's operating states; the last one is still open.
  const states: [string, string, string | null][] = [
    ['999', '04:00', '06:30'],
    ['020', '06:30', '07:00'],
    ['000', '07:00', '09:00'],
    ['993', '09:00', '09:30'],
    ['110', '09:30', '10:00'],
    ['000', '10:00', '12:00'],
    ['410', '12:00', '12:30'],
    ['000', '12:30', null],
  ];
  for (const [code, start, end] of states) {
    await t.app.db.query(
      `INSERT INTO recorded_operating_states (id, workplace_id, operating_state_id, start_date, end_date)
       VALUES ($1, $2, $3, $4, $5)`,
      [randomUUID(), workplaceA, stateId(code), at(start), end === null ? null : at(end)],
    );
  }

  // The operation's phases at A; COMPLETED is still open.
  const phases: [string, string, string | null][] = [
    ['SETUP', '06:30', '07:00'],
    ['PROCESSING', '07:00', '09:30'],
    ['INTERRUPTED', '09:30', '10:00'],
    ['PROCESSING', '10:00', '13:00'],
    ['COMPLETED', '13:00', null],
  ];
  for (const [phase, start, end] of phases) {
    await t.app.db.query(
      `INSERT INTO recorded_operation_phases (id, operation_id, operation_phase_id, workplace_id, start_date, end_date)
       VALUES ($1, $2, $3, $4, $5, $6)`,
      [randomUUID(), operationId, phase, workplaceA, at(start), end === null ? null : at(end)],
    );
  }

  // Bookings: 03:00 is before the window, the 10:00 one at B.
  const bookings: [string, number, string, string][] = [
    ['YIELD', 5, '03:00', workplaceA],
    ['YIELD', 240, '09:00', workplaceA],
    ['SCRAP', 10, '11:00', workplaceA],
    ['REWORK', 10, '12:00', workplaceA],
    ['YIELD', 10, '13:00', workplaceA],
    ['YIELD', 20, '10:00', workplaceB],
  ];
  for (const [quantityType, quantity, time, workplaceId] of bookings) {
    await post(t, `/operations/${operationId}/recordedOutputQuantities`, {
      quantityType,
      quantity,
      timestamp: at(time),
      workplaceId,
    });
  }
  return { groupId, workplaceA, workplaceB, operationId };
}
