// Operation phases as localized master data, and their transitions (docs/api.md, "States and
// transitions"). The
// phase value is the id, as with workplace states.
import type { MasterDataEntry } from './masterData.ts';

export const OPERATION_PHASE_IDS = [
  'RELEASED',
  'DISPATCHED',
  'SETUP',
  'TRAINING',
  'PROCESSING',
  'INTERRUPTED',
  'COMPLETED',
  'CLOSED',
] as const;
export type OperationPhaseId = (typeof OPERATION_PHASE_IDS)[number];

/** New operations start released by the ERP system. */
export const INITIAL_OPERATION_PHASE: OperationPhaseId = 'RELEASED';

/** Allowed phase changes; CLOSED is final. */
export const OPERATION_PHASE_TRANSITIONS: Readonly<Record<OperationPhaseId, readonly OperationPhaseId[]>> = {
  RELEASED: ['DISPATCHED', 'SETUP'],
  DISPATCHED: ['RELEASED', 'SETUP', 'PROCESSING'],
  SETUP: ['TRAINING', 'PROCESSING', 'INTERRUPTED'],
  TRAINING: ['PROCESSING', 'INTERRUPTED'],
  PROCESSING: ['INTERRUPTED', 'COMPLETED'],
  INTERRUPTED: ['SETUP', 'PROCESSING', 'COMPLETED'],
  COMPLETED: ['CLOSED'],
  CLOSED: [],
};

/** Phases in which the operation runs on a workplace, so one must be known. */
/** The phases of an operation in progress (the `isInProgress` filter, a workplace's currentOperations). */
export const IN_PROGRESS_PHASES: readonly OperationPhaseId[] = [
  'SETUP',
  'TRAINING',
  'PROCESSING',
  'INTERRUPTED',
];

export const PHASES_NEEDING_WORKPLACE: readonly OperationPhaseId[] = ['SETUP', 'TRAINING', 'PROCESSING'];

export const isOperationPhaseId = (value: string): value is OperationPhaseId =>
  (OPERATION_PHASE_IDS as readonly string[]).includes(value);

export const canChangeOperationPhase = (from: OperationPhaseId, to: OperationPhaseId): boolean =>
  OPERATION_PHASE_TRANSITIONS[from].includes(to);

export const OPERATION_PHASES: readonly MasterDataEntry[] = [
  {
    id: 'RELEASED',
    code: 'RELEASED',
    description: { 'en-GB': 'Released', 'de-DE': 'Freigegeben', 'zh-CN': '已下达' },
    shortDescription: { 'en-GB': 'Rel.', 'de-DE': 'Freig.', 'zh-CN': '下达' },
    color: '#90A4AE',
  },
  {
    id: 'DISPATCHED',
    code: 'DISPATCHED',
    description: { 'en-GB': 'Dispatched', 'de-DE': 'Eingeplant', 'zh-CN': '已派工' },
    shortDescription: { 'en-GB': 'Disp.', 'de-DE': 'Eingepl.', 'zh-CN': '派工' },
    color: '#42A5F5',
  },
  {
    id: 'SETUP',
    code: 'SETUP',
    description: { 'en-GB': 'Setup', 'de-DE': 'Rüsten', 'zh-CN': '换型调试' },
    shortDescription: { 'en-GB': 'Setup', 'de-DE': 'Rüsten', 'zh-CN': '换型' },
    color: '#1565C0',
  },
  {
    id: 'TRAINING',
    code: 'TRAINING',
    description: { 'en-GB': 'Training', 'de-DE': 'Einarbeitung', 'zh-CN': '培训' },
    shortDescription: { 'en-GB': 'Train.', 'de-DE': 'Einarb.', 'zh-CN': '培训' },
    color: '#00897B',
  },
  {
    id: 'PROCESSING',
    code: 'PROCESSING',
    description: { 'en-GB': 'Processing', 'de-DE': 'Bearbeitung', 'zh-CN': '加工中' },
    shortDescription: { 'en-GB': 'Proc.', 'de-DE': 'Bearb.', 'zh-CN': '加工' },
    color: '#2E7D32',
  },
  {
    id: 'INTERRUPTED',
    code: 'INTERRUPTED',
    description: { 'en-GB': 'Interrupted', 'de-DE': 'Unterbrochen', 'zh-CN': '已中断' },
    shortDescription: { 'en-GB': 'Int.', 'de-DE': 'Unterbr.', 'zh-CN': '中断' },
    color: '#F9A825',
  },
  {
    id: 'COMPLETED',
    code: 'COMPLETED',
    description: { 'en-GB': 'Completed', 'de-DE': 'Fertiggemeldet', 'zh-CN': '已完工' },
    shortDescription: { 'en-GB': 'Compl.', 'de-DE': 'Fertig', 'zh-CN': '完工' },
    color: '#6A1B9A',
  },
  {
    id: 'CLOSED',
    code: 'CLOSED',
    description: { 'en-GB': 'Closed', 'de-DE': 'Abgeschlossen', 'zh-CN': '已关闭' },
    shortDescription: { 'en-GB': 'Closed', 'de-DE': 'Abgeschl.', 'zh-CN': '关闭' },
    color: '#424242',
  },
];
