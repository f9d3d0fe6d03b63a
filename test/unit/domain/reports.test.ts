// The arithmetic of src/domain/reports.ts on small hand-computed cases: hit lists, total
// quantities, quality details and the OPE, with the window and shift edges.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OPERATING_STATES } from '../../../src/domain/masterData.ts';
import type { OperationPhaseId } from '../../../src/domain/operationPhases.ts';
import {
  materialHitList,
  opeReport,
  qualityDetails,
  type ReportBooking,
  type ReportPhase,
  scheduledBookings,
  totalQuantities,
  workplaceHitList,
} from '../../../src/domain/reports.ts';
import type { StatePeriod } from '../../../src/domain/summaries.ts';

const H = 3_600_000;
const T0 = Date.parse('2026-03-02T00:00:00Z');
const d = (hours: number) => new Date(T0 + hours * H);
const WINDOW = { start: T0, end: T0 + 10 * H };
const NOW = T0 + 20 * H;
const stateId = (code: string) => OPERATING_STATES.find((state) => state.code === code)?.id as string;
const state = (workplaceId: string, code: string, from: number, to: number | null): StatePeriod => ({
  workplaceId,
  operatingStateId: stateId(code),
  startDate: d(from),
  endDate: to === null ? null : d(to),
});
const phase = (
  operationId: string,
  materialNumber: string | null,
  operationPhaseId: OperationPhaseId,
  from: number,
  to: number | null,
  workplaceId = 'a',
): ReportPhase => ({
  operationId,
  materialNumber,
  operationPhaseId,
  workplaceId,
  startDate: d(from),
  endDate: to === null ? null : d(to),
});
const booking = (fields: Partial<ReportBooking> & { hour: number }): ReportBooking => ({
  quantity: 1,
  quantityType: 'YIELD',
  workplaceId: 'a',
  targetTimePerUnit: null,
  operationId: 'op1',
  materialNumber: 'M1',
  targetQuantity: 100,
  qualityDetailId: null,
  timestamp: d(fields.hour),
  ...fields,
});

// Workplace a: shift 2-8 h; 000 Production 0-5, 110 Malfunction 5-6, 000 Production 6-10.
// Workplace b: no shift; 110 Malfunction 0-2 and 4-5 (two periods).
const A = {
  id: 'a',
  states: [state('a', '000', 0, 5), state('a', '110', 5, 6), state('a', '000', 6, 10)],
  shifts: [{ startDate: d(2), endDate: d(8) }],
};
const B = { id: 'b', states: [state('b', '110', 0, 2), state('b', '110', 4, 5)], shifts: [] };

test('workplace hit list: durations in the scheduled time, shares and frequencies', () => {
  const entries = workplaceHitList([A, B], WINDOW, NOW);
  // a: production 2-5 and 6-8 = 5 h (2 periods), malfunction 1 h; b: malfunction 3 h (2 periods).
  assert.deepEqual(
    entries.map((entry) => [entry.key, entry.operatingStateId, entry.duration]),
    [
      ['a', stateId('000'), 5 * H],
      ['b', stateId('110'), 3 * H],
      ['a', stateId('110'), 1 * H],
    ],
  );
  const [production, bMalfunction, aMalfunction] = entries;
  assert.equal(production?.durationPercentage, 5 / 6);
  assert.equal(production?.absoluteDurationPercentage, 5 / 9);
  assert.equal(production?.frequency, 2 / 5);
  assert.equal(bMalfunction?.durationPercentage, 1);
  assert.equal(bMalfunction?.absoluteDurationPercentage, 3 / 9);
  assert.equal(bMalfunction?.frequency, 2 / 5);
  assert.equal(aMalfunction?.frequency, 1 / 5);
});

test('workplace hit list: an open state runs to now, nothing past the window end', () => {
  const open = { id: 'c', states: [state('c', '000', 8, null)], shifts: [] };
  assert.deepEqual(
    workplaceHitList([open], WINDOW, T0 + 9 * H).map((entry) => entry.duration),
    [1 * H],
  );
  assert.deepEqual(
    workplaceHitList([open], WINDOW, NOW).map((entry) => entry.duration),
    [2 * H],
  );
  assert.deepEqual(workplaceHitList([open], WINDOW, T0 + 7 * H), []);
});

test('material hit list: the states while an operation of the material ran, in the scheduled time', () => {
  // op1 (M1): SETUP 1-3, PROCESSING 3-7, INTERRUPTED 7-8 (not running); op2 without material.
  const phases = [
    phase('op1', 'M1', 'SETUP', 1, 3),
    phase('op1', 'M1', 'PROCESSING', 3, 7),
    phase('op1', 'M1', 'INTERRUPTED', 7, 8),
    phase('op2', null, 'PROCESSING', 8, 10),
  ];
  const entries = materialHitList([A], phases, WINDOW, NOW);
  // Running 1-7, scheduled from 2: production 2-5 and 6-7 = 4 h (2 periods), malfunction 5-6.
  assert.deepEqual(
    entries.map((entry) => [entry.key, entry.operatingStateId, entry.duration, entry.frequency]),
    [
      ['M1', stateId('000'), 4 * H, 2 / 3],
      ['M1', stateId('110'), 1 * H, 1 / 3],
    ],
  );
  assert.equal(entries[0]?.durationPercentage, 4 / 5);
});

