// Output quantities: POST /operations/{id}/recordedOutputQuantities, /qualityDetails and a stored
// command book them through recordOutputQuantity, each with OPERATION_OUTPUT_QUANTITY_RECORDED in
// the same statement (a connector's piece counter books through connectorCounters.ts).
import { v7 as uuidv7 } from 'uuid';
import type { PeriodFilter } from '../db/conditions.ts';
import type { Database, Queryable } from '../db/database.ts';
import type { KeysetPage, KeysetRequest } from '../db/paging.ts';
import * as repository from '../db/repositories/outputQuantityRepository.ts';
import { AppError, notFound } from '../domain/errors.ts';
import { catalogueEvent } from '../domain/events.ts';
import { isUuid } from '../domain/ids.ts';
import {
  type OutputQuantityInput,
  outputQuantityEventData,
  type RecordedOutputQuantity,
} from '../domain/outputQuantities.ts';
import { qualityOf } from './machineService.ts';
import { getOperation } from './operationService.ts';
import { checkReference, invalidReference } from './referenceService.ts';
import { gettingBelow } from './writes.ts';

const isQuantity = (quantity: number) => quantity > 0 && Number.isFinite(quantity);
const isIdOrNone = (id: string | undefined) => id === undefined || isUuid(id);

/**
 * The refusal of a booking that input alone refuses (a quantity not above 0, an id that is no
 * uuid), in the order of the answers: an unknown operation is still the first 404.
 */
async function refuse(db: Queryable, operationId: string, input: OutputQuantityInput): Promise<never> {
  await getOperation(db, operationId);
  if (!isQuantity(input.quantity)) {
    throw new AppError('VALIDATION_FAILED', {
      rule: 'value',
      field: 'quantity',
      detail: 'the quantity must be a number greater than 0',
    });
  }
  await checkReference(db, 'workplaceId', input.workplaceId, 'workplaces');
  await checkReference(db, 'staffMemberId', input.staffMemberId, 'staff_members');
  throw new Error('refuse: the input refuses nothing');
}

/**
 * Books a quantity on an operation with OPERATION_OUTPUT_QUANTITY_RECORDED in one database call
 * (docs/decisions/0009-writes-in-one-round-trip.md). Its answers, in this order: 404 without the
 * operation, 400 for the quantity, 400 naming a missing workplace, then a missing staff member.
 */
export async function recordOutputQuantity(
  db: Queryable,
  operationId: string,
  input: OutputQuantityInput,
): Promise<RecordedOutputQuantity> {
  if (!isQuantity(input.quantity) || !isIdOrNone(input.workplaceId) || !isIdOrNone(input.staffMemberId)) {
    await refuse(db, operationId, input);
  }
  const now = new Date();
  const record: RecordedOutputQuantity = {
    id: uuidv7(),
    operationId,
    quantity: input.quantity,
    quantityType: input.quantityType,
    timestamp: input.timestamp ?? now,
    workplaceId: input.workplaceId ?? null,
    staffMemberId: input.staffMemberId ?? null,
    qualityDetailId: input.qualityDetailId ?? null,
    remark: input.remark ?? null,
    recordedAt: now,
  };
  const event = catalogueEvent(
    'OPERATION_OUTPUT_QUANTITY_RECORDED',
    operationId,
    outputQuantityEventData(record),
  );
  const booking = await repository.bookOnOperation(db, record, event, uuidv7());
  if (!booking.operationFound) throw notFound('operation', operationId);
  if (!booking.workplaceFound) throw invalidReference('workplaceId', record.workplaceId ?? '', 'workplaces');
  if (!booking.staffMemberFound) {
    throw invalidReference('staffMemberId', record.staffMemberId ?? '', 'staff_members');
  }
  return { ...record, workplaceId: booking.workplaceId };
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
  // The detail is master data, read before the booking; an unknown operation is still the first 404.
  const quality = await qualityOf(db, 'qualityDetailId', input.qualityDetailId).catch(
    async (error: unknown) => {
      await getOperation(db, operationId);
      throw error;
    },
  );
  return recordOutputQuantity(db, operationId, { ...input, quantityType: quality.type });
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
