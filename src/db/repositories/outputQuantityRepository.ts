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
