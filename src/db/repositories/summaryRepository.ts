// The inputs of summaries and the OEE report (docs/resources/reports.md): one query per input,
// each bounded by the window (periods that overlap it, bookings inside it).
import type { OperationPhaseId } from '../../domain/operationPhases.ts';
import type { QuantityType } from '../../domain/outputQuantities.ts';
import type { Booking, PhasePeriod, RecordedPeriod, Span, StatePeriod } from '../../domain/summaries.ts';
import type { Queryable } from '../database.ts';
import { ownedAll, type Table } from '../table.ts';

/** The window's start and end, as the `timestamptz` parameters of a query. */
export const edgesOf = (window: Span): [Date, Date] => [new Date(window.start), new Date(window.end)];

/**
 * A read of the rows `sql` selects of the workplaces `$1` (an array; no workplaces, no rows)
 * within the window from `$2` to `$3`.
 */
const ofWorkplacesIn =
  <Row, Item>(sql: string, toItem: (row: Row) => Item) =>
  async (db: Queryable, workplaceIds: readonly string[], window: Span): Promise<Item[]> => {
    if (workplaceIds.length === 0) return [];
    const rows = await db.query<Row>(sql, [workplaceIds, ...edgesOf(window)]);
    return rows.map(toItem);
  };

interface StateRow {
  workplace_id: string;
  operating_state_id: string;
  start_date: Date;
  end_date: Date | null;
}

/** The operating states of the workplaces that overlap the window. */
export const listStatePeriods = ofWorkplacesIn(
  `SELECT workplace_id, operating_state_id, start_date, end_date FROM recorded_operating_states
   WHERE workplace_id = ANY($1::uuid[]) AND start_date < $3::timestamptz
     AND (end_date IS NULL OR end_date > $2::timestamptz)
   ORDER BY start_date, id`,
  (row: StateRow): StatePeriod => ({
    workplaceId: row.workplace_id,
    operatingStateId: row.operating_state_id,
    startDate: row.start_date,
    endDate: row.end_date,
  }),
);

export interface PhaseRow {
  operation_phase_id: OperationPhaseId;
  workplace_id: string | null;
  start_date: Date;
  end_date: Date | null;
}

export const toPhase = (row: PhaseRow): PhasePeriod => ({
  operationPhaseId: row.operation_phase_id,
  workplaceId: row.workplace_id,
  startDate: row.start_date,
  endDate: row.end_date,
});

const PHASE_PERIODS: Table<PhaseRow, PhasePeriod> = {
  from: 'recorded_operation_phases',
  select: 'operation_phase_id, workplace_id, start_date, end_date',
  toItem: toPhase,
};

/** Every recorded phase of an operation. */
export const listOperationPhasePeriods = ownedAll(PHASE_PERIODS, 'operation_id', 'start_date, id');

/** The phases of any operation recorded at the workplaces that overlap the window. */
export const listWorkplacePhasePeriods = ofWorkplacesIn(
  `SELECT operation_phase_id, workplace_id, start_date, end_date FROM recorded_operation_phases
   WHERE workplace_id = ANY($1::uuid[]) AND start_date < $3::timestamptz
     AND (end_date IS NULL OR end_date > $2::timestamptz)
   ORDER BY start_date, id`,
  toPhase,
);

interface ShiftRow {
  workplace_id: string;
  start_date: Date;
  end_date: Date;
}

/** The shifts of the workplaces that overlap the window. */
export const listShiftPeriods = ofWorkplacesIn(
  `SELECT workplace_id, start_date, end_date FROM shifts
   WHERE workplace_id = ANY($1::uuid[]) AND start_date < $3::timestamptz AND end_date > $2::timestamptz
   ORDER BY start_date, id`,
  (row: ShiftRow): RecordedPeriod & { workplaceId: string } => ({
    workplaceId: row.workplace_id,
    startDate: row.start_date,
    endDate: row.end_date,
  }),
);

export interface BookingRow {
  quantity: number;
  quantity_type: QuantityType;
  workplace_id: string | null;
  timestamp: Date;
  target_time_per_unit: number | null;
}

export const BOOKING_COLUMNS = `q.quantity::float8 AS quantity, q.quantity_type, q.workplace_id, q."timestamp",
  o.target_time_per_unit::float8 AS target_time_per_unit`;

export const toBooking = (row: BookingRow): Booking => ({
  quantity: Number(row.quantity),
  quantityType: row.quantity_type,
  workplaceId: row.workplace_id,
  timestamp: row.timestamp,
  targetTimePerUnit: row.target_time_per_unit === null ? null : Number(row.target_time_per_unit),
});

/** Every output quantity booked on an operation. */
export async function listOperationBookings(db: Queryable, operationId: string): Promise<Booking[]> {
  const rows = await db.query<BookingRow>(
    `SELECT ${BOOKING_COLUMNS} FROM recorded_output_quantities q JOIN operations o ON o.id = q.operation_id
     WHERE q.operation_id = $1`,
    [operationId],
  );
  return rows.map(toBooking);
}

/**
 * The output quantities booked at the workplaces within the window, with their operation's target
 * time; and those a connector booked on the workplace itself (docs/resources/connectors.md).
 */
export const listWorkplaceBookings = ofWorkplacesIn(
  `SELECT ${BOOKING_COLUMNS} FROM recorded_output_quantities q JOIN operations o ON o.id = q.operation_id
   WHERE q.workplace_id = ANY($1::uuid[]) AND q."timestamp" >= $2::timestamptz AND q."timestamp" < $3::timestamptz
   UNION ALL
   -- A connector's pieces counted while no operation was in PROCESSING: no target time.
   SELECT w.quantity::float8, w.quantity_type, w.workplace_id, w."timestamp", NULL::float8
   FROM recorded_workplace_output_quantities w
   WHERE w.workplace_id = ANY($1::uuid[]) AND w."timestamp" >= $2::timestamptz AND w."timestamp" < $3::timestamptz`,
  toBooking,
);

/** The workplaces of a capacity group or production line. */
export async function listGroupWorkplaceIds(db: Queryable, groupId: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    'SELECT id FROM workplaces WHERE capacity_group_id = $1 OR production_line_id = $1 ORDER BY id',
    [groupId],
  );
  return rows.map((row) => row.id);
}
