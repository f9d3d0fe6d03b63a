// Tool assembly order states as localized master data, and their lifecycle (docs/api.md, "States and transitions"):
// REQUESTED -> INITIATED -> ASSEMBLED -> PRESETTING -> AVAILABLE, UNAVAILABLE from any
// non-final state; AVAILABLE and UNAVAILABLE are final. The state value is the id.
import type { MasterDataEntry } from './masterData.ts';

export const TOOL_ASSEMBLY_ORDER_STATE_IDS = [
  'REQUESTED',
  'INITIATED',
  'ASSEMBLED',
  'PRESETTING',
  'AVAILABLE',
  'UNAVAILABLE',
] as const;
export type ToolAssemblyOrderStateId = (typeof TOOL_ASSEMBLY_ORDER_STATE_IDS)[number];

export const INITIAL_TOOL_ASSEMBLY_ORDER_STATE: ToolAssemblyOrderStateId = 'REQUESTED';

export const TOOL_ASSEMBLY_ORDER_TRANSITIONS: Readonly<
  Record<ToolAssemblyOrderStateId, readonly ToolAssemblyOrderStateId[]>
> = {
  REQUESTED: ['INITIATED', 'UNAVAILABLE'],
  INITIATED: ['ASSEMBLED', 'UNAVAILABLE'],
  ASSEMBLED: ['PRESETTING', 'UNAVAILABLE'],
  PRESETTING: ['AVAILABLE', 'UNAVAILABLE'],
  AVAILABLE: [],
  UNAVAILABLE: [],
};

export const isToolAssemblyOrderStateId = (value: string): value is ToolAssemblyOrderStateId =>
  (TOOL_ASSEMBLY_ORDER_STATE_IDS as readonly string[]).includes(value);

export const canChangeToolAssemblyOrderState = (
  from: ToolAssemblyOrderStateId,
  to: ToolAssemblyOrderStateId,
): boolean => TOOL_ASSEMBLY_ORDER_TRANSITIONS[from].includes(to);

export const TOOL_ASSEMBLY_ORDER_STATES: readonly MasterDataEntry[] = [
  {
    id: 'REQUESTED',
    code: 'REQUESTED',
    description: { 'en-GB': 'Requested', 'de-DE': 'Angefordert', 'zh-CN': '已申请' },
    shortDescription: { 'en-GB': 'Req.', 'de-DE': 'Angef.', 'zh-CN': '申请' },
    color: '#90A4AE',
  },
  {
    id: 'INITIATED',
    code: 'INITIATED',
    description: { 'en-GB': 'Initiated', 'de-DE': 'Eingeleitet', 'zh-CN': '已启动' },
    shortDescription: { 'en-GB': 'Init.', 'de-DE': 'Eingel.', 'zh-CN': '启动' },
    color: '#42A5F5',
  },
  {
    id: 'ASSEMBLED',
    code: 'ASSEMBLED',
    description: { 'en-GB': 'Assembled', 'de-DE': 'Montiert', 'zh-CN': '已装配' },
    shortDescription: { 'en-GB': 'Assem.', 'de-DE': 'Mont.', 'zh-CN': '装配' },
    color: '#1565C0',
  },
  {
    id: 'PRESETTING',
    code: 'PRESETTING',
    description: { 'en-GB': 'Presetting', 'de-DE': 'Voreinstellung', 'zh-CN': '预调中' },
    shortDescription: { 'en-GB': 'Preset', 'de-DE': 'Vorein.', 'zh-CN': '预调' },
    color: '#F9A825',
  },
  {
    id: 'AVAILABLE',
    code: 'AVAILABLE',
    description: { 'en-GB': 'Available', 'de-DE': 'Verfügbar', 'zh-CN': '可用' },
    shortDescription: { 'en-GB': 'Avail.', 'de-DE': 'Verfügb.', 'zh-CN': '可用' },
    color: '#2E7D32',
  },
  {
    id: 'UNAVAILABLE',
    code: 'UNAVAILABLE',
    description: { 'en-GB': 'Unavailable', 'de-DE': 'Nicht verfügbar', 'zh-CN': '不可用' },
    shortDescription: { 'en-GB': 'Unavail.', 'de-DE': 'N. verf.', 'zh-CN': '不可用' },
    color: '#C62828',
  },
];
