import { IN_PROGRESS_PHASES, OPERATION_PHASE_TRANSITIONS } from '../../domain/operationPhases.ts';
import {
  type Operation,
  type RecordedOperationPhase,
  targetProcessingTime,
} from '../../domain/operations.ts';
import type { ProductionOrder } from '../../domain/productionOrders.ts';
import type { Workplace } from '../../domain/workplaces.ts';
import type { Specification } from '../../services/summaryService.ts';
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
import { RecordedOperationPhaseSchema } from '../schemas/operationSchemas.ts';
import { orderReference } from './productionOrderPresenter.ts';
import { iso, linkTo, propertiesOf } from './properties.ts';
import { TEXT_EMBEDS, textLinks } from './texts.ts';

/** The sub-resources `embed` may name on operations, embedded as their own GET answers them. */
export const OPERATION_PART_EMBEDS = [
  'components',
  'materialCharacteristics',
  'userFields',
  'manufacturingVariants',
  'requiredTools',
  'requiredSkills',
  'productionResourcesAndTools',
  'scheduledDates',
  'alternativeWorkplaces',
] as const;

/**
 * What `embed` may name on operations: the SDK's names. The planned and the target workplace are
 * the operation's workplace, the planned and the target capacity group its group (else its
 * workplace's); `planningResults` and `forecastResults` are the collection links' names of the
 * operation's one result of each.
 */
export const OPERATION_EMBEDS = [
  'productionOrder',
  'workplace',
  ...TEXT_EMBEDS,
  'operationPhase',
  'plannedWorkplace',
  'targetWorkplace',
  'plannedCapacityGroup',
  'targetCapacityGroup',
  'specification',
  'planningResult',
  'forecastResult',
  'planningResults',
  'forecastResults',
  ...OPERATION_PART_EMBEDS,
] as const;
export type OperationEmbed = (typeof OPERATION_EMBEDS)[number];

/** Rel of the action that changes the phase to `phase`, e.g. `changeOperationPhaseToSETUP`. */
const phaseActionRel = (phase: string) => `changeOperationPhaseTo${phase}`;

export interface OperationView {
  hrefs: Hrefs;
  /** Whether the caller may change things: action links are only offered then. */
  canWrite: boolean;
  /** The operations' production orders, by id: shown beside productionOrderId, their material as fallback. */
  orders: ReadonlyMap<string, ProductionOrder>;
  /** The workplaces of the operations in progress, by id: their currentWorkplace. */
  workplaces: ReadonlyMap<string, Workplace>;
  /** Related resources already presented for embedding, by name; undefined ones are left out. */
  embedded?: Record<string, unknown>;
}

/** A workplace as operations, specifications and alternatives name it. */
export const workplaceReference = (workplace: Workplace) => ({
  id: workplace.id,
  number: workplace.number,
  description: workplace.description,
  erpContextId: workplace.erpContextId,
});

const definedOnly = (values: Record<string, unknown>) => {
  const defined: Record<string, unknown> = {};
  for (const name in values) if (values[name] !== undefined) defined[name] = values[name];
  return defined;
};

/** The workplace the operation runs at now: its workplace while in a running phase, else null. */
export const currentWorkplaceId = (operation: Operation): string | null =>
  IN_PROGRESS_PHASES.includes(operation.operationPhaseId) ? operation.workplaceId : null;

/** The scheduled dates as the API shows them. */
export const scheduledDatesProperties = (dates: Operation['scheduledDates']) => ({
  earliestStartDate: iso(dates.earliestStartDate),
  latestStartDate: iso(dates.latestStartDate),
  earliestEndDate: iso(dates.earliestEndDate),
  latestEndDate: iso(dates.latestEndDate),
  scheduledStartDate: iso(dates.scheduledStartDate),
  scheduledEndDate: iso(dates.scheduledEndDate),
});

