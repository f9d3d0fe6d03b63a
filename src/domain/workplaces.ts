// Workplaces and workplace groups as the services and repositories exchange them.

export const WORKPLACE_GROUP_TYPES = ['CAPACITY_GROUP', 'PRODUCTION_LINE'] as const;
export type WorkplaceGroupType = (typeof WORKPLACE_GROUP_TYPES)[number];

export interface WorkplaceGroupInput {
  number: string;
  description: string | null;
  type: WorkplaceGroupType;
}

export interface WorkplaceGroup extends WorkplaceGroupInput {
  id: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface WorkplaceInput {
  number: string;
  description: string | null;
  isManualWorkplace: boolean;
  capacityGroupId: string;
  productionLineId: string | null;
}

export interface Workplace extends WorkplaceInput {
  id: string;
  operatingStateId: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface RecordedOperatingState {
  id: string;
  workplaceId: string;
  operatingStateId: string;
  startDate: Date;
  endDate: Date | null;
}

/** Names of the characteristic properties that differ; a change of any emits *_UPDATED. */
export function changedProperties<T extends object>(
  before: T,
  after: T,
  keys: readonly (keyof T)[],
): string[] {
  return keys.filter((key) => before[key] !== after[key]).map(String);
}
