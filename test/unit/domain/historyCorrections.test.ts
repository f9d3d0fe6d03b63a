// Corrections of a history (docs/resources/workplaces.md, "Corrections"): the inserted period
// trims the records it overlaps at either edge, removes the ones inside it, splits the one it lies
// inside of, and leaves the ones that only touch it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  checkCorrectionDates,
  insertPeriod,
  type Period,
  periodEnd,
} from '../../../src/domain/historyCorrections.ts';

const at = (minute: number) => new Date(Date.UTC(2024, 0, 1, 8, minute));
const record = (id: string, from: number, to: number | null): Period & { state: string } => ({
  id,
  startDate: at(from),
  endDate: to === null ? null : at(to),
  state: `state of ${id}`,
});
const history = [record('a', 0, 10), record('b', 10, 20), record('c', 20, 30), record('d', 30, null)];

test('a period overlapping both edges trims the record before and the record after', () => {
  const result = insertPeriod(history, at(5), at(15), 'tail');
  assert.deepEqual(result.removed, []);
  assert.deepEqual(result.changed, [
    { id: 'a', startDate: at(0), endDate: at(5) },
    { id: 'b', startDate: at(15), endDate: at(20) },
  ]);
  assert.equal(result.tail, null);
  assert.deepEqual(result.inserted, { startDate: at(5), endDate: at(15) });
});

test('a period inside one record splits it: the head keeps the id, the tail its values', () => {
  const result = insertPeriod(history, at(12), at(14), 'tail');
  assert.deepEqual(result.removed, []);
  assert.deepEqual(result.changed, [{ id: 'b', startDate: at(10), endDate: at(12) }]);
  assert.deepEqual(result.tail, { ...record('b', 14, 20), id: 'tail', from: 'b' });
});

test('a period inside the open record splits it, and the tail stays open', () => {
  const result = insertPeriod(history, at(40), at(45), 'tail');
  assert.deepEqual(result.changed, [{ id: 'd', startDate: at(30), endDate: at(40) }]);
  assert.deepEqual(result.tail, { ...record('d', 45, null), id: 'tail', from: 'd' });
});

test('a period covering several records removes them and trims the ones at its edges', () => {
  const result = insertPeriod(history, at(5), at(35), 'tail');
  assert.deepEqual(result.removed, ['b', 'c']);
  assert.deepEqual(result.changed, [
    { id: 'a', startDate: at(0), endDate: at(5) },
    { id: 'd', startDate: at(35), endDate: null },
  ]);
  assert.equal(result.tail, null);
});

test('records that only touch the period at its edges stay as they are', () => {
  const result = insertPeriod(history, at(10), at(20), 'tail');
  assert.deepEqual(result.removed, ['b']);
  assert.deepEqual(result.changed, []);
  assert.equal(result.tail, null);
});

test('an open period ends every record after its start', () => {
  const result = insertPeriod(history, at(25), null, 'tail');
  assert.deepEqual(result.removed, ['d']);
  assert.deepEqual(result.changed, [{ id: 'c', startDate: at(20), endDate: at(25) }]);
  assert.deepEqual(result.inserted, { startDate: at(25), endDate: null });
});

test('a period before every record changes none of them', () => {
  const result = insertPeriod(history.slice(1), at(0), at(10), 'tail');
  assert.deepEqual(result, {
    removed: [],
    changed: [],
    tail: null,
    inserted: { startDate: at(0), endDate: at(10) },
  });
});

test('without an end date the period ends where the next record starts, or stays open', () => {
  assert.deepEqual(periodEnd(history, at(12), null), at(20));
  assert.equal(periodEnd(history, at(31), null), null);
  assert.deepEqual(periodEnd(history, at(12), at(13)), at(13));
});

test('dates: the start before the end, neither in the future', () => {
  const now = at(50);
  assert.doesNotThrow(() => checkCorrectionDates(at(10), at(20), now));
  assert.doesNotThrow(() => checkCorrectionDates(at(10), null, now));
  const field = (start: Date, end: Date | null) => {
    try {
      checkCorrectionDates(start, end, now);
      return undefined;
    } catch (error) {
      return (error as { params: { field: string } }).params.field;
    }
  };
  assert.equal(field(at(20), at(20)), 'endDate');
  assert.equal(field(at(20), at(51)), 'endDate');
  assert.equal(field(at(51), null), 'startDate');
});
