// Operation phases (docs/api.md, "States and transitions"): every phase is reachable from the
// initial one, CLOSED is final and reachable from every phase, and the sets used by filters hold
// only known phases.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  canChangeOperationPhase,
  IN_PROGRESS_PHASES,
  INITIAL_OPERATION_PHASE,
  isOperationPhaseId,
  OPERATION_PHASE_IDS,
  OPERATION_PHASE_TRANSITIONS,
  type OperationPhaseId,
  PHASES_NEEDING_WORKPLACE,
} from '../../../src/domain/operationPhases.ts';

/** The phases reachable from `from` through allowed changes (itself included). */
function reachable(from: OperationPhaseId): Set<OperationPhaseId> {
  const seen = new Set<OperationPhaseId>([from]);
  const queue = [from];
  for (let phase = queue.shift(); phase !== undefined; phase = queue.shift()) {
    for (const next of OPERATION_PHASE_TRANSITIONS[phase]) {
      if (!seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return seen;
}

test('every phase can be reached from the initial one', () => {
  assert.deepEqual([...reachable(INITIAL_OPERATION_PHASE)].sort(), [...OPERATION_PHASE_IDS].sort());
});

test('CLOSED is final, and every phase can still end there', () => {
  assert.deepEqual(OPERATION_PHASE_TRANSITIONS.CLOSED, []);
  for (const phase of OPERATION_PHASE_IDS) assert.ok(reachable(phase).has('CLOSED'), phase);
});

test('a change is allowed exactly when the table lists it; no phase changes to itself', () => {
  for (const from of OPERATION_PHASE_IDS) {
    for (const to of OPERATION_PHASE_IDS) {
      assert.equal(
        canChangeOperationPhase(from, to),
        OPERATION_PHASE_TRANSITIONS[from].includes(to),
        `${from} -> ${to}`,
      );
    }
    assert.equal(canChangeOperationPhase(from, from), false, from);
  }
  assert.equal(canChangeOperationPhase('RELEASED', 'COMPLETED'), false);
  assert.equal(canChangeOperationPhase('INTERRUPTED', 'COMPLETED'), true);
});

test('the phase sets hold known phases; a phase that needs a workplace is in progress', () => {
  for (const phase of [...IN_PROGRESS_PHASES, ...PHASES_NEEDING_WORKPLACE])
    assert.ok(isOperationPhaseId(phase));
  for (const phase of PHASES_NEEDING_WORKPLACE) assert.ok(IN_PROGRESS_PHASES.includes(phase), phase);
  assert.equal(isOperationPhaseId('processing'), false);
  assert.equal(isOperationPhaseId(''), false);
});
