// Histories derived from stored ones: an operation's operating states are its workplaces' records
// clipped to its running phases (joined where consecutive phases cut one), and a staff member's
// login periods are its activities with the share of the periods open at their start.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loginPeriods, operatingStatesOfOperation } from '../../../src/domain/derivedHistories.ts';
import type { OperationPhaseId } from '../../../src/domain/operationPhases.ts';

const at = (minute: number) => new Date(Date.UTC(2024, 0, 1, 8, minute));
const end = (minute: number | null) => (minute === null ? null : at(minute));
const phase = (
  operationPhaseId: OperationPhaseId,
  from: number,
  to: number | null,
  workplaceId: string | null = 'w1',
) => ({
  operationPhaseId,
  workplaceId,
  startDate: at(from),
  endDate: end(to),
});
const state = (operatingStateId: string, from: number, to: number | null, workplaceId = 'w1') => ({
  workplaceId,
  operatingStateId,
  startDate: at(from),
  endDate: end(to),
});
const clipped = (operatingStateId: string, from: number, to: number | null, workplaceId = 'w1') => ({
  workplaceId,
  operatingStateId,
  startDate: at(from),
  endDate: end(to),
});

test('records are clipped to the running phases, newest first', () => {
  const phases = [
    phase('RELEASED', 0, 10, null),
    phase('SETUP', 10, 20),
    phase('PROCESSING', 20, 40),
    phase('INTERRUPTED', 40, 50),
    phase('PROCESSING', 50, null),
  ];
  const states = [state('A', 0, 15), state('B', 15, 45), state('C', 45, null), state('X', 0, null, 'w2')];
  assert.deepEqual(operatingStatesOfOperation(phases, states), [
    clipped('C', 50, null),
    // SETUP and PROCESSING cut B at 20: one period again.
    clipped('B', 15, 40),
    clipped('A', 10, 15),
  ]);
});

test('phases at two workplaces take each its own records; the window clips them', () => {
  const phases = [
    phase('SETUP', 0, 30, 'w1'),
    phase('PROCESSING', 30, 60, 'w2'),
    phase('COMPLETED', 60, null, 'w2'),
  ];
  const states = [state('A', 0, null, 'w1'), state('B', 0, 45, 'w2'), state('C', 45, null, 'w2')];
  assert.deepEqual(operatingStatesOfOperation(phases, states), [
    clipped('C', 45, 60, 'w2'),
    clipped('B', 30, 45, 'w2'),
    clipped('A', 0, 30, 'w1'),
  ]);
  assert.deepEqual(operatingStatesOfOperation(phases, states, { startDate: at(20), endDate: at(50) }), [
    clipped('C', 45, 50, 'w2'),
    clipped('B', 30, 45, 'w2'),
    clipped('A', 20, 30, 'w1'),
  ]);
});

test('records only touching a phase, and phases of no length, give nothing', () => {
  const phases = [phase('SETUP', 10, 20), phase('PROCESSING', 20, 20)];
  assert.deepEqual(operatingStatesOfOperation(phases, [state('A', 0, 10), state('B', 20, null)]), []);
});

test('login periods: newest first, the proportion shared with the periods open at the start', () => {
  const activity = (operationId: string, from: number, to: number | null) => ({
    workplaceId: 'w1',
    operationId,
    startDate: at(from),
    endDate: end(to),
  });
  const periods = loginPeriods([
    activity('o1', 0, 30),
    activity('o2', 10, null),
    activity('o3', 20, 25),
    activity('o1', 40, null),
  ]);
  assert.deepEqual(
    periods.map((p) => [p.operationId, p.startDate, p.endDate, p.proportion]),
    [
      ['o1', at(40), null, 1 / 2],
      ['o3', at(20), at(25), 1 / 3],
      ['o2', at(10), null, 1 / 2],
      ['o1', at(0), at(30), 1],
    ],
  );
  assert.deepEqual(loginPeriods([]), []);
});
