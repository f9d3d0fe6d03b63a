// A connector's piece counters and what they book (docs/resources/connectors.md, "Piece counters"):
// the last reading per mapped source, the operations in PROCESSING a booking can go to, and the
// bookings on a workplace itself when none is.
import type { QuantityType } from '../../domain/outputQuantities.ts';
import type { Queryable } from '../database.ts';
import { insertRow } from '../table.ts';

/** The last stored reading of a counter, locked until the transaction ends; undefined without one. */
export async function lockCounterReading(
  db: Queryable,
  connectorId: string,
  counterKey: string,
): Promise<number | undefined> {
  const rows = await db.query<{ reading: number }>(
    `SELECT reading::float8 AS reading FROM connector_counters
     WHERE connector_id = $1 AND counter_key = $2 FOR UPDATE`,
    [connectorId, counterKey],
  );
  return rows[0] === undefined ? undefined : Number(rows[0].reading);
}

export async function saveCounterReading(
  db: Queryable,
  connectorId: string,
  counterKey: string,
  reading: number,
  at: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO connector_counters (connector_id, counter_key, reading, updated_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT (connector_id, counter_key) DO UPDATE SET reading = EXCLUDED.reading, updated_at = EXCLUDED.updated_at`,
    [connectorId, counterKey, reading, at],
  );
}

/**
 * The operations in PROCESSING at a workplace, the one that entered PROCESSING last first (by the
 * start of its open PROCESSING period). At most `limit`.
 */
export async function operationsProcessingAt(
  db: Queryable,
  workplaceId: string,
  limit: number,
): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT o.id FROM operations o
     LEFT JOIN LATERAL (
       SELECT max(p.start_date) AS started FROM recorded_operation_phases p
       WHERE p.operation_id = o.id AND p.operation_phase_id = 'PROCESSING' AND p.end_date IS NULL
     ) phase ON true
     WHERE o.workplace_id = $1 AND o.operation_phase_id = 'PROCESSING'
     ORDER BY phase.started DESC NULLS LAST, o.id DESC LIMIT $2`,
    [workplaceId, limit],
  );
  return rows.map((row) => row.id);
}

export interface WorkplaceBooking {
  id: string;
  workplaceId: string;
  quantity: number;
  quantityType: QuantityType;
  timestamp: Date;
  /** The connector whose counter booked it; null for a machine's own count (POST /machines/...). */
  connectorId: string | null;
  qualityDetailId: string | null;
  recordedAt: Date;
}

export async function insertWorkplaceBooking(db: Queryable, booking: WorkplaceBooking): Promise<void> {
  await insertRow(db, 'recorded_workplace_output_quantities', {
    id: booking.id,
    workplace_id: booking.workplaceId,
    quantity: booking.quantity,
    quantity_type: booking.quantityType,
    '"timestamp"': booking.timestamp,
    connector_id: booking.connectorId,
    quality_detail_id: booking.qualityDetailId,
    recorded_at: booking.recordedAt,
  });
}
