import { OPERATION_PHASE_TRANSITIONS } from '../../domain/operationPhases.ts';
import {
  type Operation,
  type RecordedOperationPhase,
  targetProcessingTime,
} from '../../domain/operations.ts';
import type { ProductionOrder } from '../../domain/productionOrders.ts';
import { type Link, link, type Resource, resource } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';
import {
  OPERATION_PHASES_PATH,
  OPERATIONS_PATH,
  PRODUCTION_ORDERS_PATH,
  STAFF_MEMBERS_PATH,
  WORKPLACE_GROUPS_PATH,
  WORKPLACES_PATH,
} from '../paths.ts';

export const OPERATION_EMBEDS = ['productionOrder', 'workplace'] as const;
export type OperationEmbed = (typeof OPERATION_EMBEDS)[number];

/** Rel of the action that changes the phase to `phase`, e.g. `changeOperationPhaseToSETUP`. */
const phaseActionRel = (phase: string) => `changeOperationPhaseTo${phase}`;

export interface OperationView {
  hrefs: Hrefs;
  /** Whether the caller may change things: action links are only offered then. */
  canWrite: boolean;
  /** The operations' production orders, by id: shown beside productionOrderId, their material as fallback. */
  orders: ReadonlyMap<string, ProductionOrder>;
  /** Related resources already presented for embedding. */
  embedded?: { productionOrder?: Resource | undefined; workplace?: Resource | undefined };
}

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function presentOperation(operation: Operation, view: OperationView): Resource {
  const { hrefs } = view;
  const self = `${OPERATIONS_PATH}/${operation.id}`;
  // One action per phase allowed next; none for readers.
  const actions: Record<string, Link> = {};
  if (view.canWrite) {
    for (const phase of OPERATION_PHASE_TRANSITIONS[operation.operationPhaseId]) {
      actions[phaseActionRel(phase)] = link(hrefs.api(`${self}/${phase}`), { method: 'POST' });
    }
  }
  const order = view.orders.get(operation.productionOrderId);
  return resource(
    {
      id: operation.id,
      number: operation.number,
      description: operation.description,
      productionOrderId: operation.productionOrderId,
      productionOrder: order ? { id: order.id, number: order.number, description: order.description } : null,
      sequence: operation.sequence,
      // Without its own material an operation shows its order's (docs/resources/production-orders.md).
      material: operation.material ?? order?.material ?? null,
      operationPhaseId: operation.operationPhaseId,
      workplaceId: operation.workplaceId,
      workplaceGroupId: operation.workplaceGroupId,
      targetQuantity: operation.targetQuantity,
      quantityUnit: operation.quantityUnit,
      targetTimePerUnit: operation.targetTimePerUnit,
      targetProcessingTime: targetProcessingTime(operation),
      targetSetupTime: operation.targetSetupTime,
      targetTeardownTime: operation.targetTeardownTime,
      targetMoveTime: operation.targetMoveTime,
      targetWaitTime: operation.targetWaitTime,
      components: operation.components,
      productionResourcesAndTools: operation.productionResourcesAndTools,
      startDate: iso(operation.startDate),
      endDate: iso(operation.endDate),
    },
    {
      self: link(hrefs.api(self)),
      // Literal path: the production order presenter imports this module.
      productionOrder: link(hrefs.api(`${PRODUCTION_ORDERS_PATH}/${operation.productionOrderId}`), {
        embeddable: true,
      }),
      workplace: operation.workplaceId
        ? link(hrefs.api(`${WORKPLACES_PATH}/${operation.workplaceId}`), { embeddable: true })
        : undefined,
      workplaceGroup: operation.workplaceGroupId
        ? link(hrefs.api(`${WORKPLACE_GROUPS_PATH}/${operation.workplaceGroupId}`))
        : undefined,
      operationPhase: link(hrefs.api(`${OPERATION_PHASES_PATH}/${operation.operationPhaseId}`)),
      recordedOperationPhases: link(hrefs.api(`${self}/recordedOperationPhases`)),
      ...actions,
    },
    {
      ...(view.embedded?.productionOrder ? { productionOrder: view.embedded.productionOrder } : {}),
      ...(view.embedded?.workplace ? { workplace: view.embedded.workplace } : {}),
    },
  );
}

export function presentRecordedOperationPhase(record: RecordedOperationPhase, hrefs: Hrefs): Resource {
  const operation = `${OPERATIONS_PATH}/${record.operationId}`;
  return resource(
    {
      id: record.id,
      operationId: record.operationId,
      operationPhaseId: record.operationPhaseId,
      workplaceId: record.workplaceId,
      staffMemberId: record.staffMemberId,
      startDate: record.startDate.toISOString(),
      endDate: iso(record.endDate),
    },
    {
      self: link(hrefs.api(`${operation}/recordedOperationPhases/${record.id}`)),
      operation: link(hrefs.api(operation)),
      operationPhase: link(hrefs.api(`${OPERATION_PHASES_PATH}/${record.operationPhaseId}`)),
      workplace: record.workplaceId ? link(hrefs.api(`${WORKPLACES_PATH}/${record.workplaceId}`)) : undefined,
      staffMember: record.staffMemberId
        ? link(hrefs.api(`${STAFF_MEMBERS_PATH}/${record.staffMemberId}`))
        : undefined,
    },
  );
}
