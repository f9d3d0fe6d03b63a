// The arithmetic of src/domain/summaries.ts on small hand-computed cases: clipping, open periods
// up to `now`, overlapping shifts, the caps and nulls of the factors.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { OPERATING_STATES } from '../../../src/domain/masterData.ts';
import {
  type Booking,
  clip,
  oeeReport,
  oeeTimes,
  type StatePeriod,
  union,
  windowOf,
  workplaceQuantitySummary,
  workplaceStateSummary,
} from '../../../src/domain/summaries.ts';

const H = 3_600_000;
const T0 = Date.parse('2026-03-02T00:00:00Z');
const d = (hours: number) => new Date(T0 + hours * H);
const stateId = (code: string) => OPERATING_STATES.find((state) => state.code === code)?.id as string;
const state = (code: string, from: number, to: number | null): StatePeriod => ({
  workplaceId: 'w',
  operatingStateId: stateId(code),
  startDate: d(from),
  endDate: to === null ? null : d(to),
});
const booking = (
  quantityType: Booking['quantityType'],
  quantity: number,
  hour: number,
  target: number | null,
) => ({
  quantityType,
  quantity,
  workplaceId: 'w',
  timestamp: d(hour),
  targetTimePerUnit: target,
});

test('clip: inside the window; an open period ends at now; nothing outside', () => {
  const window = { start: T0, end: T0 + 10 * H };
  assert.deepEqual(clip({ startDate: d(-2), endDate: d(3) }, window, T0 + 20 * H), {
    start: T0,
    end: T0 + 3 * H,
  });
  assert.deepEqual(clip({ startDate: d(4), endDate: null }, window, T0 + 6 * H), {
    start: T0 + 4 * H,
    end: T0 + 6 * H,
  });
  assert.deepEqual(clip({ startDate: d(4), endDate: null }, window, T0 + 20 * H), {
    start: T0 + 4 * H,
    end: T0 + 10 * H,
  });
  assert.equal(clip({ startDate: d(11), endDate: d(12) }, window, T0 + 20 * H), null);
  assert.equal(clip({ startDate: d(-3), endDate: d(0) }, window, T0 + 20 * H), null);
});

test('union merges overlapping and touching spans', () => {
  assert.deepEqual(
    union([
      { start: 5, end: 8 },
      { start: 0, end: 2 },
      { start: 2, end: 4 },
      { start: 6, end: 7 },
    ]),
    [
      { start: 0, end: 4 },
      { start: 5, end: 8 },
    ],
  );
});

test('windowOf: defaults to the 24 h up to now; refuses an empty or too long period', () => {
  assert.deepEqual(windowOf(undefined, undefined, d(30)), { start: T0 + 6 * H, end: T0 + 30 * H });
  assert.deepEqual(windowOf(d(1), undefined, d(30)), { start: T0 + H, end: T0 + 30 * H });
  assert.throws(() => windowOf(d(2), d(2), d(30)), /endDate/);
  assert.throws(() => windowOf(d(0), d(367 * 24), d(30)), /startDate/);
});

test('an open state counts only up to now, and time not yet passed is not scheduled', () => {
  // Window 0-10 h, now 4 h: production 0-1, break 1-2, production since 2 (open).
  const inputs = {
    states: [state('000', 0, 1), state('993', 1, 2), state('000', 2, null)],
    shifts: [],
    bookings: [booking('YIELD', 90, 3, 60_000), booking('SCRAP', 10, 3.5, 60_000)],
  };
  const times = oeeTimes(inputs, { start: T0, end: T0 + 10 * H }, T0 + 4 * H);
  assert.equal(times.plannedProductionTime, 3 * H);
  assert.equal(times.productionTime, 3 * H);
  assert.equal(times.downtime, 0);
  assert.equal(times.idealProductionTime, 100 * 60_000);
});

test('overlapping shifts count once; planned stops outside shifts do not count', () => {
  const inputs = {
    // Shifts 0-4 and 3-6 (overlapping): scheduled 0-6. Maintenance 5-8: 1 h inside.
    states: [state('000', 0, 5), state('410', 5, 8)],
    shifts: [
      { startDate: d(0), endDate: d(4) },
      { startDate: d(3), endDate: d(6) },
    ],
    bookings: [],
  };
  const times = oeeTimes(inputs, { start: T0, end: T0 + 10 * H }, T0 + 20 * H);
  assert.equal(times.plannedProductionTime, 5 * H);
  assert.equal(times.productionTime, 5 * H);
});

test('factors: performance above 1 is shown as 1; no production or no bookings give null', () => {
  const window = { start: T0, end: T0 + 2 * H };
  const fast = oeeReport(
    [{ states: [state('000', 0, 2)], shifts: [], bookings: [booking('YIELD', 300, 1, 60_000)] }],
    window,
    T0 + 5 * H,
  );
  assert.equal(fast.availability, 1);
  assert.equal(fast.performance, 1);
  assert.equal(fast.quality, 1);
  assert.equal(fast.oee, 1);
  assert.equal(fast.idealProductionTime, 5 * H);
  const idle = oeeReport([{ states: [state('110', 0, 2)], shifts: [], bookings: [] }], window, T0 + 5 * H);
  assert.equal(idle.availability, 0);
  assert.equal(idle.performance, null);
  assert.equal(idle.quality, null);
  assert.equal(idle.oee, null);
  assert.equal(idle.downtime, 2 * H);
});

