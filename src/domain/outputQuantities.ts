// Output quantities booked on an operation (docs/resources/production-orders.md, "Output quantities").

export const QUANTITY_TYPES = ['YIELD', 'SCRAP', 'REWORK', 'UNCATEGORIZED'] as const;
export type QuantityType = (typeof QUANTITY_TYPES)[number];

export interface OutputQuantityInput {
  quantity: number;
  quantityType: QuantityType;
  /** When the quantity was produced; default: when it is recorded. */
  timestamp?: Date | undefined;
  /** Default: the operation's workplace. */
  workplaceId?: string | undefined;
  staffMemberId?: string | undefined;
  /** The quality detail it was booked with (docs/resources/machines.md, "Quality"). */
  qualityDetailId?: string | undefined;
  remark?: string | undefined;
}

export interface RecordedOutputQuantity {
  id: string;
  operationId: string;
  quantity: number;
  quantityType: QuantityType;
  timestamp: Date;
  workplaceId: string | null;
  staffMemberId: string | null;
  qualityDetailId: string | null;
  remark: string | null;
  recordedAt: Date;
}

/** The event data of OPERATION_OUTPUT_QUANTITY_RECORDED. */
export function outputQuantityEventData(record: RecordedOutputQuantity): Record<string, unknown> {
  return {
    operationId: record.operationId,
    recordedOutputQuantityId: record.id,
    quantity: record.quantity,
    quantityType: record.quantityType,
    timestamp: record.timestamp.toISOString(),
    workplaceId: record.workplaceId,
    staffMemberId: record.staffMemberId,
    qualityDetailId: record.qualityDetailId,
  };
}
