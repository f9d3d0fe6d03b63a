// Operation phases as localized master data, and their transitions (docs/api.md, "States and
// transitions"). The phase value is the id, as with workplace states.
import { entriesById, idsOf, isOneOf } from './masterData.ts';
import type { Transitions } from './transitions.ts';

export const OPERATION_PHASES = entriesById([
  ['RELEASED', '#90A4AE', ['Released', 'Freigegeben', '已下达'], ['Rel.', 'Freig.', '下达']],
  ['DISPATCHED', '#42A5F5', ['Dispatched', 'Eingeplant', '已派工'], ['Disp.', 'Eingepl.', '派工']],
  ['SETUP', '#1565C0', ['Setup', 'Rüsten', '换型调试'], ['Setup', 'Rüsten', '换型']],
  ['TRAINING', '#00897B', ['Training', 'Einarbeitung', '培训'], ['Train.', 'Einarb.', '培训']],
  ['PROCESSING', '#2E7D32', ['Processing', 'Bearbeitung', '加工中'], ['Proc.', 'Bearb.', '加工']],
  ['INTERRUPTED', '#F9A825', ['Interrupted', 'Unterbrochen', '已中断'], ['Int.', 'Unterbr.', '中断']],
  ['COMPLETED', '#6A1B9A', ['Completed', 'Fertiggemeldet', '已完工'], ['Compl.', 'Fertig', '完工']],
  ['CLOSED', '#424242', ['Closed', 'Abgeschlossen', '已关闭'], ['Closed', 'Abgeschl.', '关闭']],
]);
export const OPERATION_PHASE_IDS = idsOf(OPERATION_PHASES);
export type OperationPhaseId = (typeof OPERATION_PHASE_IDS)[number];

/** New operations start released by the ERP system. */
export const INITIAL_OPERATION_PHASE: OperationPhaseId = 'RELEASED';

/** Allowed phase changes; CLOSED is final. */
export const OPERATION_PHASE_TRANSITIONS: Transitions<OperationPhaseId> = {
  RELEASED: ['DISPATCHED', 'SETUP'],
  DISPATCHED: ['RELEASED', 'SETUP', 'PROCESSING'],
  SETUP: ['TRAINING', 'PROCESSING', 'INTERRUPTED'],
  TRAINING: ['PROCESSING', 'INTERRUPTED'],
  PROCESSING: ['INTERRUPTED', 'COMPLETED'],
  INTERRUPTED: ['SETUP', 'PROCESSING', 'COMPLETED'],
  COMPLETED: ['CLOSED'],
  CLOSED: [],
};

/** The phases of an operation in progress (the `isInProgress` filter, a workplace's currentOperations). */
export const IN_PROGRESS_PHASES: readonly OperationPhaseId[] = [
  'SETUP',
  'TRAINING',
  'PROCESSING',
  'INTERRUPTED',
];

/** Phases in which the operation runs on a workplace, so one must be known. */
export const PHASES_NEEDING_WORKPLACE: readonly OperationPhaseId[] = ['SETUP', 'TRAINING', 'PROCESSING'];

export const isOperationPhaseId = isOneOf(OPERATION_PHASE_IDS);

export const canChangeOperationPhase = (from: OperationPhaseId, to: OperationPhaseId): boolean =>
  OPERATION_PHASE_TRANSITIONS[from].includes(to);
