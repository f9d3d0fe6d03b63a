// Operations (docs/resources/production-orders.md, "Operation"): the steps of a production order, with their standard values.
import { AppError } from './errors.ts';
import type { OperationPhaseId } from './operationPhases.ts';
import { checkPeriod, type Material } from './productionOrders.ts';
import type { Stored } from './stored.ts';

export interface Component {
  materialNumber: string;
  description: string | null;
  quantity: number | null;
  quantityUnit: string | null;
}

export interface ProductionResourceOrTool {
  type: string | null;
  identifier: string;
  description: string | null;
  toolId: string | null;
  /** The item's position in the ERP's list, its group, and how many the operation needs: as given. */
  itemNumber: string | null;
  group: string | null;
  quantity: number | null;
  quantityUnit: string | null;
}

/** A characteristic of the material the operation makes (ISO 13399 identifier), as the ERP sends it. */
export interface MaterialCharacteristic {
  name: string;
  identifier: string | null;
  value: string | null;
  unit: string | null;
}

/** A customer-defined field of the ERP, by its position. */
export interface UserField {
  position: number;
  value: string | null;
}

/** A tool definition as the ERP names it (its own id, not a tool of /tools). */
export interface ToolDefinition {
  id: string;
  name: string | null;
  description: string | null;
}

/** How a manufacturing variant is expected to run, as the planning system sends it. */
interface ManufacturingVariantForecast {
  delayFactor: number | null;
  processAvailability: number | null;
  performance: number | null;
  qualityRate: number | null;
  /** Milliseconds. */
  processingTime: number | null;
  additionalSetupTime: number | null;
  intermediateSetupTime: number | null;
  staffCapacityFactor: number | null;
  skillFactor: number | null;
}

/** One way to make the operation: the workplaces and tools it takes, as given. */
export interface ManufacturingVariant {
  workplaceIds: string[];
  tools: ToolDefinition[];
  additionalConditions: string | null;
  forecast: ManufacturingVariantForecast | null;
}

/** A skill an operation's setup or processing needs, and how much of it. */
export interface RequiredSkill {
  skillId: string;
  minimumSkill: number | null;
  capacity: number | null;
}

export interface RequiredSkills {
  setup: RequiredSkill[];
  processing: RequiredSkill[];
}

export const NO_REQUIRED_SKILLS: RequiredSkills = { setup: [], processing: [] };

/** The results of lead-time scheduling, as the planning system sends them. */
export interface ScheduledDates {
  earliestStartDate: Date | null;
  latestStartDate: Date | null;
  earliestEndDate: Date | null;
  latestEndDate: Date | null;
  scheduledStartDate: Date | null;
  scheduledEndDate: Date | null;
}

export const SCHEDULED_DATE_NAMES = [
  'earliestStartDate',
  'latestStartDate',
  'earliestEndDate',
  'latestEndDate',
  'scheduledStartDate',
  'scheduledEndDate',
] as const satisfies readonly (keyof ScheduledDates)[];

export const NO_SCHEDULED_DATES: ScheduledDates = {
  earliestStartDate: null,
  latestStartDate: null,
  earliestEndDate: null,
  latestEndDate: null,
  scheduledStartDate: null,
  scheduledEndDate: null,
};

/** Each start of the scheduled dates lies before its end; `prefix` names the element in a bulk body. */
export function checkScheduledDates(dates: ScheduledDates, prefix: string): void {
  checkPeriod(dates.earliestStartDate, dates.earliestEndDate, `${prefix}earliestEndDate`);
  checkPeriod(dates.latestStartDate, dates.latestEndDate, `${prefix}latestEndDate`);
  checkPeriod(dates.scheduledStartDate, dates.scheduledEndDate, `${prefix}scheduledEndDate`);
}

export interface OperationInput {
  productionOrderId: string;
  number: string;
  description: string | null;
  material: Material | null;
  workplaceId: string | null;
  workplaceGroupId: string | null;
  targetQuantity: number | null;
  quantityUnit: string | null;
  /** Durations in milliseconds. */
  targetTimePerUnit: number | null;
  targetSetupTime: number | null;
  targetTeardownTime: number | null;
  targetMoveTime: number | null;
  targetWaitTime: number | null;
  components: Component[];
  productionResourcesAndTools: ProductionResourceOrTool[];
  /** The ERP's split of the operation and its context: as given. */
  split: string | null;
  erpContextId: string | null;
  scheduledDates: ScheduledDates;
  /** Workplaces the operation may run at instead of its planned one. */
  alternativeWorkplaceIds: string[];
  materialCharacteristics: MaterialCharacteristic[];
  userFields: UserField[];
  /** Milliseconds per machine cycle, and the units one cycle makes. */
  targetMachineCycleTime: number | null;
  unitsPerMachineCycle: number | null;
  manufacturingVariants: ManufacturingVariant[];
  requiredTools: ToolDefinition[];
  requiredSkills: RequiredSkills;
  /** Planned period. */
  startDate: Date | null;
  endDate: Date | null;
}