test('a workplace summary adds an open phase up to now', () => {
  const summary = workplaceStateSummary(
    {
      phases: [{ operationPhaseId: 'PROCESSING', workplaceId: 'w', startDate: d(1), endDate: null }],
      states: [state('000', 0, null)],
      shifts: [],
      bookings: [booking('YIELD', 30, 2, null)],
    },
    { start: T0, end: T0 + 10 * H },
    T0 + 4 * H,
  );
  assert.equal(summary.processingTime, 3 * H);
  assert.equal(summary.executionTime, 3 * H);
  assert.equal(summary.timePerUnit, (3 * H) / 30);
  assert.deepEqual(
    summary.elements.map((element) => [element.operatingState.code, element.duration, element.frequency]),
    [['000', 4 * H, 1]],
  );
  // No shifts: the 4 h up to now are scheduled; 3 h of it occupied, all of it production.
  assert.equal(summary.scheduledOperatingTime, 4 * H);
  assert.equal(summary.occupancyTime, 3 * H);
  assert.equal(summary.occupancyRate, 3 / 4);
  assert.equal(summary.productionTime, 4 * H);
  assert.equal(summary.processAvailability, 1);
  assert.equal(summary.setupReduction, 1);
  assert.equal(summary.availability, 1);
});

test('window edges: a booking at the start counts, at the end or after the shift does not', () => {
  // Window 0-10 h, shift 2-6 h. Production 0-10 h, all bookings with 1 min per unit.
  const inputs = {
    states: [state('000', 0, 10)],
    shifts: [{ startDate: d(2), endDate: d(6) }],
    bookings: [
      booking('YIELD', 10, 0, 60_000), // window start, before the shift: out
      booking('YIELD', 20, 2, 60_000), // shift start: in
      booking('SCRAP', 5, 5.5, 60_000), // in
      booking('YIELD', 40, 6, 60_000), // shift end (half-open): out
      booking('YIELD', 80, 8, 60_000), // after the shift: out
      booking('YIELD', 160, 10, 60_000), // window end: out
    ],
  };
  const window = { start: T0, end: T0 + 10 * H };
  const times = oeeTimes(inputs, window, T0 + 20 * H);
  assert.equal(times.plannedProductionTime, 4 * H);
  assert.equal(times.productionTime, 4 * H);
  assert.equal(times.totalQuantity, 25);
  assert.equal(times.yieldQuantity, 20);
  assert.equal(times.idealProductionTime, 25 * 60_000);
  const report = oeeReport([inputs], window, T0 + 20 * H);
  assert.equal(report.performance, (25 * 60_000) / (4 * H));
  // Without the shift the whole window is scheduled: the 0 h booking counts, the 10 h one not.
  const open = oeeTimes({ ...inputs, shifts: [] }, window, T0 + 20 * H);
  assert.equal(open.totalQuantity, 10 + 20 + 5 + 40 + 80);
});

test('a workplace summary counts only its scheduled time; rates from the shown times', () => {
  // Window 0-10 h, shift 2-8 h. Phases: SETUP 1-3, PROCESSING 3-9. States: setup 020 0-3,
  // production 3-7, malfunction 110 7-10.
  const summary = workplaceStateSummary(
    {
      phases: [
        { operationPhaseId: 'SETUP', workplaceId: 'w', startDate: d(1), endDate: d(3) },
        { operationPhaseId: 'PROCESSING', workplaceId: 'w', startDate: d(3), endDate: d(9) },
      ],
      states: [state('020', 0, 3), state('000', 3, 7), state('110', 7, 10)],
      shifts: [{ startDate: d(2), endDate: d(8) }],
      bookings: [booking('YIELD', 100, 4, 60_000), booking('YIELD', 50, 9, 60_000)],
    },
    { start: T0, end: T0 + 10 * H },
    T0 + 20 * H,
  );
  assert.equal(summary.scheduledOperatingTime, 6 * H);
  assert.equal(summary.setupTime, 1 * H); // 2-3
  assert.equal(summary.processingTime, 5 * H); // 3-8
  assert.equal(summary.occupancyTime, 6 * H);
  assert.equal(summary.occupancyRate, 1);
  assert.equal(summary.setupReduction, 1 - 1 / 6);
  assert.equal(summary.productionTime, 4 * H);
  assert.equal(summary.processAvailability, 4 / 5);
  assert.equal(summary.availability, 4 / 6);
  assert.equal(summary.timePerUnit, (5 * H) / 100); // the 9 h booking is after the shift
  assert.deepEqual(
    summary.elements.map((element) => [element.operatingState.code, element.duration]),
    [
      ['000', 4 * H],
      ['020', 1 * H],
      ['110', 1 * H],
    ],
  );
});

test('workplace quantity summary: performance, quantity- and time-based quality', () => {
  const summary = workplaceQuantitySummary(
    {
      states: [state('000', 0, 2)],
      shifts: [],
      bookings: [
        booking('YIELD', 60, 0.5, 60_000),
        booking('SCRAP', 30, 1, 120_000),
        booking('YIELD', 10, 1.5, null),
      ],
    },
    { start: T0, end: T0 + 2 * H },
    T0 + 5 * H,
  );
  assert.equal(summary.totalQuantity, 100);
  assert.equal(summary.quantityBasedQualityRate, 70 / 100);
  // Ideal: 60 min of yield, 60 min of scrap; the 10 without a target time add nothing.
  assert.equal(summary.timeBasedQualityRate, 1 / 2);
  assert.equal(summary.performance, (120 * 60_000) / (2 * H));
  assert.equal(summary.elements[0]?.totalQuantity, 100);
});
