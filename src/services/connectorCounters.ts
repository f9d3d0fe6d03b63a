// A connector's piece counter reading booked (docs/resources/connectors.md, "Piece counters"): in
// one transaction, the stored last reading is locked, the increase since it is booked, and the
// new reading stored, so that whichever instance holds the connector next continues from it.
import { v7 as uuidv7 } from 'uuid';
import type { Database, Queryable } from '../db/database.ts';
import * as counters from '../db/repositories/connectorCounters.ts';
import { insertOutputQuantity } from '../db/repositories/outputQuantityRepository.ts';
import { counterIncrease } from '../domain/connectors.ts';
import { catalogueEvent } from '../domain/events.ts';
import { outputQuantityEventData, type QuantityType } from '../domain/outputQuantities.ts';
import { recordEvents } from './eventService.ts';

/** Operations in PROCESSING a booking names at most (the one booked on and the others). */
const MAX_NAMED_OPERATIONS = 10;

export interface CounterReading {
  connectorId: string;
  /** The mapping's source (domain/connectors.ts, counterKey). */
  counterKey: string;
  workplaceId: string;
  quantityType: QuantityType;
  reading: number;
  timestamp: Date;
}

export interface CounterOutcome {
  /** The pieces booked (0: a baseline, the same reading again, or a reset to 0). */
  booked: number;
  /** Where: the operation's id, or null when booked on the workplace (none in PROCESSING). */
  operationId: string | null;
}

export async function bookCounterReading(db: Database, reading: CounterReading): Promise<CounterOutcome> {
  return db.transaction(async (tx) => {
    const last = await counters.lockCounterReading(tx, reading.connectorId, reading.counterKey);
    const increase = counterIncrease(last, reading.reading);
    const now = new Date();
    if (last !== reading.reading)
      await counters.saveCounterReading(tx, reading.connectorId, reading.counterKey, reading.reading, now);
    if (increase === 0) return { booked: 0, operationId: null };
    const booking = { ...reading, quantity: increase, qualityDetailId: null };
    return { booked: increase, operationId: await bookAtWorkplace(tx, booking, now) };
  });
}

/** Pieces made at a workplace, from a connector's counter or a machine's own count. */
export type WorkplacePieces = Omit<counters.WorkplaceBooking, 'id' | 'recordedAt'>;

/**
 * Books on the operation in PROCESSING at the workplace; with several, on the one that entered
 * PROCESSING last, and the event names them all; with none, on the workplace itself, so no piece
 * is dropped. Returns the operation's id, or null when booked on the workplace.
 */
export async function bookAtWorkplace(
  tx: Queryable,
  pieces: WorkplacePieces,
  now: Date,
): Promise<string | null> {
  const { workplaceId, quantity, quantityType, timestamp, connectorId, qualityDetailId } = pieces;
  const processing = await counters.operationsProcessingAt(tx, workplaceId, MAX_NAMED_OPERATIONS);
  const operationId = processing[0];
  if (operationId === undefined) {
    const id = uuidv7();
    await counters.insertWorkplaceBooking(tx, { ...pieces, id, recordedAt: now });
    const data = {
      workplaceId,
      recordedWorkplaceOutputQuantityId: id,
      quantity,
      quantityType,
      timestamp: timestamp.toISOString(),
      connectorId,
      qualityDetailId,
    };
    await recordEvents(tx, [catalogueEvent('WORKPLACE_OUTPUT_QUANTITY_RECORDED', workplaceId, data)], now);
    return null;
  }
  const record = {
    id: uuidv7(),
    operationId,
    quantity,
    quantityType,
    timestamp,
    workplaceId,
    staffMemberId: null,
    qualityDetailId,
    remark: null,
    recordedAt: now,
  };
  await insertOutputQuantity(tx, record);
  const data = {
    ...outputQuantityEventData(record),
    connectorId,
    // The rule's choice made visible: every operation in PROCESSING there, the one booked on first.
    operationsInProcessing: processing,
  };
  await recordEvents(tx, [catalogueEvent('OPERATION_OUTPUT_QUANTITY_RECORDED', operationId, data)], now);
  return operationId;
}
