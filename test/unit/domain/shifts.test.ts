// Shifts (src/domain/shifts.ts): when the shift clock announces a shift's start and end after the
// shift was created or moved, so STARTED and ENDED always come in pairs; and what a shift plan
// must satisfy on its own, with errors naming the element.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { announcementsAfterChange, checkShiftPlan, type ShiftInput } from '../../../src/domain/shifts.ts';

const hour = (h: number) => new Date(Date.UTC(2030, 0, 1, h));
const NOW = hour(12);
const NOTHING = { startAnnouncedAt: null, endAnnouncedAt: null };
const STARTED = { startAnnouncedAt: hour(8), endAnnouncedAt: null };
const ENDED = { startAnnouncedAt: hour(8), endAnnouncedAt: hour(10) };
const period = (start: number, end: number) => ({ startDate: hour(start), endDate: hour(end) });

describe('announcementsAfterChange', () => {
  test('a shift already over that was never announced is history: never announced', () => {
    assert.deepEqual(announcementsAfterChange(NOTHING, period(6, 10), NOW), {
      startAnnouncedAt: NOW,
      endAnnouncedAt: NOW,
    });
  });

  test('a shift moved into the past keeps what was announced; its ENDED still comes if missing', () => {
    assert.deepEqual(announcementsAfterChange(STARTED, period(6, 10), NOW), STARTED);
    assert.deepEqual(announcementsAfterChange(ENDED, period(6, 11), NOW), ENDED);
  });

  test('a running shift gets its STARTED (now if not yet); one that had ended is announced again', () => {
    assert.deepEqual(announcementsAfterChange(NOTHING, period(10, 14), NOW), NOTHING);
    assert.deepEqual(announcementsAfterChange(STARTED, period(10, 14), NOW), STARTED);
    assert.deepEqual(announcementsAfterChange(ENDED, period(10, 14), NOW), NOTHING);
  });

  test('a shift in the future is announced when its time comes, even if announced before', () => {
    for (const before of [NOTHING, STARTED, ENDED]) {
      assert.deepEqual(announcementsAfterChange(before, period(13, 15), NOW), NOTHING);
    }
  });

  test('the edges: ending now is over, starting now is running', () => {
    assert.deepEqual(announcementsAfterChange(NOTHING, period(8, 12), NOW), {
      startAnnouncedAt: NOW,
      endAnnouncedAt: NOW,
    });
    assert.deepEqual(announcementsAfterChange(STARTED, period(12, 14), NOW), STARTED);
  });
});

describe('checkShiftPlan', () => {
  const shift = (start: number, end: number): ShiftInput => ({
    name: null,
    shiftModelId: null,
    shiftTypeId: null,
    ...period(start, end),
  });
  const refusal = (plan: Parameters<typeof checkShiftPlan>[0]) => {
    try {
      checkShiftPlan(plan);
    } catch (error) {
      const { code, params } = error as { code: string; params: Record<string, unknown> };
      return { code, field: params.field, detail: params.detail };
    }
    return undefined;
  };

  test('shifts within the period that touch but do not overlap are a plan, in any order', () => {
    assert.equal(
      refusal({ ...period(0, 24), shifts: [shift(14, 22), shift(6, 14), shift(22, 23)] }),
      undefined,
    );
    assert.equal(refusal({ ...period(0, 24), shifts: [] }), undefined);
  });

  test('the period and each shift must end after they start', () => {
    assert.deepEqual(refusal({ ...period(10, 10), shifts: [] }), {
      code: 'VALIDATION_FAILED',
      field: 'endDate',
      detail: 'must be after startDate',
    });
    assert.equal(
      refusal({ ...period(0, 24), shifts: [shift(6, 14), shift(15, 15)] })?.field,
      'shifts[1].endDate',
    );
  });

  test('a shift must start within [startDate, endDate)', () => {
    assert.equal(refusal({ ...period(6, 24), shifts: [shift(5, 8)] })?.field, 'shifts[0].startDate');
    assert.equal(refusal({ ...period(0, 12), shifts: [shift(12, 14)] })?.field, 'shifts[0].startDate');
    assert.equal(refusal({ ...period(0, 12), shifts: [shift(11, 14)] }), undefined);
  });

  test('overlapping shifts name the later one and the one it overlaps', () => {
    assert.deepEqual(refusal({ ...period(0, 24), shifts: [shift(10, 18), shift(2, 6), shift(6, 11)] }), {
      code: 'VALIDATION_FAILED',
      field: 'shifts[0].startDate',
      detail: 'the period overlaps shifts[2]',
    });
  });
});
