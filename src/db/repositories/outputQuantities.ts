import { isUuid } from '../../domain/ids.ts';
import type { QuantityType, RecordedOutputQuantity } from '../../domain/outputQuantities.ts';
import type { Queryable } from '../database.ts';
import { type KeysetPage, type KeysetRequest, keysetPage } from '../paging.ts';

interface Row {
  id: string;
  operation_id: string;
  quantity: number;
  quantity_type: QuantityType;
  timestamp: Date;
  workplace_id: string | null;
  staff_member_id: string | null;
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
  recordedAt: row.recorded_at,
});

export async function insertOutputQuantity(db: Queryable, record: RecordedOutputQuantity): Promise<void> {
  await db.query(
    `INSERT INTO recorded_output_quantities
       (id, operation_id, quantity, quantity_type, "timestamp", workplace_id, staff_member_id, recorded_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      record.id,
      record.operationId,
      record.quantity,
      record.quantityType,
      record.timestamp,
      record.workplaceId,
      record.staffMemberId,
      record.recordedAt,
    ],
  );
}

/** A timestamp-mode page of an operation's output quantities, newest first by (timestamp, id). */
export async function listOutputQuantities(
  db: Queryable,
  operationId: string,
  request: KeysetRequest,
): Promise<KeysetPage<RecordedOutputQuantity>> {
  const page = await keysetPage<Row>(
    db,
    {
      from: 'recorded_output_quantities',
      where: ['operation_id = $1'],
      params: [operationId],
      timestampColumn: '"timestamp"',
      idColumn: 'id',
      select: '*',
      timestampOf: (row) => row.timestamp,
      idOf: (row) => row.id,
    },
    request,
  );
  return { ...page, items: page.items.map(toRecord) };
}

export async function findOutputQuantity(
  db: Queryable,
  operationId: string,
  id: string,
): Promise<RecordedOutputQuantity | undefined> {
  if (!isUuid(id)) return undefined;
  const rows = await db.query<Row>(
    'SELECT * FROM recorded_output_quantities WHERE operation_id = $1 AND id = $2',
    [operationId, id],
  );
  return rows[0] === undefined ? undefined : toRecord(rows[0]);
}
