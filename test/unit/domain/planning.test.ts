// The figures of a plan (src/domain/planning.ts, docs/resources/planning.md "Summary"): horizons
// bounded by the results, shifts counted once where they overlap, rates null over a zero.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  checkShiftAssignment,
  checkWorkplaceShift,
  horizonOf,
  imminentMalfunctionsOf,
  partInShift,
  type ResultInput,
  summarizeResults,
  summarizeStaffScenario,
} from '../../../src/domain/planning.ts';

const at = (hour: number) => new Date(Date.UTC(2030, 0, 1, hour));
const result = (workplaceId: string, from: number, to: number): ResultInput => ({
  workplaceId,
  startDate: at(from),
  endDate: at(to),
  setupStartDate: null,
  setupEndDate: null,
  processingStartDate: null,
  processingEndDate: null,
  fixed: false,
});
const HOUR = 3_600_000;

describe('summarizeResults', () => {
  test('an open period is bounded by the results; overlapping shifts count once', () => {
    const summary = summarizeResults({
      period: { endDate: at(12) },
      results: [result('W1', 8, 10), result('W1', 11, 14)],
      orders: [],
      shifts: [
        { workplaceId: 'W1', startDate: at(6), endDate: at(10) },
        { workplaceId: 'W1', startDate: at(9), endDate: at(11) },
        { workplaceId: 'W2', startDate: at(6), endDate: at(14) },
      ],
    });
    assert.deepEqual([summary.startDate, summary.endDate], [at(8), at(12)]);
    // W1 is on shift 8-11 inside the horizon 8-12; W2 plans nothing and does not count.
    assert.equal(summary.scheduledOperatingTime, 3 * HOUR);
    assert.equal(summary.plannedExecutionTime, 3 * HOUR);
    assert.equal(summary.occupancyRate, 1);
    assert.equal(summary.setupReduction, 1);
    assert.equal(summary.schedulingEfficiency, null);
  });

  test('an order overlapping its operations reaches its minimum lead time', () => {
    const summary = summarizeResults({
      period: {},
      results: [result('W1', 8, 10), result('W2', 8, 10)],
      orders: [
        {
          deliveryDate: null,
          operationCount: 2,
          results: [
            { startDate: at(8), endDate: at(10) },
            { startDate: at(8), endDate: at(10) },
          ],
        },
      ],
      shifts: [],
    });
    assert.deepEqual(
      [summary.plannedLeadTime, summary.minimumLeadTimeWithSetup, summary.schedulingEfficiency],
      [2 * HOUR, 2 * HOUR, 1],
    );
    assert.deepEqual([summary.adherenceToDeliveryDates, summary.occupancyRate], [null, null]);
  });

  test('no results: no horizon, zero sums, null rates', () => {
    const summary = summarizeResults({ period: {}, results: [], orders: [], shifts: [] });
    assert.deepEqual([summary.startDate, summary.endDate, summary.plannedExecutionTime], [null, null, 0]);
    assert.equal(summary.setupReduction, null);
  });
});

describe('staff member scenarios', () => {
  test('counts staff members and workplaces, sums the dispatched time', () => {
    const elements = [
      { ...result('W1', 8, 10), ownerId: 'S1' },
      { ...result('W1', 9, 12), ownerId: 'S2' },
    ];
    const summary = summarizeStaffScenario(elements);
    assert.deepEqual(
      [summary.numberOfPlannedStaffMembers, summary.numberOfWorkplaces, summary.occupancyTime],
      [2, 1, 5 * HOUR],
    );
    assert.deepEqual(horizonOf(elements), { startDate: at(8), endDate: at(12) });
  });
});

describe('a staff member planning result per shift', () => {
  const shift = {
    id: 'SHIFT',
    staffMemberId: 'S1',
    shiftId: 'WS',
    workplaceId: 'W1',
    shiftTypeId: null,
    startDate: at(6),
    endDate: at(14),
  };
  const span = (from: number, to: number) => ({ startDate: at(from), endDate: at(to) });
  const input = (
    from: number,
    to: number,
    more: { staffMemberShiftId?: string; workplaceShiftId?: string } = {},
  ) => ({
    element: { ...result('W1', from, to), ownerId: 'S1' },
    staffMemberShiftId: more.staffMemberShiftId ?? null,
    workplaceShiftId: more.workplaceShiftId ?? null,
  });
  const refusedAt = (field: string) => (error: unknown) => {
    assert.equal((error as { code?: string }).code, 'VALIDATION_FAILED');
    assert.match(String((error as Error).message), new RegExp(field.replace(/[[\].]/g, '\\$&')));
    return true;
  };

  test('the part of a result in a shift; touching is no part', () => {
    assert.deepEqual(partInShift(shift, span(4, 8)), span(6, 8));
    assert.deepEqual(partInShift(shift, span(7, 20)), span(7, 14));
    assert.equal(partInShift(shift, span(14, 16)), undefined);
    assert.equal(partInShift(shift, span(2, 6)), undefined);
  });

  test('an assignment lies inside the shift, of its staff member and shift', () => {
    checkShiftAssignment(shift, input(6, 14, { staffMemberShiftId: 'SHIFT' }));
    assert.throws(() => checkShiftAssignment(shift, input(5, 8)), refusedAt('elements[0].startDate'));
    assert.throws(() => checkShiftAssignment(shift, input(8, 15)), refusedAt('elements[0].startDate'));
    assert.throws(() => checkShiftAssignment(shift, input(9, 8)), refusedAt('elements[0].endDate'));
    assert.throws(
      () =>
        checkShiftAssignment(shift, { ...input(7, 8), element: { ...input(7, 8).element, ownerId: 'S2' } }),
      refusedAt('elements[0].staffMemberId'),
    );
    assert.throws(
      () => checkShiftAssignment(shift, input(7, 8, { staffMemberShiftId: 'OTHER' })),
      refusedAt('elements[0].staffMemberShiftId'),
    );
  });

  test('a workplace shift sent back must be the derived one', () => {
    checkWorkplaceShift(input(7, 8), 'WS');
    checkWorkplaceShift(input(7, 8, { workplaceShiftId: 'WS' }), 'WS');
    assert.throws(
      () => checkWorkplaceShift(input(7, 8, { workplaceShiftId: 'WS' }), null),
      refusedAt('elements[0].workplaceShiftId'),
    );
  });
});

describe('imminentMalfunctionsOf', () => {
  test('a prediction is one imminent malfunction, likely from its start, its critical date unknown', () => {
    const scenario = {
      id: 'P1',
      workplaceId: 'W1',
      startDate: at(3),
      endDate: at(5),
      probability: 0.4,
      operatingStateId: null,
      description: null,
      creator: null,
      createdAt: at(1),
      obsoleteSince: null,
    };
    assert.deepEqual(imminentMalfunctionsOf(scenario), [
      { workplaceId: 'W1', operatingStateId: null, prewarningDate: at(3), criticalDate: null },
    ]);
  });
});
