import type { FastifyRequest } from 'fastify';
import * as repository from '../../db/repositories/operationRepository.ts';
import { operatingStateById } from '../../domain/masterData.ts';
import type { Operation, OperationFilter } from '../../domain/operations.ts';
import * as corrections from '../../services/correctionService.ts';
import { operatingStatesOfOperationIn } from '../../services/derivedHistoryService.ts';
import * as service from '../../services/operationService.ts';
import * as outputQuantities from '../../services/outputQuantityService.ts';
import type { Api } from '../api.ts';
import type { ServerDeps } from '../deps.ts';
import { pageOf, registerElementsRoute } from '../elementRoutes.ts';
import { positionBy, type Resource } from '../hal.ts';
import { registerHistoryRoutes } from '../historyRoutes.ts';
import { operationViewOf } from '../operationViews.ts';
import { OPERATIONS_PATH } from '../paths.ts';
import {
  OperatingStateElement,
  outputQuantityElements,
  phaseElements,
  timePeriod,
} from '../presenters/historyPresenter.ts';
import { operatingStateProperty } from '../presenters/masterDataPresenter.ts';
import {
  OPERATION_EMBEDS,
  type OperationEmbed,
  presentOperation,
  presentRecordedOperationPhase,
} from '../presenters/operationPresenter.ts';
import { presentOutputQuantity } from '../presenters/outputQuantityPresenter.ts';
import { presentProductionOrder } from '../presenters/productionOrderPresenter.ts';
import { resourceRoutes } from '../resourceRoutes.ts';
import { dateOf, PeriodFilters, periodOf } from '../schemas/common.ts';
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
    const asked = embed.has('workplace')
      ? operations.flatMap((operation) => (operation.workplaceId ? [operation.workplaceId] : []))
      : [];
    const workplaces = await embeddableWorkplaces(db, request, asked);
    return operations.map((operation) =>
      presentOperation(operation, {
        ...view,
        embedded: {
          productionOrder: orders.get(operation.productionOrderId),
          workplace: operation.workplaceId ? workplaces.get(operation.workplaceId) : undefined,
        },
      }),
    );
  }

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
    paging: 'keyset',
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
      startDate: dateOf(startDate),
      endDate: dateOf(endDate),
    }),
    load: (filter, page) => repository.listOperations(db, filter, page),
    search: {
      summary: 'Search operations (read scope; answer as GET /operations)',
      body: OperationSearchBody,
      filter: (body) => ({
        ...body,
        startDate: dateOf(body.startDate),
        endDate: dateOf(body.endDate),
      }),
    },
  });
  operations.items(db, {
    input: (body) => operationInput(body, body.productionOrderId),
    get: { summary: 'One operation', run: service.getOperation },
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
  });

  registerHistoryRoutes(api, db, {
    ownerPath: OPERATIONS_PATH,
    name: 'recordedOperationPhases',
    summary: 'History of operation phases, newest first (timestamp pagination)',
    schema: RecordedOperationPhaseSchema,
    ownerId: async (tx, id) => (await service.getOperation(tx, id)).id,
    history: { list: repository.listRecordedOperationPhases, find: repository.findRecordedOperationPhase },
    present: (record, request) => presentRecordedOperationPhase(record, request.hrefs),
    elements: phaseElements('executionTime'),
  });

  const quantities = resourceRoutes(api, {
    path: `${OPERATIONS_PATH}/:id/recordedOutputQuantities`,
    itemParam: 'recordedOutputQuantityId',
    schema: RecordedOutputQuantitySchema,
    present: presentOutputQuantity,
  });
  quantities.list({
    summary: 'Output quantities booked on an operation, newest first (timestamp pagination)',
    paging: 'keyset',
    position: positionBy('timestamp'),
    load: (_filter, page, at) => outputQuantities.listOutputQuantities(db, at.id, page),
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