export interface Operation extends OperationInput, Stored {
  /** Position within the production order. */
  sequence: number;
  operationPhaseId: OperationPhaseId;
}

/** Changes of these emit OPERATION_UPDATED; the phase has its own event (docs/events.md, "Catalogue"). */
export const OPERATION_CHARACTERISTICS = [
  'number',
  'description',
  'productionOrderId',
  'sequence',
  'material',
  'workplaceId',
  'workplaceGroupId',
  'targetQuantity',
  'quantityUnit',
  'targetTimePerUnit',
  'targetSetupTime',
  'targetTeardownTime',
  'targetMoveTime',
  'targetWaitTime',
  'components',
  'productionResourcesAndTools',
  'split',
  'erpContextId',
  'scheduledDates',
  'alternativeWorkplaceIds',
  'materialCharacteristics',
  'userFields',
  'targetMachineCycleTime',
  'unitsPerMachineCycle',
  'manufacturingVariants',
  'requiredTools',
  'requiredSkills',
  'startDate',
  'endDate',
] as const;

export interface RecordedOperationPhase {
  id: string;
  operationId: string;
  operationPhaseId: OperationPhaseId;
  workplaceId: string | null;
  staffMemberId: string | null;
  startDate: Date;
  endDate: Date | null;
}

/** Filters of GET /operations and POST /operations/search; empty lists restrict nothing. */
export interface OperationFilter {
  productionOrderIds?: readonly string[] | undefined;
  productionOrderNumbers?: readonly string[] | undefined;
  operationPhaseIds?: readonly string[] | undefined;
  workplaceIds?: readonly string[] | undefined;
  materialNumbers?: readonly string[] | undefined;
  /** true: in a running phase (IN_PROGRESS_PHASES); false: in any other. */
  inProgress?: boolean | undefined;
  /** Operations ending before startDate or starting after endDate are left out. */
  startDate?: Date | undefined;
  endDate?: Date | undefined;
}

/**
 * The material an operation keeps after a PUT: an operation without its own shows its order's
 * (docs/resources/production-orders.md), so that same material sent back is not made its own.
 */
export function ownMaterial(
  sent: Material | null,
  stored: Material | null,
  orderMaterial: Material | null,
): Material | null {
  const same = (a: Material | null, b: Material | null) =>
    a !== null && b !== null && a.number === b.number && a.description === b.description && a.type === b.type;
  return stored === null && same(sent, orderMaterial) ? null : sent;
}

/** targetProcessingTime = targetQuantity x targetTimePerUnit (ms, rounded); null while either is unknown. */
export function targetProcessingTime(
  operation: Pick<OperationInput, 'targetQuantity' | 'targetTimePerUnit'>,
) {
  const { targetQuantity, targetTimePerUnit } = operation;
  return targetQuantity === null || targetTimePerUnit === null
    ? null
    : Math.round(targetQuantity * targetTimePerUnit);
}

/** A client may send targetProcessingTime, but only the value it is derived to. */
export function checkTargetProcessingTime(
  input: OperationInput,
  sent: number | null | undefined,
  field = 'targetProcessingTime',
): void {
  if (sent === undefined || sent === null) return;
  const derived = targetProcessingTime(input);
  if (sent !== derived) {
    throw new AppError('VALIDATION_FAILED', {
      rule: 'value',
      field,
      detail: `must equal targetQuantity x targetTimePerUnit (${derived ?? 'unknown: both are needed'})`,
    });
  }
}

/** Time spent in the phases that make up an operation's execution, in ms. */
export interface PhaseTimes {
  setupTime: number;
  processingTime: number;
  interruptionTime: number;
  /** setupTime + processingTime: the SDK's executionTime and occupancyTime. */
  executionTime: number;
  /** The first start and the last end of the records; null without records. */
  startDate: Date | null;
  endDate: Date | null;
}

/**
 * Sums the recorded phase periods by phase; an open record counts until `now`. Records of other
 * phases (RELEASED, ENDED, ...) only widen the period.
 */
export function phaseTimes(
  records: readonly Pick<RecordedOperationPhase, 'operationPhaseId' | 'startDate' | 'endDate'>[],
  now: Date,
): PhaseTimes {
  const sums = { SETUP: 0, PROCESSING: 0, INTERRUPTED: 0 } as Record<string, number>;
  let start: number | null = null;
  let end: number | null = null;
  for (const record of records) {
    const from = record.startDate.getTime();
    const to = Math.max(from, (record.endDate ?? now).getTime());
    if (record.operationPhaseId in sums)
      sums[record.operationPhaseId] = (sums[record.operationPhaseId] ?? 0) + to - from;
    start = start === null ? from : Math.min(start, from);
    end = end === null ? to : Math.max(end, to);
  }
  const setupTime = sums.SETUP ?? 0;
  const processingTime = sums.PROCESSING ?? 0;
  return {
    setupTime,
    processingTime,
    interruptionTime: sums.INTERRUPTED ?? 0,
    executionTime: setupTime + processingTime,
    startDate: start === null ? null : new Date(start),
    endDate: end === null ? null : new Date(end),
  };
}
