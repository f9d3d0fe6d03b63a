// Tool assembly order states as localized master data, and their lifecycle (docs/api.md, "States and transitions"):
// REQUESTED -> INITIATED -> ASSEMBLED -> PRESETTING -> AVAILABLE, UNAVAILABLE from any
// non-final state; AVAILABLE and UNAVAILABLE are final. The state value is the id.
import { entriesById, idsOf } from './masterData.ts';
import type { Transitions } from './transitions.ts';

export const TOOL_ASSEMBLY_ORDER_STATES = entriesById([
  ['REQUESTED', '#90A4AE', ['Requested', 'Angefordert', '已申请'], ['Req.', 'Angef.', '申请']],
  ['INITIATED', '#42A5F5', ['Initiated', 'Eingeleitet', '已启动'], ['Init.', 'Eingel.', '启动']],
  ['ASSEMBLED', '#1565C0', ['Assembled', 'Montiert', '已装配'], ['Assem.', 'Mont.', '装配']],
  ['PRESETTING', '#F9A825', ['Presetting', 'Voreinstellung', '预调中'], ['Preset', 'Vorein.', '预调']],
  ['AVAILABLE', '#2E7D32', ['Available', 'Verfügbar', '可用'], ['Avail.', 'Verfügb.', '可用']],
  [
    'UNAVAILABLE',
    '#C62828',
    ['Unavailable', 'Nicht verfügbar', '不可用'],
    ['Unavail.', 'N. verf.', '不可用'],
  ],
]);
export const TOOL_ASSEMBLY_ORDER_STATE_IDS = idsOf(TOOL_ASSEMBLY_ORDER_STATES);
export type ToolAssemblyOrderStateId = (typeof TOOL_ASSEMBLY_ORDER_STATE_IDS)[number];

export const INITIAL_TOOL_ASSEMBLY_ORDER_STATE: ToolAssemblyOrderStateId = 'REQUESTED';

export const TOOL_ASSEMBLY_ORDER_TRANSITIONS: Transitions<ToolAssemblyOrderStateId> = {
  REQUESTED: ['INITIATED', 'UNAVAILABLE'],
  INITIATED: ['ASSEMBLED', 'UNAVAILABLE'],
  ASSEMBLED: ['PRESETTING', 'UNAVAILABLE'],
  PRESETTING: ['AVAILABLE', 'UNAVAILABLE'],
  AVAILABLE: [],
  UNAVAILABLE: [],
};

export const canChangeToolAssemblyOrderState = (
  from: ToolAssemblyOrderStateId,
  to: ToolAssemblyOrderStateId,
): boolean => TOOL_ASSEMBLY_ORDER_TRANSITIONS[from].includes(to);
