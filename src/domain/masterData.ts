// Read-only master data of workplace states and operating states (docs/api.md, "States and
// transitions"). Workplace-state ids are the words PRODUCTION and DOWNTIME, operating-state ids
// fixed UUIDs, so every installation and every instance agrees on them.
import { v5 as uuidv5 } from 'uuid';
import type { LocalizedText } from '../i18n/locales.ts';
import type { Literal } from './masterDataEntries.ts';

export interface MasterDataEntry {
  id: string;
  code: string;
  description: LocalizedText;
  shortDescription: LocalizedText;
  color: string;
}

export interface OperatingState extends MasterDataEntry {
  workplaceStateId: WorkplaceStateId;
  /** Its class among the seeded operating state classes (migration 030); null where none fits. */
  operatingStateClassId: string | null;
}

/**
 * The seeded operating state classes the states below belong to (migration 030): waiting for
 * material is an organizational stop, planned maintenance a maintenance stop. The other states
 * have no class among the seeded ones, as the real server shows production and undefined
 * stoppages without one.
 */
const ORGANIZATIONAL_CLASS_ID = '05004E227AE642709B27BEF620E2FED0';
const MAINTENANCE_CLASS_ID = '9478019210E0423AAC7C4ABC147CD24E';

/** A text in the locales master data is written in: en-GB, de-DE and zh-CN. */
type Texts = readonly [enGB: string, deDE: string, zhCN: string];

const localized = ([enGB, deDE, zhCN]: Texts): LocalizedText => ({
  'en-GB': enGB,
  'de-DE': deDE,
  'zh-CN': zhCN,
});

/**
 * A list whose ids are their codes (workplace states, operation phases, tool assembly order
 * states), one entry a row: id, color, description, short description.
 */
export const entriesById = <const Id extends string>(
  rows: readonly (readonly [id: Id, color: string, description: Texts, shortDescription: Texts])[],
): readonly (MasterDataEntry & { id: Id })[] =>
  rows.map(([id, color, description, shortDescription]) => ({
    id,
    code: id,
    description: localized(description),
    shortDescription: localized(shortDescription),
    color,
  }));

/** The ids of a list, in its order. */
export const idsOf = <Id extends string>(entries: readonly { id: Id }[]): readonly Id[] =>
  entries.map((entry) => entry.id);

/** Whether a value sent is one of these ids: a guard for their type. */
export const isOneOf =
  <Id extends string>(ids: readonly Id[]) =>
  (value: string): value is Id =>
    (ids as readonly string[]).includes(value);

export const WORKPLACE_STATES = entriesById([
  ['PRODUCTION', '#2E7D32', ['Production', 'Produktion', '生产'], ['Prod.', 'Prod.', '生产']],
  ['DOWNTIME', '#C62828', ['Downtime', 'Stillstand', '停机'], ['Down', 'Still.', '停机']],
]);
export const WORKPLACE_STATE_IDS = idsOf(WORKPLACE_STATES);
export type WorkplaceStateId = (typeof WORKPLACE_STATE_IDS)[number];

