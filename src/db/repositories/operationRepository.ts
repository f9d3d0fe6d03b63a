import { IN_PROGRESS_PHASES, type OperationPhaseId } from '../../domain/operationPhases.ts';
import {
  type Component,
  type ManufacturingVariant,
  type MaterialCharacteristic,
  NO_REQUIRED_SKILLS,
  type Operation,
  type OperationFilter,
  type ProductionResourceOrTool,
  type RecordedOperationPhase,
  type RequiredSkill,
  type RequiredSkills,
  SCHEDULED_DATE_NAMES,
  type ScheduledDates,
  type ToolDefinition,
  type UserField,
} from '../../domain/operations.ts';
import { Conditions, type PeriodFilter } from '../conditions.ts';
import type { Queryable } from '../database.ts';
import { history } from '../history.ts';
import {
  asJsonb,
  batchFind,
  byStartDate,
  forUpdate,
  fromJsonb,
  lockableFind,
  ofOwners,
  ownedBy,
  rowWrites,
  type Table,
  timestampList,
} from '../table.ts';
import { materialColumns, materialOf } from './productionOrderRepository.ts';

interface Row {
  id: string;
  production_order_id: string;
  sequence: number;
  number: string;
  description: string | null;
  material_number: string | null;
  material_description: string | null;
  material_type: string | null;
  operation_phase_id: OperationPhaseId;
  workplace_id: string | null;
  workplace_group_id: string | null;
  target_quantity: number | null;
  quantity_unit: string | null;
  // bigint columns arrive as text from node-postgres.
  target_time_per_unit: string | number | null;
  target_setup_time: string | number | null;
  target_teardown_time: string | number | null;
  target_move_time: string | number | null;
  target_wait_time: string | number | null;
  components: Component[] | string;
  production_resources_and_tools: ProductionResourceOrTool[] | string;
  split: string | null;
  erp_context_id: string | null;
  scheduled_dates: Record<string, string | null> | string;
  alternative_workplace_ids: string[] | string;
  material_characteristics: MaterialCharacteristic[] | string;
  user_fields: UserField[] | string;
  target_machine_cycle_time: string | number | null;
  units_per_machine_cycle: number | null;
  manufacturing_variants: ManufacturingVariant[] | string;
  required_tools: ToolDefinition[] | string;
  required_skills: RequiredSkills | string;
  start_date: Date | null;
  end_date: Date | null;
  created_at: Date;
  updated_at: Date;
}

const duration = (value: string | number | null) => (value === null ? null : Number(value));
// jsonb keeps keys in its own order (shortest first): rebuild the objects in the order the
// routes build them, as changes are detected on their JSON text.
const toComponent = (component: Component): Component => ({
  materialNumber: component.materialNumber,
  description: component.description,
  quantity: component.quantity,
  quantityUnit: component.quantityUnit,
});
const toTool = (tool: ProductionResourceOrTool): ProductionResourceOrTool => ({
  type: tool.type,
  identifier: tool.identifier,
  description: tool.description,
  toolId: tool.toolId,
  // Rows written before these fields existed lack them.
  itemNumber: tool.itemNumber ?? null,
  group: tool.group ?? null,
  quantity: tool.quantity ?? null,
  quantityUnit: tool.quantityUnit ?? null,
});
const toCharacteristic = (characteristic: MaterialCharacteristic): MaterialCharacteristic => ({
  name: characteristic.name,
  identifier: characteristic.identifier,
  value: characteristic.value,
  unit: characteristic.unit,
});
const toUserField = (field: UserField): UserField => ({ position: field.position, value: field.value });
const toToolDefinition = (tool: ToolDefinition): ToolDefinition => ({
  id: tool.id,
  name: tool.name,
  description: tool.description,
});
const toVariant = (variant: ManufacturingVariant): ManufacturingVariant => ({
  workplaceIds: variant.workplaceIds,
  tools: variant.tools.map(toToolDefinition),
  additionalConditions: variant.additionalConditions,
  forecast: variant.forecast && {
    delayFactor: variant.forecast.delayFactor,
    processAvailability: variant.forecast.processAvailability,
    performance: variant.forecast.performance,
    qualityRate: variant.forecast.qualityRate,
    processingTime: variant.forecast.processingTime,
    additionalSetupTime: variant.forecast.additionalSetupTime,
    intermediateSetupTime: variant.forecast.intermediateSetupTime,
    staffCapacityFactor: variant.forecast.staffCapacityFactor,
    skillFactor: variant.forecast.skillFactor,
  },
});
const toSkill = (skill: RequiredSkill): RequiredSkill => ({
  skillId: skill.skillId,
  minimumSkill: skill.minimumSkill,
  capacity: skill.capacity,
});
const toSkills = (skills: RequiredSkills): RequiredSkills => ({
  setup: (skills.setup ?? NO_REQUIRED_SKILLS.setup).map(toSkill),
  processing: (skills.processing ?? NO_REQUIRED_SKILLS.processing).map(toSkill),
});
const toScheduledDates = (stored: Record<string, string | null>): ScheduledDates => {
  const dates = {} as Record<keyof ScheduledDates, Date | null>;
  for (const name of SCHEDULED_DATE_NAMES) {
    const value = stored[name];
    dates[name] = value ? new Date(value) : null;
  }
  return dates;
};
const scheduledDatesJson = (dates: ScheduledDates) =>
  Object.fromEntries(SCHEDULED_DATE_NAMES.map((name) => [name, dates[name]?.toISOString() ?? null]));

