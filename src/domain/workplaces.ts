// Workplaces and workplace groups as the services and repositories exchange them.
import type { Stored } from './stored.ts';

export const WORKPLACE_GROUP_TYPES = ['CAPACITY_GROUP', 'PRODUCTION_LINE'] as const;
export type WorkplaceGroupType = (typeof WORKPLACE_GROUP_TYPES)[number];

export interface WorkplaceGroupInput {
  number: string;
  description: string | null;
  type: WorkplaceGroupType;
  erpContextId: string | null;
}

export interface WorkplaceGroup extends WorkplaceGroupInput, Stored {}

/** Changes of these make a workplace group's RESOURCES_UPDATED (UPDATED). */
export const WORKPLACE_GROUP_CHARACTERISTICS = ['number', 'description', 'type', 'erpContextId'] as const;

export const WORKPLACE_TYPES = ['MACHINE_WORKPLACE', 'MANUAL_WORKPLACE', 'MANUAL_MACHINE_WORKPLACE'] as const;
export type WorkplaceType = (typeof WORKPLACE_TYPES)[number];

export interface WorkplaceInput {
  number: string;
  description: string | null;
  isManualWorkplace: boolean;
  workplaceType: WorkplaceType;
  erpContextId: string | null;
  capacityGroupId: string;
  productionLineId: string | null;
}

/** The flag a workplace type implies: both manual types are manual workplaces. */
const isManualType = (type: WorkplaceType): boolean => type !== 'MACHINE_WORKPLACE';

/**
 * The type and flag of a created or replaced workplace from what the body sent
 * (docs/resources/workplaces.md, "Workplace type"): the type decides the flag; a flag sent alone
 * keeps the stored type when they agree (a PUT of an older client), else gives MANUAL_WORKPLACE
 * or MACHINE_WORKPLACE; neither sent is a machine workplace. Both sent and disagreeing: an error
 * naming `isManualWorkplace` (undefined when they agree).
 */
export function resolveWorkplaceType(
  sent: { workplaceType?: WorkplaceType | undefined; isManualWorkplace?: boolean | undefined },
  stored?: WorkplaceType,
): { workplaceType: WorkplaceType; isManualWorkplace: boolean } | { conflict: string } {
  const { workplaceType, isManualWorkplace } = sent;
  if (workplaceType !== undefined) {
    if (isManualWorkplace !== undefined && isManualWorkplace !== isManualType(workplaceType)) {
      return { conflict: `must be ${isManualType(workplaceType)} for workplaceType ${workplaceType}` };
    }
    return { workplaceType, isManualWorkplace: isManualType(workplaceType) };
  }
  if (isManualWorkplace === undefined)
    return { workplaceType: 'MACHINE_WORKPLACE', isManualWorkplace: false };
  if (stored !== undefined && isManualType(stored) === isManualWorkplace) {
    return { workplaceType: stored, isManualWorkplace };
  }
  return { workplaceType: isManualWorkplace ? 'MANUAL_WORKPLACE' : 'MACHINE_WORKPLACE', isManualWorkplace };
}

/** A point on the earth (the SDK's GeoCoordinates): latitude -90..90, longitude -180..180, in degrees. */
export interface GeoCoordinates {
  latitude: number;
  longitude: number;
}

/** Whether two locations (null: unknown) are the same. */
export const sameLocation = (a: GeoCoordinates | null, b: GeoCoordinates | null): boolean =>
  a === null || b === null ? a === b : a.latitude === b.latitude && a.longitude === b.longitude;

export interface Workplace extends WorkplaceInput, Stored {
  operatingStateId: string;
  /** Where it is; null when unknown (docs/resources/workplaces.md, "Location"). */
  geoCoordinates: GeoCoordinates | null;
  /**
   * Its capacity group and production line as read in the same statement, when they were: what
   * shows a workplace then needs no query of its own for them. Only these ids count: after a
   * change of a group id the reader looks the new group up.
   */
  readGroups?: readonly WorkplaceGroup[];
}

/** Changes of these emit WORKPLACE_UPDATED; the operating state has its own event (docs/events.md, "Catalogue"). */
export const WORKPLACE_CHARACTERISTICS = [
  'number',
  'description',
  'isManualWorkplace',
  'workplaceType',
  'erpContextId',
  'capacityGroupId',
  'productionLineId',
] as const;

export interface RecordedOperatingState {
  id: string;
  workplaceId: string;
  operatingStateId: string;
  startDate: Date;
  endDate: Date | null;
  /** The machine state details (reasons) it was set or corrected with (docs/resources/machines.md). */
  machineStateDetailIds: string[];
  remark: string | null;
}

/** Names of the characteristic properties that differ; a change of any emits *_UPDATED. */
export function changedProperties<T extends object>(
  before: T,
  after: T,
  keys: readonly (keyof T)[],
): string[] {
  return keys.filter((key) => before[key] !== after[key]).map(String);
}
