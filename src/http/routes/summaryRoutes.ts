// Summaries of operations and workplaces and the OEE report (docs/resources/reports.md): read
// scope, one resource each (no collection), computed on every request on the app's clock.
import type { FastifyRequest } from 'fastify';
import { type TSchema, Type } from 'typebox';
import type { OperatingState } from '../../domain/masterData.ts';
import type { OperatingStateSummary, QuantitySummary } from '../../domain/summaries.ts';
import * as service from '../../services/summaryService.ts';
import type { Api } from '../api.ts';
import type { ServerDeps } from '../deps.ts';
import { parseEmbed } from '../embed.ts';
import { link, resource } from '../hal.ts';
import type { QueryValues } from '../hrefs.ts';
import { OPERATIONS_PATH, REPORTS_PATH, WORKPLACE_GROUPS_PATH, WORKPLACES_PATH } from '../paths.ts';
import { operatingStateProperty } from '../presenters/masterDataPresenter.ts';
import { presentSpecification } from '../presenters/operationPresenter.ts';
import { windowProperties } from '../presenters/properties.ts';
import { registerRoute } from '../route.ts';
import { dateOf, EmbedQuery, periodOf } from '../schemas/common.ts';
import {
  OeeQuery,
  OeeSchema,
  OperationQuantitySummarySchema,
  OperationStateSummarySchema,
  PeriodQuery,
  SpecificationSchema,
  WorkplaceQuantitySummarySchema,
  WorkplaceStateSummarySchema,
} from '../schemas/summarySchemas.ts';
import { embeddableWorkplaces } from './workplaceRoutes.ts';

/** The period a summary is asked for, as the query sends it. */
type PeriodValues = QueryValues & { startDate?: string; endDate?: string };

const quantityProperties = (summary: QuantitySummary) => ({
  targetQuantity: summary.targetQuantity,
  totalQuantity: summary.totalQuantity,
  remainingQuantity: summary.remainingQuantity,
  // The bridge books no unconfirmed quantities: null, not zeros.
  elements: summary.elements.map((element) => ({ ...element, unconfirmedQuantities: null })),
});

const stateProperties = (
  summary: OperatingStateSummary,
  present: (state: OperatingState) => ReturnType<typeof operatingStateProperty>,
) => ({
  setupTime: summary.setupTime,
  processingTime: summary.processingTime,
  interruptionTime: summary.interruptionTime,
  executionTime: summary.executionTime,
  productionTime: summary.productionTime,
  setupReduction: summary.setupReduction,
  processAvailability: summary.processAvailability,
  timePerUnit: summary.timePerUnit,
  elements: summary.elements.map(({ operatingState, duration, frequency }) => ({
    operatingState: present(operatingState),
    duration,
    frequency,
  })),
});

/** The SDK's page of a summary: all its elements in one page, first and last the summary itself. */
const summaryPage = (properties: { elements: readonly unknown[] } & Record<string, unknown>) => ({
  offset: 0,
  limit: Math.max(1, properties.elements.length),
  count: properties.elements.length,
  total: properties.elements.length,
  firstIdentifier: null,
  lastIdentifier: null,
});

