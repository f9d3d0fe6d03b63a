// Operations (docs/resources/production-orders.md, "Operation"): the steps of a production order, with their standard values.
import { AppError } from './errors.ts';
import type { OperationPhaseId } from './operationPhases.ts';
import type { Material } from './productionOrders.ts';
import type { Stored } from './stored.ts';

export interface Component {
  materialNumber: string;
  description: string | null;
  quantity: number | null;
  quantityUnit: string | null;
}

export interface ProductionResourceOrTool {
  type: string | null;
  identifier: string;
  description: string | null;
  toolId: string | null;
}

export interface OperationInput {
  productionOrderId: string;
  number: string;
  description: string | null;
  material: Material | null;
  workplaceId: string | null;
  workplaceGroupId: string | null;
  targetQuantity: number | null;
  quantityUnit: string | null;
  /** Durations in milliseconds. */
  targetTimePerUnit: number | null;
  targetSetupTime: number | null;
  targetTeardownTime: number | null;
  targetMoveTime: number | null;
  targetWaitTime: number | null;
  components: Component[];
  productionResourcesAndTools: ProductionResourceOrTool[];
  /** Planned period. */
  startDate: Date | null;
  endDate: Date | null;
}

export interface Operation extends OperationInput, Stored {
  /** Position within the production order. */
  sequence: number;
  operationPhaseId: OperationPhaseId;
}

export interface RecordedOperationPhase {
  id: string;
  operationId: string;
  operationPhaseId: OperationPhaseId;
  workplaceId: string | null;
  staffMemberId: string | null;
  startDate: Date;
  endDate: Date | null;
}

/** Filters of GET /operations and POST /operations/search; empty lists restrict nothing. */
export interface OperationFilter {
  productionOrderIds?: readonly string[] | undefined;
  productionOrderNumbers?: readonly string[] | undefined;
  operationPhaseIds?: readonly string[] | undefined;
  workplaceIds?: readonly string[] | undefined;
  materialNumbers?: readonly string[] | undefined;
  /** true: in a running phase (IN_PROGRESS_PHASES); false: in any other. */
  inProgress?: boolean | undefined;
  /** Operations ending before startDate or starting after endDate are left out. */
  startDate?: Date | undefined;
  endDate?: Date | undefined;
}

/**
 * The material an operation keeps after a PUT: an operation without its own shows its order's
 * (docs/resources/production-orders.md), so that same material sent back is not made its own.
 */
export function ownMaterial(
  sent: Material | null,
  stored: Material | null,
  orderMaterial: Material | null,
): Material | null {
  const same = (a: Material | null, b: Material | null) =>
    a !== null && b !== null && a.number === b.number && a.description === b.description;
  return stored === null && same(sent, orderMaterial) ? null : sent;
}

/** targetProcessingTime = targetQuantity x targetTimePerUnit (ms, rounded); null while either is unknown. */
export function targetProcessingTime(
  operation: Pick<OperationInput, 'targetQuantity' | 'targetTimePerUnit'>,
) {
  const { targetQuantity, targetTimePerUnit } = operation;
  return targetQuantity === null || targetTimePerUnit === null
    ? null
    : Math.round(targetQuantity * targetTimePerUnit);
}

/** A client may send targetProcessingTime, but only the value it is derived to. */
export function checkTargetProcessingTime(
  input: OperationInput,
  sent: number | null | undefined,
  field = 'targetProcessingTime',
): void {
  if (sent === undefined || sent === null) return;
  const derived = targetProcessingTime(input);
  if (sent !== derived) {
    throw new AppError('VALIDATION_FAILED', {
      rule: 'value',
      field,
      detail: `must equal targetQuantity x targetTimePerUnit (${derived ?? 'unknown: both are needed'})`,
    });
  }
}
