import { isUuid } from '../../domain/ids.ts';
import type { OperationPhaseId } from '../../domain/operationPhases.ts';
import type {
  Component,
  Operation,
  OperationFilter,
  ProductionResourceOrTool,
  RecordedOperationPhase,
} from '../../domain/operations.ts';
import type { Queryable } from '../database.ts';
import { history } from '../history.ts';
import { type KeysetPage, type KeysetRequest, keysetPage } from '../paging.ts';

interface Row {
  id: string;
  production_order_id: string;
  sequence: number;
  number: string;
  description: string | null;
  material_number: string | null;
  material_description: string | null;
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
  start_date: Date | null;
  end_date: Date | null;
  created_at: Date;
  updated_at: Date;
}

const duration = (value: string | number | null) => (value === null ? null : Number(value));
const jsonArray = <T>(value: T[] | string): T[] => (typeof value === 'string' ? JSON.parse(value) : value);
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
});

const toOperation = (row: Row): Operation => ({
  id: row.id,
  productionOrderId: row.production_order_id,
  sequence: row.sequence,
  number: row.number,
  description: row.description,
  material:
    row.material_number === null
      ? null
      : { number: row.material_number, description: row.material_description },
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
  components: jsonArray(row.components).map(toComponent),
  productionResourcesAndTools: jsonArray(row.production_resources_and_tools).map(toTool),
  startDate: row.start_date,
  endDate: row.end_date,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const columns = (operation: Operation) => [
  operation.id,
  operation.productionOrderId,
  operation.sequence,
  operation.number,
  operation.description,
  operation.material?.number ?? null,
  operation.material?.description ?? null,
  operation.operationPhaseId,
  operation.workplaceId,
  operation.workplaceGroupId,
  operation.targetQuantity,
  operation.quantityUnit,
  operation.targetTimePerUnit,
  operation.targetSetupTime,
  operation.targetTeardownTime,
  operation.targetMoveTime,
  operation.targetWaitTime,
  JSON.stringify(operation.components),
  JSON.stringify(operation.productionResourcesAndTools),
  operation.startDate,
  operation.endDate,
  operation.updatedAt,
];

/** The WHERE conditions of a filter; a list restricts to any of its values, an empty one not at all. */
function conditions(filter: OperationFilter) {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (condition: (at: string) => string, value: unknown) => {
    params.push(value);
    where.push(condition(`$${params.length}`));
  };
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
  // An operation without the planned date in question is not known to lie outside the period: kept.
  if (filter.startDate) add((at) => `(o.end_date IS NULL OR o.end_date >= ${at})`, filter.startDate);
  if (filter.endDate) add((at) => `(o.start_date IS NULL OR o.start_date <= ${at})`, filter.endDate);
  return { where, params };
}

export async function listOperations(
  db: Queryable,
  filter: OperationFilter,
  request: KeysetRequest,
): Promise<KeysetPage<Operation>> {
  const page = await keysetPage<Row>(
    db,
    {
      from: 'operations o',
      ...conditions(filter),
      timestampColumn: 'o.updated_at',
      idColumn: 'o.id',
      select: 'o.*',
      timestampOf: (row) => row.updated_at,
      idOf: (row) => row.id,
    },
    request,
  );
  return { ...page, items: page.items.map(toOperation) };
}

export async function findOperation(
  db: Queryable,
  id: string,
  forUpdate = false,
): Promise<Operation | undefined> {
  if (!isUuid(id)) return undefined;
  const rows = await db.query<Row>(
    `SELECT * FROM operations WHERE id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [id],
  );
  return rows[0] === undefined ? undefined : toOperation(rows[0]);
}

/**
 * The operations in `phaseId` at a workplace, the most recently changed first (a piece counter
 * books on the one in PROCESSING).
 */
export async function findOperationsInPhaseAt(
  db: Queryable,
  workplaceId: string,
  phaseId: OperationPhaseId,
): Promise<Operation[]> {
  const rows = await db.query<Row>(
    `SELECT * FROM operations WHERE workplace_id = $1 AND operation_phase_id = $2
     ORDER BY updated_at DESC, id DESC LIMIT 10`,
    [workplaceId, phaseId],
  );
  return rows.map(toOperation);
}

/** The operations of these production orders, each order's in sequence order. */
export async function operationsOfOrders(
  db: Queryable,
  productionOrderIds: readonly string[],
  forUpdate = false,
): Promise<Operation[]> {
  if (productionOrderIds.length === 0) return [];
  const rows = await db.query<Row>(
    `SELECT * FROM operations WHERE production_order_id = ANY($1::uuid[])
     ORDER BY production_order_id, sequence, id${forUpdate ? ' FOR UPDATE' : ''}`,
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

export async function insertOperation(db: Queryable, operation: Operation): Promise<void> {
  await db.query(
    `INSERT INTO operations (id, production_order_id, sequence, number, description, material_number,
       material_description, operation_phase_id, workplace_id, workplace_group_id, target_quantity, quantity_unit,
       target_time_per_unit, target_setup_time, target_teardown_time, target_move_time, target_wait_time,
       components, production_resources_and_tools, start_date, end_date, updated_at, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18::jsonb, $19::jsonb,
       $20, $21, $22, $23)`,
    [...columns(operation), operation.createdAt],
  );
}

export async function updateOperation(db: Queryable, operation: Operation): Promise<void> {
  await db.query(
    `UPDATE operations SET production_order_id = $2, sequence = $3, number = $4, description = $5,
       material_number = $6, material_description = $7, operation_phase_id = $8, workplace_id = $9,
       workplace_group_id = $10, target_quantity = $11, quantity_unit = $12, target_time_per_unit = $13,
       target_setup_time = $14, target_teardown_time = $15, target_move_time = $16, target_wait_time = $17,
       components = $18::jsonb, production_resources_and_tools = $19::jsonb, start_date = $20, end_date = $21,
       updated_at = $22
     WHERE id = $1`,
    columns(operation),
  );
}

export async function deleteOperation(db: Queryable, id: string): Promise<void> {
  await db.query('DELETE FROM operations WHERE id = $1', [id]);
}

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

/** Closes the open record of the operation (if any) and opens the new one. */
export async function recordOperationPhase(db: Queryable, record: RecordedOperationPhase): Promise<void> {
  await db.query(
    'UPDATE recorded_operation_phases SET end_date = $2 WHERE operation_id = $1 AND end_date IS NULL',
    [record.operationId, record.startDate],
  );
  await db.query(
    `INSERT INTO recorded_operation_phases (id, operation_id, operation_phase_id, workplace_id, staff_member_id,
       start_date, end_date)
     VALUES ($1, $2, $3, $4, $5, $6, NULL)`,
    [
      record.id,
      record.operationId,
      record.operationPhaseId,
      record.workplaceId,
      record.staffMemberId,
      record.startDate,
    ],
  );
}

const operationPhases = history('recorded_operation_phases', 'operation_id', toRecord);
export const listRecordedOperationPhases = operationPhases.list;
export const findRecordedOperationPhase = operationPhases.find;