export function registerSummaries(api: Api, { db, clock }: ServerDeps): void {
  const now = () => clock?.now() ?? new Date();
  /** The words and answer of a route of one owner's object (404 without the owner). */
  const docOf = (tags: string[], summary: string, response: TSchema, description?: string) => ({
    tags,
    summary,
    description,
    response: { 200: response },
    errors: [404],
  });

  registerRoute(api, {
    method: 'GET',
    path: `${OPERATIONS_PATH}/:id/specification`,
    ...docOf(['operations'], "The operation's standard values", SpecificationSchema),
    querystring: Type.Object({ embed: EmbedQuery }, { additionalProperties: false }),
    handler: async (request) => {
      const embed = parseEmbed(request.query.embed, ['targetWorkplace']);
      const { operation, workplace, capacityGroup } = await service.getSpecification(db, request.params.id);
      const embedded = embed.has('targetWorkplace')
        ? await embeddableWorkplaces(db, request, workplace ? [workplace.id] : [])
        : new Map();
      const targetWorkplace = workplace ? embedded.get(workplace.id) : undefined;
      return presentSpecification({ operation, workplace, capacityGroup }, request.hrefs, targetWorkplace);
    },
  });

  /**
   * GET <owner>/:id/<name>: a summary of the owner, linked to itself and to its owner. A summary
   * of a period takes startDate and endDate (its self link keeps them) and shows its window.
   */
  const summaryRoute = (
    owner: { path: string; rel: string },
    name: string,
    doc: ReturnType<typeof docOf>,
    properties: (
      id: string,
      request: FastifyRequest,
      period: PeriodValues,
    ) => Promise<{ elements: readonly unknown[] } & Record<string, unknown>>,
    period = false,
  ) =>
    registerRoute(api, {
      method: 'GET',
      path: `${owner.path}/:id/${name}`,
      ...doc,
      ...(period ? { querystring: PeriodQuery } : {}),
      handler: async (request) => {
        const { id } = request.params;
        const query = period ? (request.query as PeriodValues) : {};
        const shown = await properties(id, request, query);
        const self = link(request.hrefs.api(`${owner.path}/${id}/${name}`, query));
        return {
          ...resource(shown, {
            self,
            first: self,
            last: self,
            [owner.rel]: link(request.hrefs.api(`${owner.path}/${id}`)),
          }),
          pagination: summaryPage(shown),
        };
      },
    });
  const operation = { path: OPERATIONS_PATH, rel: 'operation' };
  const workplace = { path: WORKPLACES_PATH, rel: 'workplace' };
  const states = (summary: OperatingStateSummary, request: FastifyRequest) =>
    stateProperties(summary, (state) => operatingStateProperty(state, request.locale));

  summaryRoute(
    operation,
    'quantitySummary',
    docOf(
      ['operations'],
      'Output quantities booked on the operation',
      OperationQuantitySummarySchema,
      'The first element is the total over all workplaces (workplaceId null), then one per workplace.',
    ),
    async (id) => {
      const summary = await service.getOperationQuantitySummary(db, id, now());
      const { operation } = summary;
      return {
        ...quantityProperties(summary),
        performance: summary.performance,
        qualityRate: summary.qualityRate,
        material: summary.material && { ...summary.material, type: null },
        quantityUnit: operation.quantityUnit,
        targetTimePerUnit: operation.targetTimePerUnit,
        timePerUnit: summary.timePerUnit,
        productionTime: summary.productionTime,
      };
    },
  );
  summaryRoute(
    operation,
    'operatingStateSummary',
    docOf(
      ['operations'],
      'Time of the operation by phase, and by operating state of its workplace while it ran',
      OperationStateSummarySchema,
    ),
    async (id, request) => states(await service.getOperationStateSummary(db, id, now()), request),
  );

  const periodDescription = 'startDate/endDate: default the 24 hours up to now; at most 366 days.';
  summaryRoute(
    workplace,
    'operatingStateSummary',
    docOf(
      ['workplaces'],
      'Time at the workplace by phase and by operating state in a period',
      WorkplaceStateSummarySchema,
      periodDescription,
    ),
    async (id, request, query) => {
      const { window, summary } = await service.getWorkplaceStateSummary(db, id, periodOf(query), now());
      return {
        ...windowProperties(window),
        ...states(summary, request),
        scheduledOperatingTime: summary.scheduledOperatingTime,
        occupancyTime: summary.occupancyTime,
        occupancyRate: summary.occupancyRate,
        availability: summary.availability,
      };
    },
    true,
  );
  summaryRoute(
    workplace,
    'quantitySummary',
    docOf(
      ['workplaces'],
      'Output quantities booked at the workplace in a period',
      WorkplaceQuantitySummarySchema,
      `${periodDescription} targetQuantity and remainingQuantity are null (a workplace has no target).`,
    ),
    async (id, _request, query) => {
      const { window, summary } = await service.getWorkplaceQuantitySummary(db, id, periodOf(query), now());
      return {
        ...windowProperties(window),
        ...quantityProperties(summary),
        performance: summary.performance,
        quantityBasedQualityRate: summary.quantityBasedQualityRate,
        timeBasedQualityRate: summary.timeBasedQualityRate,
      };
    },
    true,
  );

  registerRoute(api, {
    method: 'GET',
    path: `${REPORTS_PATH}/overallEquipmentEfficiency`,
    ...docOf(
      ['reports'],
      'Overall equipment efficiency (OEE) of a workplace or workplace group in a period',
      OeeSchema,
      `Exactly one of workplaceId, workplaceNumber, workplaceGroupId and workplaceGroupNumber. ${periodDescription}`,
    ),
    querystring: OeeQuery,
    handler: async (request) => {
      const query = request.query as QueryValues & {
        workplaceId?: string;
        workplaceNumber?: string;
        workplaceGroupId?: string;
        workplaceGroupNumber?: string;
        startDate?: string;
        endDate?: string;
      };
      const { window, summary } = await service.getOeeReport(
        db,
        {
          workplaceId: query.workplaceId,
          workplaceNumber: query.workplaceNumber,
          workplaceGroupId: query.workplaceGroupId,
          workplaceGroupNumber: query.workplaceGroupNumber,
          startDate: dateOf(query.startDate),
          endDate: dateOf(query.endDate),
        },
        now(),
      );
      return resource(
        {
          ...windowProperties(window),
          workplaceId: query.workplaceId ?? null,
          workplaceGroupId: query.workplaceGroupId ?? null,
          ...summary,
        },
        {
          self: link(request.hrefs.api(`${REPORTS_PATH}/overallEquipmentEfficiency`, query)),
          workplace: query.workplaceId
            ? link(request.hrefs.api(`${WORKPLACES_PATH}/${query.workplaceId}`))
            : undefined,
          workplaceGroup: query.workplaceGroupId
            ? link(request.hrefs.api(`${WORKPLACE_GROUPS_PATH}/${query.workplaceGroupId}`))
            : undefined,
        },
      );
    },
  });
}
