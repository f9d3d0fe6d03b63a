// Staff members (src/domain/staffMembers.ts): a scheduled working time from shifts and absences.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { scheduledWorkingTimes } from '../../../src/domain/staffMembers.ts';

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