export const OPERATING_STATES: readonly OperatingState[] = [
  {
    id: 'b6ec1cd6-d254-5106-99ea-43edce9543dd',
    code: '000',
    workplaceStateId: 'PRODUCTION',
    operatingStateClassId: null,
    description: { 'en-GB': 'Production', 'de-DE': 'Produktion', 'zh-CN': '生产' },
    shortDescription: { 'en-GB': 'Prod.', 'de-DE': 'Prod.', 'zh-CN': '生产' },
    color: '#2E7D32',
  },
  {
    id: '3d2e0b34-7640-51ba-8d4a-179431e31693',
    code: '010',
    workplaceStateId: 'DOWNTIME',
    operatingStateClassId: ORGANIZATIONAL_CLASS_ID,
    description: { 'en-GB': 'Waiting for material', 'de-DE': 'Warten auf Material', 'zh-CN': '等待物料' },
    shortDescription: { 'en-GB': 'Material', 'de-DE': 'Material', 'zh-CN': '待料' },
    color: '#F9A825',
  },
  {
    id: '4e497aff-ed65-5dc0-8004-3c0a8fa518e1',
    code: '020',
    workplaceStateId: 'DOWNTIME',
    operatingStateClassId: null,
    description: { 'en-GB': 'Setup', 'de-DE': 'Rüsten', 'zh-CN': '换型调试' },
    shortDescription: { 'en-GB': 'Setup', 'de-DE': 'Rüsten', 'zh-CN': '换型' },
    color: '#1565C0',
  },
  {
    id: '70bc3dba-1d9d-5a3c-a0f5-fb4cfafe11fa',
    code: '110',
    workplaceStateId: 'DOWNTIME',
    operatingStateClassId: null,
    description: { 'en-GB': 'Malfunction', 'de-DE': 'Störung', 'zh-CN': '故障' },
    shortDescription: { 'en-GB': 'Fault', 'de-DE': 'Störung', 'zh-CN': '故障' },
    color: '#C62828',
  },
  {
    id: '62540d52-ec93-52fc-8c1e-cbca9610b7c3',
    code: '410',
    workplaceStateId: 'DOWNTIME',
    operatingStateClassId: MAINTENANCE_CLASS_ID,
    description: { 'en-GB': 'Planned maintenance', 'de-DE': 'Geplante Wartung', 'zh-CN': '计划维护' },
    shortDescription: { 'en-GB': 'Maint.', 'de-DE': 'Wartung', 'zh-CN': '维护' },
    color: '#6A1B9A',
  },
  {
    id: 'fdf23d49-794d-5de0-8422-86df0d65641a',
    code: '993',
    workplaceStateId: 'DOWNTIME',
    operatingStateClassId: null,
    description: { 'en-GB': 'Break', 'de-DE': 'Pause', 'zh-CN': '休息' },
    shortDescription: { 'en-GB': 'Break', 'de-DE': 'Pause', 'zh-CN': '休息' },
    color: '#757575',
  },
  {
    id: 'd1b69a53-e94a-5b2f-bdff-09bf88c9593e',
    code: '998',
    workplaceStateId: 'DOWNTIME',
    operatingStateClassId: null,
    description: { 'en-GB': 'No connection', 'de-DE': 'Keine Verbindung', 'zh-CN': '无连接' },
    shortDescription: { 'en-GB': 'No conn.', 'de-DE': 'Keine Verb.', 'zh-CN': '无连接' },
    color: '#9E9E9E',
  },
  {
    id: '6b5e3e20-94f4-55ee-9a6e-eb7a3eb4f379',
    code: '999',
    workplaceStateId: 'DOWNTIME',
    operatingStateClassId: null,
    description: {
      'en-GB': 'Undefined stoppage',
      'de-DE': 'Undefinierter Stillstand',
      'zh-CN': '未定义停机',
    },
    shortDescription: { 'en-GB': 'Undefined', 'de-DE': 'Undef.', 'zh-CN': '未定义' },
    color: '#424242',
  },
];

/** A connector lost the machine whose state it reports (docs/resources/connectors.md, "Stale values"). */
export const NO_CONNECTION_STATE_CODE = '998';

/** A new workplace knows nothing of its machine yet. */
export const INITIAL_OPERATING_STATE_CODE = '999';

/** Finds an operating state by its id or by its code (`110`). */
export function findOperatingState(idOrCode: string): OperatingState | undefined {
  return OPERATING_STATES.find((state) => state.id === idOrCode || state.code === idOrCode);
}

export function operatingStateById(id: string): OperatingState {
  const state = OPERATING_STATES.find((candidate) => candidate.id === id);
  if (!state) throw new Error(`unknown operating state id ${id} in storage`);
  return state;
}

/**
 * Operating states that are planned stops (docs/resources/reports.md, "OEE"): Break (993) and
 * Planned maintenance (410). Their time is not planned production time; every other DOWNTIME
 * state is an unplanned stop.
 */
const PLANNED_STOP_CODES: readonly string[] = ['410', '993'];

export const isPlannedStop = (state: OperatingState): boolean => PLANNED_STOP_CODES.includes(state.code);

/** The lists held in code, by the name of their collection. */
export type CodeHeldList =
  | 'operatingStates'
  | 'workplaceStates'
  | 'operationPhases'
  | 'toolAssemblyOrderStates';

/** The texts of an entry that are literals, as the real API links and embeds them. */
export type TextProperty = 'description' | 'shortDescription';

// Fixed, so the literal ids of the lists above are the same on every installation; migration 090
// stores these literals so `/literals/{id}` serves them.
const LITERAL_NAMESPACE = '5b0c7f1e-3d7a-4c51-9a0e-2f6b1d8c4e93';

/**
 * The literal of a text of an entry held in code: an id derived from list, entry and property
 * (in the real API's form, 32 upper-case hex digits) and the text in every language it has.
 */
export function entryLiteral(list: CodeHeldList, entry: MasterDataEntry, property: TextProperty): Literal {
  const id = uuidv5(`${list}/${entry.id}/${property}`, LITERAL_NAMESPACE).replaceAll('-', '').toUpperCase();
  const translations = Object.entries(entry[property]).map(([language, translation]) => ({
    language,
    translation,
  }));
  return { id, translations };
}
