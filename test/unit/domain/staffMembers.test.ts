// Staff members (src/domain/staffMembers.ts): a scheduled working time from shifts and absences,
// and its pages in timestamp mode.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { absencesOverlapping, periodPage, scheduledWorkingTimes } from '../../../src/domain/staffMembers.ts';

const hour = (h: number) => new Date(Date.UTC(2030, 0, 1, h));
const period = (start: number, end: number) => ({ startDate: hour(start), endDate: hour(end) });

describe('scheduledWorkingTimes', () => {
  test('no shifts: no working time', () => {
    assert.deepEqual(scheduledWorkingTimes([], [period(1, 2)]), []);
  });

  test('overlapping and touching shifts join; a gap (a break) stays; newest first', () => {
    const shifts = [period(10, 14), period(6, 10), period(8, 12), period(15, 18)];
    assert.deepEqual(scheduledWorkingTimes(shifts, []), [period(15, 18), period(6, 14)]);
  });

  test('a shift inside another adds nothing', () => {
    assert.deepEqual(scheduledWorkingTimes([period(6, 14), period(8, 9)], []), [period(6, 14)]);
  });

  test('absences cut periods: split in the middle, trimmed at an edge, removed when covering', () => {
    const shifts = [period(0, 4), period(6, 10), period(12, 14)];
    const absences = [period(1, 2), period(9, 11), period(12, 14)];
    assert.deepEqual(scheduledWorkingTimes(shifts, absences), [period(6, 9), period(2, 4), period(0, 1)]);
  });

  test('an absence outside every shift changes nothing; the input is left as it was', () => {
    const shifts = [period(6, 10), period(8, 12)];
    assert.deepEqual(scheduledWorkingTimes(shifts, [period(20, 22)]), [period(6, 12)]);
    assert.deepEqual(shifts, [period(6, 10), period(8, 12)]);
  });
});

describe('periodPage', () => {
  // Newest first, as scheduledWorkingTimes gives them.
  const periods = [period(8, 9), period(6, 7), period(4, 5), period(2, 3), period(0, 1)];
  const page = (limit: number, direction: 'NEXT' | 'PREVIOUS', at?: number) =>
    periodPage(periods, { limit, direction, timestamp: at === undefined ? undefined : hour(at) });

  test('NEXT without a position: the newest page', () => {
    assert.deepEqual(page(2, 'NEXT'), {
      items: [period(8, 9), period(6, 7)],
      hasOlder: true,
      hasNewer: false,
    });
  });

  test('NEXT from a position: the periods starting before it', () => {
    assert.deepEqual(page(2, 'NEXT', 6), {
      items: [period(4, 5), period(2, 3)],
      hasOlder: true,
      hasNewer: true,
    });
    assert.deepEqual(page(2, 'NEXT', 2), { items: [period(0, 1)], hasOlder: false, hasNewer: true });
  });

  test('PREVIOUS without a position: the oldest page, newest first', () => {
    assert.deepEqual(page(2, 'PREVIOUS'), {
      items: [period(2, 3), period(0, 1)],
      hasOlder: false,
      hasNewer: true,
    });
  });

  test('PREVIOUS from a position: the newer periods nearest it', () => {
    assert.deepEqual(page(2, 'PREVIOUS', 2), {
      items: [period(6, 7), period(4, 5)],
      hasOlder: true,
      hasNewer: true,
    });
    assert.deepEqual(page(3, 'PREVIOUS', 4), {
      items: [period(8, 9), period(6, 7)],
      hasOlder: true,
      hasNewer: false,
    });
  });

  test('no periods: an empty page with nothing either side', () => {
    assert.deepEqual(periodPage([], { limit: 5, direction: 'NEXT', timestamp: undefined }), {
      items: [],
      hasOlder: false,
      hasNewer: false,
    });
  });
});

describe('absencesOverlapping', () => {
  const absence = (start: number, end: number, reason: string | null = null) => ({
    ...period(start, end),
    reason,
  });

  test('newest first by start, then by end; reasons kept', () => {
    const absences = [absence(1, 3, 'a'), absence(8, 9), absence(8, 12, 'b')];
    assert.deepEqual(absencesOverlapping(absences, {}), [
      absence(8, 12, 'b'),
      absence(8, 9),
      absence(1, 3, 'a'),
    ]);
  });

  test('the period keeps absences touching or overlapping it, either end open', () => {
    const absences = [absence(1, 3), absence(5, 6), absence(8, 9)];
    assert.deepEqual(absencesOverlapping(absences, { startDate: hour(3), endDate: hour(5) }), [
      absence(5, 6),
      absence(1, 3),
    ]);
    assert.deepEqual(absencesOverlapping(absences, { startDate: hour(7) }), [absence(8, 9)]);
    assert.deepEqual(absencesOverlapping(absences, { endDate: hour(2) }), [absence(1, 3)]);
  });

  test('the stored list is not reordered', () => {
    const absences = [absence(1, 3), absence(5, 6)];
    absencesOverlapping(absences, {});
    assert.deepEqual(absences, [absence(1, 3), absence(5, 6)]);
  });
});
