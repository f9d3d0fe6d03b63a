import type { FastifyRequest } from 'fastify';
import * as repository from '../../db/repositories/operationRepository.ts';
import { findResult } from '../../db/repositories/planningResultRepository.ts';
import { findWorkplaceGroups } from '../../db/repositories/workplaceGroupRepository.ts';
import { findWorkplaces } from '../../db/repositories/workplaceRepository.ts';
import { notFound } from '../../domain/errors.ts';
import { operatingStateById } from '../../domain/masterData.ts';
import { OPERATION_PHASES } from '../../domain/operationPhases.ts';
import type { Operation, OperationFilter, RecordedOperationPhase } from '../../domain/operations.ts';
import { FORECAST_RESULTS, OPERATION_PLANNING_RESULTS } from '../../domain/planning.ts';
import * as corrections from '../../services/correctionService.ts';
import { operatingStatesOfOperationIn } from '../../services/derivedHistoryService.ts';
import * as service from '../../services/operationService.ts';
import * as outputQuantities from '../../services/outputQuantityService.ts';
import * as summaries from '../../services/summaryService.ts';
import type { Api } from '../api.ts';
import type { ServerDeps } from '../deps.ts';
import { pageOf, registerElementsRoute } from '../elementRoutes.ts';
import { link, positionBy, type Resource, startPosition } from '../hal.ts';
import { operationViewOf } from '../operationViews.ts';
import { OPERATION_PLANNING_SCENARIOS_PATH, OPERATIONS_PATH } from '../paths.ts';
import {
  OperatingStateElement,
  outputQuantityElements,
  phaseElements,
  timePeriod,
} from '../presenters/historyPresenter.ts';
import { operatingStateProperty, presentCodeHeldPage } from '../presenters/masterDataPresenter.ts';
import {
  OPERATION_EMBEDS,
  type OperationEmbed,
  presentOperation,
  presentRecordedOperationPhase,
  presentSpecification,
} from '../presenters/operationPresenter.ts';
import { presentOutputQuantity } from '../presenters/outputQuantityPresenter.ts';
import { presentResult } from '../presenters/planningPresenter.ts';
import { presentProductionOrder } from '../presenters/productionOrderPresenter.ts';
import { presentWorkplaceGroup } from '../presenters/workplaceGroupPresenter.ts';
import { each, resourceRoutes } from '../resourceRoutes.ts';
import { PeriodFilters, periodOf } from '../schemas/common.ts';
import {
  correctionOf,
  OperatingStateCorrectionBody,
  OperationQualityDetailBody,
} from '../schemas/machineSchemas.ts';
import {
  CreateOperationBody,
  OperationFilters,
  OperationSchema,
  OperationSearchBody,
  operationInput,
  PhaseBody,
  RecordedOperationPhaseSchema,
  ReplaceOperationBody,
} from '../schemas/operationSchemas.ts';
import { OutputQuantityBody, RecordedOutputQuantitySchema } from '../schemas/outputQuantitySchemas.ts';
import { embeddedParts } from './operationDetailRoutes.ts';
import { embeddableWorkplaces } from './workplaceRoutes.ts';

const tags = ['operations'];