test('bookings count inside the scheduled time only: shift start in, shift end out', () => {
  const bookings = [
    booking({ hour: 1 }), // before a's shift
    booking({ hour: 2, quantity: 2 }), // shift start
    booking({ hour: 8, quantity: 4 }), // shift end
    booking({ hour: 0, quantity: 8, workplaceId: 'b' }), // b's window start
    booking({ hour: 10, quantity: 16, workplaceId: 'b' }), // window end
  ];
  const counted = scheduledBookings([A, B], bookings, WINDOW, NOW);
  assert.deepEqual(
    counted.map((entry) => entry.quantity),
    [2, 8],
  );
});

test('total quantities: one entry per workplace and operation, first to last booking', () => {
  const entries = totalQuantities([
    booking({ hour: 3, quantity: 10 }),
    booking({ hour: 5, quantity: 2, quantityType: 'SCRAP' }),
    booking({ hour: 4, quantity: 1, quantityType: 'REWORK' }),
    booking({ hour: 4.5, quantity: 3, quantityType: 'UNCATEGORIZED' }),
    booking({ hour: 6, quantity: 7, operationId: null, materialNumber: null, targetQuantity: null }),
  ]);
  assert.deepEqual(entries, [
    {
      workplaceId: 'a',
      operationId: 'op1',
      materialNumber: 'M1',
      startDate: d(3),
      endDate: d(5),
      targetQuantity: 100,
      yieldQuantity: 10,
      scrapQuantity: 2,
      reworkQuantity: 1,
      totalQuantity: 16,
    },
    {
      workplaceId: 'a',
      operationId: null,
      materialNumber: null,
      startDate: d(6),
      endDate: d(6),
      targetQuantity: null,
      yieldQuantity: 7,
      scrapQuantity: 0,
      reworkQuantity: 0,
      totalQuantity: 7,
    },
  ]);
});

test('quality details: per key, type and detail; uncategorized and keyless left out', () => {
  const bookings = [
    booking({ hour: 3, quantity: 5, qualityDetailId: 'Y1' }),
    booking({ hour: 4, quantity: 2, quantityType: 'SCRAP', qualityDetailId: 'S1' }),
    booking({ hour: 5, quantity: 3, quantityType: 'SCRAP', qualityDetailId: 'S1' }),
    booking({ hour: 5, quantity: 1, quantityType: 'SCRAP' }),
    booking({ hour: 6, quantity: 9, quantityType: 'UNCATEGORIZED' }),
    booking({ hour: 6, quantity: 4, materialNumber: null }),
  ];
  assert.deepEqual(
    qualityDetails(bookings, (entry) => entry.materialNumber),
    [
      { key: 'M1', qualityTypeId: 'YIELD', qualityDetailId: 'Y1', quantity: 5 },
      { key: 'M1', qualityTypeId: 'SCRAP', qualityDetailId: null, quantity: 1 },
      { key: 'M1', qualityTypeId: 'SCRAP', qualityDetailId: 'S1', quantity: 5 },
    ],
  );
  // By workplace, the yield without material counts: with and without a detail apart.
  assert.deepEqual(
    qualityDetails(bookings, (entry) => entry.workplaceId)
      .filter((entry) => entry.qualityTypeId === 'YIELD')
      .map((entry) => [entry.qualityDetailId, entry.quantity]),
    [
      [null, 4],
      ['Y1', 5],
    ],
  );
});

test('OPE: the factors of the phases, states and bookings in the window', () => {
  // op1: SETUP 1-3, PROCESSING 3-7, DISPATCHED 7-8 (waiting), PROCESSING 8-9, COMPLETED since 9;
  // window 0-10. a's production during PROCESSING: 3-5, 6-7 and 8-9 = 4 h.
  // Bookings: 150 yield + 30 scrap at 1 min each = 3 h ideal.
  const phases = [
    phase('op1', 'M1', 'SETUP', 1, 3),
    phase('op1', 'M1', 'PROCESSING', 3, 7),
    phase('op1', 'M1', 'DISPATCHED', 7, 8),
    phase('op1', 'M1', 'PROCESSING', 8, 9),
    phase('op1', 'M1', 'COMPLETED', 9, null),
  ];
  const bookings = [
    booking({ hour: 4, quantity: 150, targetTimePerUnit: 60_000 }),
    booking({ hour: 0, quantity: 30, quantityType: 'SCRAP', targetTimePerUnit: 60_000 }), // window start: in
    booking({ hour: 10, quantity: 1000, targetTimePerUnit: 60_000 }), // window end: out
  ];
  const report = opeReport(phases, A.states, bookings, WINDOW, NOW);
  assert.equal(report.executionTime, 7 * H);
  assert.equal(report.setupTime, 2 * H);
  assert.equal(report.processingTime, 5 * H);
  assert.equal(report.productionTime, 4 * H);
  assert.equal(report.throughputTime, 8 * H);
  assert.equal(report.idealProductionTime, 3 * H);
  assert.equal(report.totalQuantity, 180);
  assert.equal(report.setupReduction, 1 - 2 / 7);
  assert.equal(report.processAvailability, 4 / 5);
  assert.equal(report.performance, 3 / 4);
  assert.equal(report.quality, 150 / 180);
  assert.equal(report.productionProcessRatio, 4 / 8);
  assert.equal(report.schedulingEfficiency, 7 / 8);
  assert.ok(Math.abs((report.ope ?? 0) - (5 / 7) * (4 / 5) * (3 / 4) * (150 / 180)) < 1e-12);
  const none = opeReport([], [], [], WINDOW, NOW);
  assert.equal(none.ope, null);
  assert.equal(none.schedulingEfficiency, null);
});