export function presentOperation(operation: Operation, view: OperationView): Resource {
  const { hrefs } = view;
  const self = `${OPERATIONS_PATH}/${operation.id}`;
  // One action per phase allowed next; none for readers.
  const actions: Record<string, Link> = {};
  if (view.canWrite) {
    for (const phase of OPERATION_PHASE_TRANSITIONS[operation.operationPhaseId]) {
      actions[phaseActionRel(phase)] = link(hrefs.api(`${self}/${phase}`), { method: 'POST' });
    }
    // The phase command for any phase, as the real API offers it beside the per-phase actions.
    actions.setOperationPhase = link(hrefs.api(`${self}/{operationPhaseId}`), {
      method: 'POST',
      templated: true,
    });
    // The result writes the service serves per operation, under the real API's names.
    actions.updatePlanningResult = link(hrefs.api(`${self}/planningResult`), { method: 'PUT' });
    actions.deletePlanningResult = link(hrefs.api(`${self}/planningResult`), { method: 'DELETE' });
    actions.updateForecastResult = link(hrefs.api(`${self}/forecastResult`), { method: 'PUT' });
    actions.deleteForecastResult = link(hrefs.api(`${self}/forecastResult`), { method: 'DELETE' });
  }
  const order = view.orders.get(operation.productionOrderId);
  const currentId = currentWorkplaceId(operation);
  const current = currentId === null ? undefined : view.workplaces.get(currentId);
  const sub = (name: string) => link(hrefs.api(`${self}/${name}`));
  const workplace = operation.workplaceId
    ? link(hrefs.api(`${WORKPLACES_PATH}/${operation.workplaceId}`), { embeddable: true })
    : undefined;
  return resource(
    {
      id: operation.id,
      number: operation.number,
      split: operation.split,
      description: operation.description,
      productionOrderId: operation.productionOrderId,
      productionOrder: order ? orderReference(order) : null,
      sequence: operation.sequence,
      sequenceNumber: operation.sequence,
      erpContextId: operation.erpContextId,
      currentWorkplace: current ? workplaceReference(current) : null,
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
      scheduledDates: scheduledDatesProperties(operation.scheduledDates),
      alternativeWorkplaceIds: operation.alternativeWorkplaceIds,
      materialCharacteristics: operation.materialCharacteristics,
      userFields: operation.userFields,
      targetMachineCycleTime: operation.targetMachineCycleTime,
      unitsPerMachineCycle: operation.unitsPerMachineCycle,
      manufacturingVariants: operation.manufacturingVariants,
      requiredTools: operation.requiredTools,
      requiredSkills: operation.requiredSkills,
      startDate: iso(operation.startDate),
      endDate: iso(operation.endDate),
    },
    {
      self: link(hrefs.api(self)),
      ...textLinks(hrefs, 'operations', operation),
      operations: link(hrefs.api(OPERATIONS_PATH)),
      // Literal path: the production order presenter imports this module.
      productionOrder: link(hrefs.api(`${PRODUCTION_ORDERS_PATH}/${operation.productionOrderId}`), {
        embeddable: true,
      }),
      workplace,
      // The SDK's names for the planned workplace: the bridge plans one workplace per operation.
      plannedWorkplace: workplace,
      targetWorkplace: workplace,
      workplaceGroup: operation.workplaceGroupId
        ? link(hrefs.api(`${WORKPLACE_GROUPS_PATH}/${operation.workplaceGroupId}`))
        : undefined,
      operationPhase: link(hrefs.api(`${OPERATION_PHASES_PATH}/${operation.operationPhaseId}`)),
      recordedOperatingStates: sub('recordedOperatingStates'),
      recordedOperationPhases: sub('recordedOperationPhases'),
      recordedOutputQuantities: sub('recordedOutputQuantities'),
      specification: sub('specification'),
      productionOrderSpecification: link(
        hrefs.api(`${PRODUCTION_ORDERS_PATH}/${operation.productionOrderId}/specification`),
      ),
      quantitySummary: sub('quantitySummary'),
      operatingStateSummary: sub('operatingStateSummary'),
      scheduledDates: sub('scheduledDates'),
      components: sub('components'),
      productionResourcesAndTools: sub('productionResourcesAndTools'),
      alternativeWorkplaces: sub('alternativeWorkplaces'),
      manufacturingVariants: sub('manufacturingVariants'),
      requiredTools: sub('requiredTools'),
      requiredSkills: sub('requiredSkills'),
      materialCharacteristics: sub('materialCharacteristics'),
      userFields: sub('userFields'),
      currentProductionData: sub('currentProductionData'),
      planningResult: sub('planningResult'),
      forecastResult: sub('forecastResult'),
      ...actions,
    },
    view.embedded && definedOnly(view.embedded),
  );
}

/** An operation's standard values (GET /operations/{id}/specification), its target workplace embedded when given. */
export function presentSpecification(
  { operation, workplace, capacityGroup }: Specification,
  hrefs: Hrefs,
  targetWorkplace?: Resource,
): Resource {
  const self = `${OPERATIONS_PATH}/${operation.id}`;
  return resource(
    {
      operationId: operation.id,
      targetQuantity: operation.targetQuantity,
      quantityUnit: operation.quantityUnit,
      targetTimePerUnit: operation.targetTimePerUnit,
      targetSetupTime: operation.targetSetupTime,
      targetProcessingTime: targetProcessingTime(operation),
      targetTeardownTime: operation.targetTeardownTime,
      targetWaitTime: operation.targetWaitTime,
      targetMoveTime: operation.targetMoveTime,
      targetMachineCycleTime: operation.targetMachineCycleTime,
      unitsPerMachineCycle: operation.unitsPerMachineCycle,
      targetWorkplace: workplace && workplaceReference(workplace),
      targetCapacityGroup: capacityGroup && {
        id: capacityGroup.id,
        number: capacityGroup.number,
        description: capacityGroup.description,
        type: capacityGroup.type,
        erpContextId: capacityGroup.erpContextId,
      },
    },
    {
      self: link(hrefs.api(`${self}/specification`)),
      operation: link(hrefs.api(self)),
      targetWorkplace: workplace
        ? link(hrefs.api(`${WORKPLACES_PATH}/${workplace.id}`), { embeddable: true })
        : undefined,
    },
    targetWorkplace ? { targetWorkplace } : undefined,
  );
}

export function presentRecordedOperationPhase(record: RecordedOperationPhase, hrefs: Hrefs): Resource {
  const operation = `${OPERATIONS_PATH}/${record.operationId}`;
  return resource(propertiesOf(RecordedOperationPhaseSchema, record), {
    self: link(hrefs.api(`${operation}/recordedOperationPhases/${record.id}`)),
    operation: link(hrefs.api(operation)),
    operationPhase: link(hrefs.api(`${OPERATION_PHASES_PATH}/${record.operationPhaseId}`)),
    workplace: linkTo(hrefs, WORKPLACES_PATH, record.workplaceId),
    staffMember: linkTo(hrefs, STAFF_MEMBERS_PATH, record.staffMemberId),
  });
}