export function registerOperations(api: Api, { db }: ServerDeps): void {
  /** Presents operations, loading what they embed once per distinct id. */
  async function presentPage(
    operations: Operation[],
    request: FastifyRequest,
    embed: ReadonlySet<OperationEmbed>,
  ) {
    // Every operation shows its order and where it runs now: one query each for the page.
    const view = await operationViewOf(db, request, operations);
    const orders = new Map<string, Resource>();
    if (embed.has('productionOrder')) {
      for (const order of view.orders.values())
        orders.set(order.id, presentProductionOrder(order, request.hrefs));
    }
    const wantsWorkplace = ['workplace', 'plannedWorkplace', 'targetWorkplace'].some((name) =>
      embed.has(name as OperationEmbed),
    );
    const asked = wantsWorkplace
      ? operations.flatMap((operation) => (operation.workplaceId ? [operation.workplaceId] : []))
      : [];
    const workplaces = await embeddableWorkplaces(db, request, asked);
    const groups = await capacityGroupsOf(operations, embed, request);
    const more =
      embed.size === 0
        ? []
        : await Promise.all(operations.map((operation) => moreOf(operation, embed, request)));
    return operations.map((operation, index) => {
      const workplace = operation.workplaceId ? workplaces.get(operation.workplaceId) : undefined;
      const group = groups.get(operation.id);
      return presentOperation(operation, {
        ...view,
        embedded: {
          productionOrder: orders.get(operation.productionOrderId),
          ...(embed.has('workplace') ? { workplace } : {}),
          ...(embed.has('plannedWorkplace') ? { plannedWorkplace: workplace } : {}),
          ...(embed.has('targetWorkplace') ? { targetWorkplace: workplace } : {}),
          ...(embed.has('plannedCapacityGroup') ? { plannedCapacityGroup: group } : {}),
          ...(embed.has('targetCapacityGroup') ? { targetCapacityGroup: group } : {}),
          ...more[index],
        },
      });
    });
  }

  /** The capacity group of each operation, by operation id, when embed asks for one. */
  async function capacityGroupsOf(
    operations: Operation[],
    embed: ReadonlySet<OperationEmbed>,
    request: FastifyRequest,
  ): Promise<Map<string, Resource>> {
    if (!embed.has('plannedCapacityGroup') && !embed.has('targetCapacityGroup')) return new Map();
    // An operation without its own group is planned on its workplace's.
    const workplaceIds = operations.flatMap((operation) =>
      operation.workplaceGroupId === null && operation.workplaceId ? [operation.workplaceId] : [],
    );
    const workplaceGroup = new Map(
      (await findWorkplaces(db, [...new Set(workplaceIds)])).map((workplace) => [
        workplace.id,
        workplace.capacityGroupId,
      ]),
    );
    const groupIdOf = (operation: Operation) =>
      operation.workplaceGroupId ?? workplaceGroup.get(operation.workplaceId ?? '') ?? null;
    const ids = [...new Set(operations.flatMap((operation) => groupIdOf(operation) ?? []))];
    const groups = new Map(
      (await findWorkplaceGroups(db, ids)).map((group) => [
        group.id,
        presentWorkplaceGroup(group, request.hrefs),
      ]),
    );
    const byOperation = new Map<string, Resource>();
    for (const operation of operations) {
      const group = groups.get(groupIdOf(operation) ?? '');
      if (group) byOperation.set(operation.id, group);
    }
    return byOperation;
  }

  /** What one operation embeds beside its order, workplace and group: its phase, results and sub-resources. */
  async function moreOf(
    operation: Operation,
    embed: ReadonlySet<OperationEmbed>,
    request: FastifyRequest,
  ): Promise<Record<string, unknown>> {
    const more: Record<string, unknown> = await embeddedParts(db, request, operation, embed);
    if (embed.has('operationPhase')) {
      const phase = OPERATION_PHASES.filter((entry) => entry.id === operation.operationPhaseId);
      more.operationPhase = (await presentCodeHeldPage('operationPhases')(phase, request, new Set()))[0];
    }
    if (embed.has('specification')) {
      more.specification = presentSpecification(
        await summaries.getSpecification(db, operation.id),
        request.hrefs,
      );
    }
    for (const [names, kind] of [
      [['planningResult', 'planningResults'], OPERATION_PLANNING_RESULTS],
      [['forecastResult', 'forecastResults'], FORECAST_RESULTS],
    ] as const) {
      const asked = names.filter((name) => embed.has(name));
      if (asked.length === 0) continue;
      const result = await findResult(db, kind, operation.id);
      for (const name of asked) more[name] = result && presentResult(kind, result, request.hrefs);
    }
    return more;
  }

  /** The links of the real API's operation collections: the plans, and this list with one embed each. */
  const collectionLinks = (request: FastifyRequest) => {
    const href = (path: string, query?: Record<string, string>) => request.hrefs.api(path, query);
    const withEmbed = (embed: string, method = 'GET') =>
      link(href(method === 'GET' ? OPERATIONS_PATH : `${OPERATIONS_PATH}/search`, { embed }), { method });
    return {
      planningScenarios: link(href(OPERATION_PLANNING_SCENARIOS_PATH)),
      planningResults: link(href(`${OPERATIONS_PATH}/planningResults`)),
      forecastResults: link(href(`${OPERATIONS_PATH}/forecastResults`)),
      operationsWithSpecification: withEmbed('specification'),
      searchOperationsWithSpecification: withEmbed('specification', 'POST'),
      operationsWithManufacturingVariants: withEmbed('manufacturingVariants'),
      operationsWithProductionResourcesAndTools: withEmbed('productionResourcesAndTools'),
      operationsWithComponents: withEmbed('components'),
      operationsWithScheduledDates: withEmbed('scheduledDates'),
      operationsWithPlanningResults: withEmbed('planningResults'),
      operationsWithForecastResults: withEmbed('forecastResults'),
    };
  };

  const operations = resourceRoutes(api, {
    path: OPERATIONS_PATH,
    schema: OperationSchema,
    embeds: OPERATION_EMBEDS,
    presentPage,
    texts: { db, table: 'operations' },
  });
  operations.list({
    summary: 'List operations, newest change first (timestamp pagination)',
    description:
      'startDate/endDate: operations planned to end before startDate or start after endDate are left out.',
    position: positionBy('updatedAt'),
    filters: OperationFilters,
    filter: ({
      productionOrderId,
      workplaceId,
      operationPhaseId,
      isInProgress,
      startDate,
      endDate,
    }): OperationFilter => ({
      inProgress: isInProgress,
      productionOrderIds: productionOrderId ? [productionOrderId] : undefined,
      workplaceIds: workplaceId ? [workplaceId] : undefined,
      operationPhaseIds: operationPhaseId ? [operationPhaseId] : undefined,
      ...periodOf({ startDate, endDate }),
    }),
    load: (filter, page) => repository.listOperations(db, filter, page),
    links: collectionLinks,
    search: {
      summary: 'Search operations (read scope; answer as GET /operations)',
      body: OperationSearchBody,
      filter: (body) => ({ ...body, ...periodOf(body) }),
    },
  });
  operations.items(db, {
    input: (body) => operationInput(body, body.productionOrderId),
    get: { run: service.getOperation },
    create: {
      summary: 'Create an operation, RELEASED (emits OPERATION_CREATED)',
      body: CreateOperationBody,
      run: service.createOperation,
    },
    replace: {
      summary: 'Replace an operation (emits OPERATION_UPDATED when a characteristic property changes)',
      description: 'The phase is changed by its command only; a missing sequence keeps the position.',
      body: ReplaceOperationBody,
      // Derived from other resources: the order's own changes, the order's other operations and the
      // phase move them between a client's GET and its PUT.
      changingOnTheirOwn: ['productionOrder', 'sequenceNumber', 'currentWorkplace'],
      run: service.replaceOperation,
    },
    remove: { summary: 'Delete an operation (emits OPERATION_DELETED)', run: service.deleteOperation },
  });
  operations.command({
    path: ':operationPhaseId',
    summary: 'Change the operation phase (emits OPERATION_PHASE_CHANGED)',
    description:
      'Transitions: see docs. SETUP, TRAINING and PROCESSING need a workplace: the body one (which becomes ' +
      "the operation's workplace) or the planned one. The body may be left out.",
    body: PhaseBody,
    run: (body, at) => service.changeOperationPhase(db, at.id, at.params.operationPhaseId ?? '', body),
  });

  // Registered beside ':operationPhaseId': a static segment wins over the parameter.
  operations.command({
    path: 'recordedOperatingStates/update',
    summary:
      "Correct the operating-state history of the operation's workplace (emits " +
      'WORKPLACE_RECORDED_OPERATING_STATES_CORRECTED, and WORKPLACE_OPERATING_STATE_CHANGED when it reaches now)',
    description:
      'Inserts the period into the history of the workplace the operation runs at, trimming and splitting ' +
      'the records it overlaps (docs/resources/workplaces.md, "Corrections").',
    operationId: 'updateOperationRecordedOperatingState',
    body: OperatingStateCorrectionBody,
    run: (body, at) => corrections.correctOperationOperatingStates(db, at.id, correctionOf(body)),
  });

  registerElementsRoute(api, {
    tags,
    path: `${OPERATIONS_PATH}/:id/recordedOperatingStates`,
    operationId: 'getOperationRecordedOperatingStates',
    summary:
      'Operating states of the workplaces the operation ran at, while it ran there (SETUP, TRAINING, ' +
      'PROCESSING), newest first',
    description: 'The workplace records clipped to the running phases and to startDate/endDate.',
    filters: PeriodFilters,
    element: OperatingStateElement,
    load: async (id, filters, page) =>
      pageOf(await operatingStatesOfOperationIn(db, id, periodOf(filters)), page),
    present: (period, request) => ({
      operatingState: operatingStateProperty(operatingStateById(period.operatingStateId), request.locale),
      timePeriod: timePeriod(period),
    }),
    // The SDK asks for the operating states embedded; every element shows its state in full anyway.
    embeds: { names: ['operatingState'], load: async () => ({}) },
  });

  // The history routes' shape, with the period filter the SDK sends (records overlapping it).
  const phases = resourceRoutes(api, {
    path: `${OPERATIONS_PATH}/:id/recordedOperationPhases`,
    itemParam: 'recordId',
    schema: RecordedOperationPhaseSchema,
    presentPage: each((record: RecordedOperationPhase, request) =>
      presentRecordedOperationPhase(record, request.hrefs),
    ),
  });
  phases.list({
    summary: 'History of operation phases, newest first (timestamp pagination)',
    description: 'startDate/endDate: only the records overlapping the period.',
    position: startPosition,
    filters: PeriodFilters,
    owner: async (at) => (await service.getOperation(db, at.id)).id,
    load: (filter, page, at) =>
      repository.listRecordedOperationPhases(db, { operationId: at.owner, ...periodOf(filter) }, page),
    elements: phaseElements('executionTime'),
  });
  phases.get({
    summary: 'One recorded operation phase',
    load: async (at) => {
      const operation = await service.getOperation(db, at.id);
      const record = await repository.findRecordedOperationPhase(db, operation.id, at.itemId);
      if (!record) throw notFound('recordedOperationPhase', at.itemId);
      return record;
    },
  });

  const quantities = resourceRoutes(api, {
    path: `${OPERATIONS_PATH}/:id/recordedOutputQuantities`,
    itemParam: 'recordedOutputQuantityId',
    schema: RecordedOutputQuantitySchema,
    present: presentOutputQuantity,
  });
  quantities.list({
    summary: 'Output quantities booked on an operation, newest first (timestamp pagination)',
    position: positionBy('timestamp'),
    description: 'startDate/endDate: only the quantities booked within the period.',
    filters: PeriodFilters,
    load: (filter, page, at) => outputQuantities.listOutputQuantities(db, at.id, periodOf(filter), page),
    createRel: 'recordOutputQuantity',
    elements: outputQuantityElements,
  });
  quantities.get({
    summary: 'One booked output quantity',
    load: (at) => outputQuantities.getOutputQuantity(db, at.id, at.itemId),
  });
  quantities.create({
    summary: 'Book an output quantity (emits OPERATION_OUTPUT_QUANTITY_RECORDED)',
    description: "timestamp defaults to now, workplaceId to the operation's workplace.",
    body: OutputQuantityBody,
    run: (body, at) =>
      outputQuantities.recordOutputQuantity(db, at.id, {
        ...body,
        timestamp: body.timestamp === undefined ? undefined : new Date(body.timestamp),
      }),
  });

  // A quantity with a quality detail: an output quantity of the detail's quality type.
  const qualityDetails = resourceRoutes(api, {
    path: `${OPERATIONS_PATH}/:id/qualityDetails`,
    schema: RecordedOutputQuantitySchema,
    present: presentOutputQuantity,
  });
  qualityDetails.create({
    summary:
      "Book a quantity with a quality detail, as the detail's quality type (emits OPERATION_OUTPUT_QUANTITY_RECORDED)",
    description:
      "workplaceId defaults to the operation's workplace; the answer is the booked output quantity (Location: " +
      'its recordedOutputQuantities address).',
    operationId: 'createQualityDetails',
    body: OperationQualityDetailBody,
    run: (body, at) => outputQuantities.recordQualityDetail(db, at.id, body),
  });
}
