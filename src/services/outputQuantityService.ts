// Output quantities: POST /operations/{id}/recordedOutputQuantities and a connector's piece
// counter book them through recordOutputQuantity, each with OPERATION_OUTPUT_QUANTITY_RECORDED
// in the same transaction.
import { v7 as uuidv7 } from 'uuid';
import type { PeriodFilter } from '../db/conditions.ts';
import type { Database, Queryable } from '../db/database.ts';
import type { KeysetPage, KeysetRequest } from '../db/paging.ts';
import * as operations from '../db/repositories/operationRepository.ts';
import * as repository from '../db/repositories/outputQuantityRepository.ts';
import { AppError } from '../domain/errors.ts';
import { catalogueEvent } from '../domain/events.ts';
import {
  type OutputQuantityInput,
  outputQuantityEventData,
  type RecordedOutputQuantity,
} from '../domain/outputQuantities.ts';
import { recordEvents } from './eventService.ts';
import { qualityOf } from './machineService.ts';
import { getOperation } from './operationService.ts';
import { checkReference } from './referenceService.ts';
import { gettingBelow, locking, writeOnFound } from './writes.ts';

const lockOperation = locking('operation', operations.findOperation);

async function book(
  tx: Queryable,
  operationId: string,
  operationWorkplaceId: string | null,
  input: OutputQuantityInput,
  now: Date,
): Promise<RecordedOutputQuantity> {
  if (!(input.quantity > 0) || !Number.isFinite(input.quantity)) {
    throw new AppError('VALIDATION_FAILED', {
      rule: 'value',
      field: 'quantity',
      detail: 'the quantity must be a number greater than 0',
    });
  }
  await checkReference(tx, 'workplaceId', input.workplaceId, 'workplaces');
  await checkReference(tx, 'staffMemberId', input.staffMemberId, 'staff_members');
  const record: RecordedOutputQuantity = {
    id: uuidv7(),
    operationId,
    quantity: input.quantity,
    quantityType: input.quantityType,
    timestamp: input.timestamp ?? now,
    workplaceId: input.workplaceId ?? operationWorkplaceId,
    staffMemberId: input.staffMemberId ?? null,
    qualityDetailId: input.qualityDetailId ?? null,
    remark: input.remark ?? null,
    recordedAt: now,
  };
  await repository.insertOutputQuantity(tx, record);
  await recordEvents(
    tx,
    [catalogueEvent('OPERATION_OUTPUT_QUANTITY_RECORDED', operationId, outputQuantityEventData(record))],
    now,
  );
  return record;
}

/** Books a quantity on an operation (404 without it; 400 naming a missing workplace or staff member). */
export async function recordOutputQuantity(
  db: Database,
  operationId: string,
  input: OutputQuantityInput,
): Promise<RecordedOutputQuantity> {
  // FOR UPDATE: a concurrent delete of the operation waits for the booking.
  return writeOnFound(db, lockOperation(operationId), async (tx, operation) => {
    return book(tx, operation.id, operation.workplaceId, input, new Date());
  });
}

export interface QualityDetailInput {
  quantity: number;
  qualityDetailId: string;
  workplaceId?: string | undefined;
  staffMemberId?: string | undefined;
  remark?: string | undefined;
}

/**
 * POST /operations/{id}/qualityDetails: a quantity booked as its quality detail's type (YIELD,
 * SCRAP, REWORK), keeping the detail and the remark; 400 naming qualityDetailId for an unknown one.
 */
export async function recordQualityDetail(
  db: Database,
  operationId: string,
  input: QualityDetailInput,
): Promise<RecordedOutputQuantity> {
  return writeOnFound(db, lockOperation(operationId), async (tx, operation) => {
    const { type } = await qualityOf(tx, 'qualityDetailId', input.qualityDetailId);
    return book(tx, operation.id, operation.workplaceId, { ...input, quantityType: type }, new Date());
  });
}

export async function listOutputQuantities(
  db: Queryable,
  operationId: string,
  period: PeriodFilter,
  request: KeysetRequest,
): Promise<KeysetPage<RecordedOutputQuantity>> {
  const operation = await getOperation(db, operationId);
  return repository.listOutputQuantities(db, { operationId: operation.id, ...period }, request);
}

export const getOutputQuantity = gettingBelow(
  'recordedOutputQuantity',
  getOperation,
  repository.findOutputQuantity,
);
