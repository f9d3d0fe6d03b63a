// The master data kinds kept in the database (docs/resources/masterData.md), one row each: where
// the kind is served, how a 404 names it, and what its entries show beyond their id. A family
// that brings a kind seeds its entries in a migration; it adds nothing here unless the kind is new.
import { type TSchema, Type } from 'typebox';
import type { MasterDataKind } from '../domain/masterDataEntries.ts';
import { ERP_CONTEXTS_PATH, masterDataPath } from './paths.ts';

/** The literal columns of an entry a localized text property reads. */
type LiteralColumn = 'description' | 'shortDescription';

export interface MasterDataKindRow {
  /** `master_data_entries.kind`, also the name of the collection's embedded array. */
  kind: MasterDataKind;
  /** As 404 messages and operationIds name one entry ("qualityDetail"). */
  singular: string;
  path: string;
  /** Localized text properties, each with its `/literals` link and embed: property -> literal. */
  texts: Readonly<Record<string, LiteralColumn>>;
  code: boolean;
  color: boolean;
  /** Properties stored in `attributes`, with their schema; null when an entry has none. */
  attributes: Readonly<Record<string, TSchema>>;
  /** An id property naming an entry of another kind, linked and embeddable under `rel`. */
  reference?: { property: string; rel: string; kind: MasterDataKind };
}

const DESCRIPTIONS = { description: 'description', shortDescription: 'shortDescription' } as const;

/** Reasons below a state (machine or operation production): how the plant may treat a booking. */
const DETAIL_FLAGS = {
  customerCode: Type.String(),
  isRecodable: Type.Boolean(),
  isSplittable: Type.Boolean(),
  isAnnotatable: Type.Boolean(),
};

/** A status definition: id, the two descriptions, code and color. */
const status = (kind: string, singular: string): MasterDataKindRow => ({
  kind,
  singular,
  path: masterDataPath(kind),
  texts: DESCRIPTIONS,
  code: true,
  color: true,
  attributes: {},
});

export const MASTER_DATA_KINDS: readonly MasterDataKindRow[] = [
  status('operatingStateClasses', 'operatingStateClass'),
  status('machineStates', 'machineState'),
  { ...status('machineStateDetails', 'machineStateDetail'), attributes: DETAIL_FLAGS },
  status('operationProductionStates', 'operationProductionState'),
  {
    ...status('operationProductionStateDetails', 'operationProductionStateDetail'),
    attributes: DETAIL_FLAGS,
  },
  { ...status('qualityTypes', 'qualityType'), code: false },
  {
    ...status('qualityDetails', 'qualityDetail'),
    reference: { property: 'qualityTypeId', rel: 'qualityType', kind: 'qualityTypes' },
  },
  status('shiftStates', 'shiftState'),
  // Whether a staff member is signed on; the v3 path names the kind after staff members.
  { ...status('personnelStates', 'personnelState'), path: masterDataPath('staffMemberStates') },
  {
    ...status('shiftTypes', 'shiftType'),
    code: false,
    color: false,
    attributes: { isWorkingShift: Type.Boolean() },
  },
  status('documentStates', 'documentState'),
  // A ticket state's text is its name, read from the description literal.
  { ...status('ticketStates', 'ticketState'), texts: { name: 'description' }, code: false },
  { ...status('ticketClasses', 'ticketClass'), color: false, attributes: { sequence: Type.Number() } },
  { ...status('ticketActivityStates', 'ticketActivityState'), texts: {}, code: false, color: false },
  {
    ...status('customerSpecificSettings', 'customerSpecificSetting'),
    texts: {},
    code: false,
    color: false,
    attributes: { topic: Type.String(), value: Type.String(), description: Type.String() },
  },
  // Reference data outside /masterData: the ERP keys orders, operations and groups belong to.
  {
    ...status('erpContexts', 'erpContext'),
    path: ERP_CONTEXTS_PATH,
    texts: {},
    code: false,
    color: false,
    attributes: {
      type: Type.String(),
      identifier1: Type.String(),
      identifier2: Type.String(),
      identifier3: Type.String(),
      systemNumber: Type.String(),
    },
  },
];

/** The kind's row; a programming error when it has none. */
export function masterDataKind(kind: string): MasterDataKindRow {
  const found = MASTER_DATA_KINDS.find((candidate) => candidate.kind === kind);
  if (!found) throw new Error(`no master data kind ${kind}`);
  return found;
}
