import type { NewEvent } from '../../domain/events.ts';
import { isUuid } from '../../domain/ids.ts';
import type { QuantityType, RecordedOutputQuantity } from '../../domain/outputQuantities.ts';
import { Conditions, type PeriodFilter } from '../conditions.ts';
import type { Queryable } from '../database.ts';
import { BY_TIMESTAMP, insertRow, ownedBy, ownedFind, type Table, timestampList } from '../table.ts';

interface Row {
  id: string;
  operation_id: string;
  quantity: number;
  quantity_type: QuantityType;
  timestamp: Date;
  workplace_id: string | null;
  staff_member_id: string | null;
  quality_detail_id: string | null;
  remark: string | null;
  recorded_at: Date;
}

const toRecord = (row: Row): RecordedOutputQuantity => ({
  id: row.id,
  operationId: row.operation_id,
  quantity: row.quantity,
  quantityType: row.quantity_type,
  timestamp: row.timestamp,
  workplaceId: row.workplace_id,
  staffMemberId: row.staff_member_id,
  qualityDetailId: row.quality_detail_id,
  remark: row.remark,
  recordedAt: row.recorded_at,
});

const RECORDS: Table<Row, RecordedOutputQuantity> = { from: 'recorded_output_quantities', toItem: toRecord };

export async function insertOutputQuantity(db: Queryable, record: RecordedOutputQuantity): Promise<void> {
  await insertRow(db, 'recorded_output_quantities', {
    id: record.id,
    operation_id: record.operationId,
    quantity: record.quantity,
    quantity_type: record.quantityType,
    '"timestamp"': record.timestamp,
    workplace_id: record.workplaceId,
    staff_member_id: record.staffMemberId,
    quality_detail_id: record.qualityDetailId,
    remark: record.remark,
    recorded_at: record.recordedAt,
  });
}

/** What a booking on an operation found; nothing is booked unless it found all three. */
export interface Booking {
  operationFound: boolean;
  /** The workplace the record names, or none named. */
  workplaceFound: boolean;
  /** The staff member the record names, or none named. */
  staffMemberFound: boolean;
  /** The booked record's workplace: the one it names, else the operation's. */
  workplaceId: string | null;
}

/**
 * Books a quantity on an operation with its event in one statement
 * (docs/decisions/0009-writes-in-one-round-trip.md): the operation's row locked, so a concurrent
 * delete waits for it; a record naming no workplace takes the operation's, in the record and in
 * the event's data. `event` is written with `eventId` at the record's time.
 */
export async function bookOnOperation(
  db: Queryable,
  record: RecordedOutputQuantity,
  event: NewEvent,
  eventId: string,
): Promise<Booking> {
  if (!isUuid(record.operationId)) {
    // A path id that is no uuid names nothing.
    return { operationFound: false, workplaceFound: false, staffMemberFound: false, workplaceId: null };
  }
  const [row] = await db.query<{
    operation_found: boolean;
    workplace_found: boolean;
    staff_member_found: boolean;
    workplace_id: string | null;
  }>(
    `WITH operation AS (
       SELECT o.id, o.workplace_id FROM operations o WHERE o.id = $1::uuid FOR UPDATE
     ), named AS (
       SELECT ($6::uuid IS NULL OR EXISTS (SELECT 1 FROM workplaces w WHERE w.id = $6::uuid)) AS workplace_found,
         ($7::uuid IS NULL OR EXISTS (SELECT 1 FROM staff_members s WHERE s.id = $7::uuid)) AS staff_member_found
     ), booked AS (
       INSERT INTO recorded_output_quantities (id, operation_id, quantity, quantity_type, "timestamp",
         workplace_id, staff_member_id, quality_detail_id, remark, recorded_at)
       SELECT $2::uuid, o.id, $3::double precision, $4::text, $5::timestamptz, coalesce($6::uuid, o.workplace_id),
         $7::uuid, $8::text, $9::text, $10::timestamptz
       FROM operation o, named n WHERE n.workplace_found AND n.staff_member_found
       RETURNING workplace_id
     ), logged AS (
       INSERT INTO events (id, event_type, object_type, object_id, data, "timestamp", recorded_at)
       SELECT $11::uuid, $12::text, $13::text, $14::text,
         jsonb_set($15::jsonb, '{workplaceId}', coalesce(to_jsonb(b.workplace_id), 'null'::jsonb)),
         $10::timestamptz, $10::timestamptz
       FROM booked b
     )
     SELECT EXISTS (SELECT 1 FROM operation) AS operation_found, n.workplace_found, n.staff_member_found,
       (SELECT b.workplace_id FROM booked b) AS workplace_id
     FROM named n`,
    [
      record.operationId,
      record.id,
      record.quantity,
      record.quantityType,
      record.timestamp,
      record.workplaceId,
      record.staffMemberId,
      record.qualityDetailId,
      record.remark,
      record.recordedAt,
      eventId,
      event.eventType,
      event.objectType,
      event.objectId,
      JSON.stringify(event.data),
    ],
  );
  return {
    operationFound: row?.operation_found === true,
    workplaceFound: row?.workplace_found === true,
    staffMemberFound: row?.staff_member_found === true,
    workplaceId: row?.workplace_id ?? null,
  };
}

/** The quantities booked on an operation within a period (either end may be open), newest first. */
export const listOutputQuantities = timestampList(
  RECORDS,
  BY_TIMESTAMP,
  ({ operationId, startDate, endDate }: { operationId: string } & PeriodFilter) => {
    const conditions = new Conditions(['operation_id = $1'], [operationId]);
    if (startDate) conditions.add((at) => `"timestamp" >= ${at}`, startDate);
    if (endDate) conditions.add((at) => `"timestamp" <= ${at}`, endDate);
    return conditions;
  },
);

/** The output quantities booked at a workplace, newest first by (timestamp, id). */
export const listWorkplaceOutputQuantities = timestampList(RECORDS, BY_TIMESTAMP, ownedBy('workplace_id'));

export const findOutputQuantity = ownedFind(RECORDS, 'operation_id');
