// phaseTimes and the scheduled date rule (src/domain/operations.ts), on hand-made records.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AppError } from '../../../src/domain/errors.ts';
import { checkScheduledDates, NO_SCHEDULED_DATES, phaseTimes } from '../../../src/domain/operations.ts';

const at = (minute: number) => new Date(Date.UTC(2030, 0, 1, 6, minute));

test('phaseTimes sums setup, processing and interruption; an open record counts until now', () => {
  const times = phaseTimes(
    [
      { operationPhaseId: 'RELEASED', startDate: at(0), endDate: at(5) },
      { operationPhaseId: 'SETUP', startDate: at(5), endDate: at(15) },
      { operationPhaseId: 'INTERRUPTED', startDate: at(15), endDate: at(18) },
      { operationPhaseId: 'SETUP', startDate: at(18), endDate: at(20) },
      { operationPhaseId: 'PROCESSING', startDate: at(20), endDate: null },
    ],
    at(50),
  );
  assert.deepEqual(times, {
    setupTime: 12 * 60_000,
    processingTime: 30 * 60_000,
    interruptionTime: 3 * 60_000,
    executionTime: 42 * 60_000,
    startDate: at(0),
    endDate: at(50),
  });
});

test('phaseTimes of no records is zero with no period', () => {
  assert.deepEqual(phaseTimes([], at(0)), {
    setupTime: 0,
    processingTime: 0,
    interruptionTime: 0,
    executionTime: 0,
    startDate: null,
    endDate: null,
  });
});

test('checkScheduledDates refuses an end before its start, naming it', () => {
  checkScheduledDates(NO_SCHEDULED_DATES, '');
  checkScheduledDates({ ...NO_SCHEDULED_DATES, latestStartDate: at(10), latestEndDate: at(10) }, '');
  assert.throws(
    () =>
      checkScheduledDates({ ...NO_SCHEDULED_DATES, earliestStartDate: at(10), earliestEndDate: at(5) }, 'x.'),
    (error: unknown) => error instanceof AppError && JSON.stringify(error).includes('x.earliestEndDate'),
  );
});
