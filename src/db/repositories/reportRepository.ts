// The inputs of the reports beside the OEE (docs/resources/reports.md): bookings and phases with
// the material of their operation (its own, else its production order's), bounded by the window.
import type { MaterialEntry } from '../../domain/masterDataEntries.ts';
import type { ReportBooking, ReportPhase } from '../../domain/reports.ts';
import type { Span } from '../../domain/summaries.ts';
import type { Queryable } from '../database.ts';
import { MATERIAL_DESCRIPTION } from './masterDataRepository.ts';
import {
  BOOKING_COLUMNS,
  type BookingRow,
  edgesOf,
  type PhaseRow,
  toBooking,
  toPhase,
} from './summaryRepository.ts';

/** The material number of an operation `o` joined to its order `po`. */
const MATERIAL = 'COALESCE(o.material_number, po.material_number)';

/** Which operations a report covers: all, one production order's, or one material's. */
export interface OperationScope {
  productionOrderId?: string | undefined;
  materialNumber?: string | undefined;
}

function scopeCondition(scope: OperationScope, params: unknown[]): string {
  if (scope.productionOrderId !== undefined) {
    params.push(scope.productionOrderId);
    return ` AND o.production_order_id = $${params.length}`;
  }
  if (scope.materialNumber !== undefined) {
    params.push(scope.materialNumber);
    return ` AND ${MATERIAL} = $${params.length}`;
  }
  return '';
}

/**
 * A read of the rows of the operations in scope within the window from `$1` to `$2`: `sql` is
 * the statement with the scope's condition in its WHERE clause.
 */
const inScope =
  <Row, Item>(sql: (scopeCondition: string) => string, toItem: (row: Row) => Item) =>
  async (db: Queryable, scope: OperationScope, window: Span): Promise<Item[]> => {
    const params: unknown[] = edgesOf(window);
    const rows = await db.query<Row>(sql(scopeCondition(scope, params)), params);
    return rows.map(toItem);
  };

/** A booking with its operation's material and target quantity, and its quality detail. */
interface ReportBookingRow extends BookingRow {
  operation_id: string | null;
  material_number: string | null;
  target_quantity: number | null;
  quality_detail_id: string | null;
}

const toReportBooking = (row: ReportBookingRow): ReportBooking => ({
  ...toBooking(row),
  operationId: row.operation_id,
  materialNumber: row.material_number,
  targetQuantity: row.target_quantity === null ? null : Number(row.target_quantity),
  qualityDetailId: row.quality_detail_id,
});

const OPERATION_BOOKINGS = `SELECT ${BOOKING_COLUMNS}, q.operation_id, ${MATERIAL} AS material_number,
  o.target_quantity::float8 AS target_quantity, q.quality_detail_id
  FROM recorded_output_quantities q JOIN operations o ON o.id = q.operation_id
  JOIN production_orders po ON po.id = o.production_order_id`;

/**
 * The bookings at the workplaces in the window: on operations in scope, and, when every operation
 * is, those a connector booked on the workplace itself (no operation, no material).
 */
export async function listReportBookings(
  db: Queryable,
  workplaceIds: readonly string[],
  window: Span,
  scope: OperationScope = {},
): Promise<ReportBooking[]> {
  if (workplaceIds.length === 0) return [];
  const params: unknown[] = [workplaceIds, ...edgesOf(window)];
  const condition = scopeCondition(scope, params);
  const own = `SELECT w.quantity::float8, w.quantity_type, w.workplace_id, w."timestamp", NULL::float8,
    NULL::uuid, NULL::text, NULL::float8, w.quality_detail_id
    FROM recorded_workplace_output_quantities w
    WHERE w.workplace_id = ANY($1::uuid[]) AND w."timestamp" >= $2::timestamptz AND w."timestamp" < $3::timestamptz`;
  const rows = await db.query<ReportBookingRow>(
    `${OPERATION_BOOKINGS}
     WHERE q.workplace_id = ANY($1::uuid[]) AND q."timestamp" >= $2::timestamptz AND q."timestamp" < $3::timestamptz${condition}
     ${condition === '' ? `UNION ALL ${own}` : ''}`,
    params,
  );
  return rows.map(toReportBooking);
}

/** The bookings on the operations in scope in the window, wherever they were made. */
export const listScopeBookings = inScope(
  (condition) => `${OPERATION_BOOKINGS}
   WHERE q."timestamp" >= $1::timestamptz AND q."timestamp" < $2::timestamptz${condition}`,
  toReportBooking,
);

/** A phase with its operation's material. */
interface ReportPhaseRow extends PhaseRow {
  operation_id: string;
  material_number: string | null;
}

/** The phases of the operations in scope that overlap the window. */
export const listReportPhases = inScope(
  (condition) => `SELECT p.operation_id, p.operation_phase_id, p.workplace_id, p.start_date, p.end_date,
     ${MATERIAL} AS material_number
   FROM recorded_operation_phases p JOIN operations o ON o.id = p.operation_id
   JOIN production_orders po ON po.id = o.production_order_id
   WHERE p.start_date < $2::timestamptz AND (p.end_date IS NULL OR p.end_date > $1::timestamptz)
     ${condition}
   ORDER BY p.start_date, p.id`,
  (row: ReportPhaseRow): ReportPhase => ({
    ...toPhase(row),
    operationId: row.operation_id,
    materialNumber: row.material_number,
  }),
);

/** The workplaces a report covers: one by number, a group's by its number, or all. */
export async function listReportWorkplaceIds(
  db: Queryable,
  filter: { workplaceNumber?: string | undefined; workplaceGroupNumber?: string | undefined },
): Promise<string[]> {
  const rows =
    filter.workplaceNumber !== undefined
      ? await db.query<{ id: string }>('SELECT id FROM workplaces WHERE number = $1 ORDER BY id', [
          filter.workplaceNumber,
        ])
      : filter.workplaceGroupNumber !== undefined
        ? await db.query<{ id: string }>(
            `SELECT w.id FROM workplaces w JOIN workplace_groups g
               ON g.id = w.capacity_group_id OR g.id = w.production_line_id
             WHERE g.number = $1 ORDER BY w.id`,
            [filter.workplaceGroupNumber],
          )
        : await db.query<{ id: string }>('SELECT id FROM workplaces ORDER BY id');
  return [...new Set(rows.map((row) => row.id))];
}

/** Whether a workplace group has this number. */
export async function groupNumberExists(db: Queryable, number: string): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM workplace_groups WHERE number = $1', [number]);
  return rows.length > 0;
}

/** The materials with these numbers, as operations (else their orders) describe them. */
export async function findMaterials(db: Queryable, numbers: readonly string[]): Promise<MaterialEntry[]> {
  if (numbers.length === 0) return [];
  // The id /materials serves the material by (masterDataRepository.ts).
  return db.query<MaterialEntry>(
    `SELECT md5(number)::uuid::text AS id, number, ${MATERIAL_DESCRIPTION('number')} AS description,
       max(type) AS type FROM (
       SELECT material_number AS number, material_type AS type
       FROM operations WHERE material_number = ANY($1::text[])
       UNION ALL
       SELECT material_number, material_type
       FROM production_orders WHERE material_number = ANY($1::text[])
     ) m GROUP BY number ORDER BY number`,
    [numbers],
  );
}