const toOperation = (row: Row): Operation => ({
  id: row.id,
  productionOrderId: row.production_order_id,
  sequence: row.sequence,
  number: row.number,
  description: row.description,
  material: materialOf(row),
  operationPhaseId: row.operation_phase_id,
  workplaceId: row.workplace_id,
  workplaceGroupId: row.workplace_group_id,
  targetQuantity: row.target_quantity,
  quantityUnit: row.quantity_unit,
  targetTimePerUnit: duration(row.target_time_per_unit),
  targetSetupTime: duration(row.target_setup_time),
  targetTeardownTime: duration(row.target_teardown_time),
  targetMoveTime: duration(row.target_move_time),
  targetWaitTime: duration(row.target_wait_time),
  components: fromJsonb(row.components).map(toComponent),
  productionResourcesAndTools: fromJsonb(row.production_resources_and_tools).map(toTool),
  split: row.split,
  erpContextId: row.erp_context_id,
  scheduledDates: toScheduledDates(fromJsonb(row.scheduled_dates)),
  alternativeWorkplaceIds: fromJsonb(row.alternative_workplace_ids),
  materialCharacteristics: fromJsonb(row.material_characteristics).map(toCharacteristic),
  userFields: fromJsonb(row.user_fields).map(toUserField),
  targetMachineCycleTime: duration(row.target_machine_cycle_time),
  unitsPerMachineCycle: row.units_per_machine_cycle,
  manufacturingVariants: fromJsonb(row.manufacturing_variants).map(toVariant),
  requiredTools: fromJsonb(row.required_tools).map(toToolDefinition),
  requiredSkills: toSkills(fromJsonb(row.required_skills)),
  startDate: row.start_date,
  endDate: row.end_date,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

/** The columns of an operation beside the same-named ones of `operationWrites`. */
const otherColumns = (operation: Operation) => ({
  ...materialColumns(operation.material),
  components: asJsonb(operation.components),
  production_resources_and_tools: asJsonb(operation.productionResourcesAndTools),
  scheduled_dates: asJsonb(scheduledDatesJson(operation.scheduledDates)),
  alternative_workplace_ids: asJsonb(operation.alternativeWorkplaceIds),
  material_characteristics: asJsonb(operation.materialCharacteristics),
  user_fields: asJsonb(operation.userFields),
  manufacturing_variants: asJsonb(operation.manufacturingVariants),
  required_tools: asJsonb(operation.requiredTools),
  required_skills: asJsonb(operation.requiredSkills),
});

const OPERATIONS: Table<Row, Operation> = {
  from: 'operations o',
  select: 'o.*',
  id: 'o.id',
  toItem: toOperation,
};

const IN_PROGRESS_SQL = IN_PROGRESS_PHASES.map((phase) => `'${phase}'`).join(', ');

/** The WHERE conditions of a filter; a list restricts to any of its values, an empty one not at all. */
function conditions(filter: OperationFilter) {
  const conditions = new Conditions();
  const add = conditions.add.bind(conditions);
  // One value is compared with `=`: only then does PostgreSQL walk the (column, updated_at, id)
  // indexes in keyset order instead of scanning the timeline for matches.
  const anyOf = (column: string, type: string, values: readonly string[]) =>
    values.length === 1
      ? add((at) => `${column} = ${at}::${type}`, values[0])
      : add((at) => `${column} = ANY(${at}::${type}[])`, values);
  if (filter.productionOrderIds?.length) anyOf('o.production_order_id', 'uuid', filter.productionOrderIds);
  if (filter.productionOrderNumbers?.length)
    add(
      (at) => `o.production_order_id IN (SELECT id FROM production_orders WHERE number = ANY(${at}::text[]))`,
      filter.productionOrderNumbers,
    );
  if (filter.operationPhaseIds?.length) anyOf('o.operation_phase_id', 'text', filter.operationPhaseIds);
  if (filter.workplaceIds?.length) anyOf('o.workplace_id', 'uuid', filter.workplaceIds);
  if (filter.materialNumbers?.length) anyOf('o.material_number', 'text', filter.materialNumbers);
  // Literal phases, as in the partial indexes of migration 014, so the planner can use them.
  if (filter.inProgress !== undefined) {
    conditions.where.push(`o.operation_phase_id ${filter.inProgress ? 'IN' : 'NOT IN'} (${IN_PROGRESS_SQL})`);
  }
  // An operation without the planned date in question is not known to lie outside the period: kept.
  if (filter.startDate) add((at) => `(o.end_date IS NULL OR o.end_date >= ${at})`, filter.startDate);
  if (filter.endDate) add((at) => `(o.start_date IS NULL OR o.start_date <= ${at})`, filter.endDate);
  return conditions;
}

export const listOperations = timestampList(
  OPERATIONS,
  { timestampColumn: 'o.updated_at', timestampOf: (row) => row.updated_at },
  conditions,
);

/** The operations in progress at each of these workplaces (a workplace's currentOperations), newest change first. */
export const findCurrentOperations = ofOwners(
  OPERATIONS,
  `o.workplace_id = ANY($1::uuid[]) AND o.operation_phase_id IN (${IN_PROGRESS_SQL})`,
  'o.updated_at DESC, o.id DESC',
);

export const findOperation = lockableFind(OPERATIONS);

/** The operations of these ids that exist, in no particular order (what staff members work on). */
export const findOperations = batchFind(OPERATIONS);

/** The operations of these production orders, each order's in sequence order. */
export async function operationsOfOrders(
  db: Queryable,
  productionOrderIds: readonly string[],
  lock = false,
): Promise<Operation[]> {
  if (productionOrderIds.length === 0) return [];
  const rows = await db.query<Row>(
    `SELECT * FROM operations WHERE production_order_id = ANY($1::uuid[])
     ORDER BY production_order_id, sequence, id${forUpdate(lock)}`,
    [productionOrderIds],
  );
  return rows.map(toOperation);
}

/** The position after the order's last operation. */
/**
 * The position after the order's last operation. The order row is locked first, so concurrent
 * creates in one order number one after the other instead of sharing a position.
 */
export async function nextSequence(db: Queryable, productionOrderId: string): Promise<number> {
  await db.query('SELECT 1 FROM production_orders WHERE id = $1 FOR NO KEY UPDATE', [productionOrderId]);
  const [row] = await db.query<{ next: number }>(
    'SELECT COALESCE(max(sequence), 0)::int + 1 AS next FROM operations WHERE production_order_id = $1',
    [productionOrderId],
  );
  return row?.next ?? 1;
}

export const operationWrites = rowWrites<Operation>()(
  'operations',
  'id productionOrderId sequence number description operationPhaseId workplaceId workplaceGroupId targetQuantity quantityUnit targetTimePerUnit targetSetupTime targetTeardownTime targetMoveTime targetWaitTime split erpContextId targetMachineCycleTime unitsPerMachineCycle startDate endDate updatedAt createdAt',
  { other: otherColumns },
);

interface RecordRow {
  id: string;
  operation_id: string;
  operation_phase_id: OperationPhaseId;
  workplace_id: string | null;
  staff_member_id: string | null;
  start_date: Date;
  end_date: Date | null;
}

const toRecord = (row: RecordRow): RecordedOperationPhase => ({
  id: row.id,
  operationId: row.operation_id,
  operationPhaseId: row.operation_phase_id,
  workplaceId: row.workplace_id,
  staffMemberId: row.staff_member_id,
  startDate: row.start_date,
  endDate: row.end_date,
});

const operationPhases = history('recorded_operation_phases', 'operation_id', toRecord);
/** The operation's phase records overlapping a period (either end may be open), newest start first. */
export const listRecordedOperationPhases = timestampList(
  { from: 'recorded_operation_phases', toItem: toRecord } satisfies Table<RecordRow, RecordedOperationPhase>,
  byStartDate<RecordRow>(),
  ({ operationId, startDate, endDate }: { operationId: string } & PeriodFilter) => {
    const conditions = new Conditions(['operation_id = $1'], [operationId]);
    if (startDate) conditions.add((at) => `(end_date IS NULL OR end_date >= ${at})`, startDate);
    if (endDate) conditions.add((at) => `start_date <= ${at}`, endDate);
    return conditions;
  },
);
export const findRecordedOperationPhase = operationPhases.find;
/** The operation's phase records overlapping a period, newest first. */
export const listOperationPhasesOverlapping = operationPhases.overlapping;

/** Closes the open record of the operation (if any) and opens the new one. */
export async function recordOperationPhase(db: Queryable, record: RecordedOperationPhase): Promise<void> {
  await operationPhases.open(db, record.operationId, record.startDate, {
    id: record.id,
    operation_phase_id: record.operationPhaseId,
    workplace_id: record.workplaceId,
    staff_member_id: record.staffMemberId,
  });
}

/** All phase records of an operation, by start: the totals of its current production data. */
export const phaseHistoryOfOperation = operationPhases.all;

/** The phase records made at a workplace, newest start first (timestamp pagination). */
export const listWorkplaceOperationPhases = timestampList(
  { from: 'recorded_operation_phases', toItem: toRecord } satisfies Table<RecordRow, RecordedOperationPhase>,
  byStartDate<RecordRow>(),
  ownedBy('workplace_id'),
);
