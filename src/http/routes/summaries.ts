// Summaries of operations and workplaces and the OEE report (docs/resources/reports.md): read
// scope, one resource each (no collection), computed on every request on the app's clock.
import type { TSchema } from 'typebox';
import type { OperatingState } from '../../domain/masterData.ts';
import { targetProcessingTime } from '../../domain/operations.ts';
import type { OperatingStateSummary, QuantitySummary, Span } from '../../domain/summaries.ts';
import * as service from '../../services/summaries.ts';
import type { Api } from '../api.ts';
import type { ServerDeps } from '../deps.ts';
import { link, resource } from '../hal.ts';
import type { QueryValues } from '../hrefs.ts';
import { OPERATIONS_PATH, REPORTS_PATH, WORKPLACE_GROUPS_PATH, WORKPLACES_PATH } from '../paths.ts';
import { operatingStateProperty } from '../presenters/masterData.ts';
import { dateOf, errorResponses, IdParams, periodOf } from '../schemas/common.ts';
import {
  OeeQuery,
  OeeSchema,
  OperatingStateSummarySchema,
  PeriodQuery,
  QuantitySummarySchema,
  SpecificationSchema,
} from '../schemas/summaries.ts';

const iso = (ms: number) => new Date(ms).toISOString();
const windowProperties = (window: Span) => ({ startDate: iso(window.start), endDate: iso(window.end) });

const quantityProperties = (summary: QuantitySummary) => ({
  targetQuantity: summary.targetQuantity,
  totalQuantity: summary.totalQuantity,
  remainingQuantity: summary.remainingQuantity,
  elements: summary.elements,
});

const stateProperties = (
  summary: OperatingStateSummary,
  present: (state: OperatingState) => ReturnType<typeof operatingStateProperty>,
) => ({
  setupTime: summary.setupTime,
  processingTime: summary.processingTime,
  interruptionTime: summary.interruptionTime,
  executionTime: summary.executionTime,
  timePerUnit: summary.timePerUnit,
  elements: summary.elements.map(({ operatingState, duration }) => ({
    operatingState: present(operatingState),
    duration,
  })),
});

export function registerSummaries(api: Api, { db, clock }: ServerDeps): void {
  const now = () => clock?.now() ?? new Date();
  const schemaOf = (tags: string[], summary: string, response: TSchema, description?: string) => ({
    tags,
    summary,
    ...(description === undefined ? {} : { description }),
    params: IdParams,
    response: { 200: response, ...errorResponses(404) },
  });

  api.get(
    `${OPERATIONS_PATH}/:id/specification`,
    { schema: schemaOf(['operations'], "The operation's standard values", SpecificationSchema) },
    async (request) => {
      const { operation, workplace, capacityGroup } = await service.getSpecification(db, request.params.id);
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
          targetWorkplace: workplace && {
            id: workplace.id,
            number: workplace.number,
            description: workplace.description,
            erpContextId: workplace.erpContextId,
          },
          targetCapacityGroup: capacityGroup && {
            id: capacityGroup.id,
            number: capacityGroup.number,
            description: capacityGroup.description,
            type: capacityGroup.type,
            erpContextId: capacityGroup.erpContextId,
          },
        },
        {
          self: link(request.hrefs.api(`${self}/specification`)),
          operation: link(request.hrefs.api(self)),
          targetWorkplace: workplace
            ? link(request.hrefs.api(`${WORKPLACES_PATH}/${workplace.id}`))
            : undefined,
        },
      );
    },
  );

  api.get(
    `${OPERATIONS_PATH}/:id/quantitySummary`,
    {
      schema: schemaOf(
        ['operations'],
        'Output quantities booked on the operation',
        QuantitySummarySchema,
        'The first element is the total over all workplaces (workplaceId null), then one per workplace.',
      ),
    },
    async (request) => {
      const { id } = request.params;
      const summary = await service.getOperationQuantitySummary(db, id);
      return resource(quantityProperties(summary), {
        self: link(request.hrefs.api(`${OPERATIONS_PATH}/${id}/quantitySummary`)),
        operation: link(request.hrefs.api(`${OPERATIONS_PATH}/${id}`)),
      });
    },
  );

  api.get(
    `${OPERATIONS_PATH}/:id/operatingStateSummary`,
    {
      schema: schemaOf(
        ['operations'],
        'Time of the operation by phase, and by operating state of its workplace while it ran',
        OperatingStateSummarySchema,
      ),
    },
    async (request) => {
      const { id } = request.params;
      const summary = await service.getOperationStateSummary(db, id, now());
      return resource(
        stateProperties(summary, (state) => operatingStateProperty(state, request.locale)),
        {
          self: link(request.hrefs.api(`${OPERATIONS_PATH}/${id}/operatingStateSummary`)),
          operation: link(request.hrefs.api(`${OPERATIONS_PATH}/${id}`)),
        },
      );
    },
  );

  const periodDescription = 'startDate/endDate: default the 24 hours up to now; at most 366 days.';
  api.get(
    `${WORKPLACES_PATH}/:id/operatingStateSummary`,
    {
      schema: {
        ...schemaOf(
          ['workplaces'],
          'Time at the workplace by phase and by operating state in a period',
          OperatingStateSummarySchema,
          periodDescription,
        ),
        querystring: PeriodQuery,
      },
    },
    async (request) => {
      const { id } = request.params;
      const query = request.query as QueryValues & { startDate?: string; endDate?: string };
      const { window, summary } = await service.getWorkplaceStateSummary(db, id, periodOf(query), now());
      return resource(
        {
          ...windowProperties(window),
          ...stateProperties(summary, (state) => operatingStateProperty(state, request.locale)),
        },
        {
          self: link(request.hrefs.api(`${WORKPLACES_PATH}/${id}/operatingStateSummary`, query)),
          workplace: link(request.hrefs.api(`${WORKPLACES_PATH}/${id}`)),
        },
      );
    },
  );

  api.get(
    `${WORKPLACES_PATH}/:id/quantitySummary`,
    {
      schema: {
        ...schemaOf(
          ['workplaces'],
          'Output quantities booked at the workplace in a period',
          QuantitySummarySchema,
          `${periodDescription} targetQuantity and remainingQuantity are null (a workplace has no target).`,
        ),
        querystring: PeriodQuery,
      },
    },
    async (request) => {
      const { id } = request.params;
      const query = request.query as QueryValues & { startDate?: string; endDate?: string };
      const { window, summary } = await service.getWorkplaceQuantitySummary(db, id, periodOf(query), now());
      return resource(
        { ...windowProperties(window), ...quantityProperties(summary) },
        {
          self: link(request.hrefs.api(`${WORKPLACES_PATH}/${id}/quantitySummary`, query)),
          workplace: link(request.hrefs.api(`${WORKPLACES_PATH}/${id}`)),
        },
      );
    },
  );

  api.get(
    `${REPORTS_PATH}/overallEquipmentEfficiency`,
    {
      schema: {
        tags: ['reports'],
        summary: 'Overall equipment efficiency (OEE) of a workplace or workplace group in a period',
        description: `Exactly one of workplaceId and workplaceGroupId. ${periodDescription}`,
        querystring: OeeQuery,
        response: { 200: OeeSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const query = request.query as QueryValues & {
        workplaceId?: string;
        workplaceGroupId?: string;
        startDate?: string;
        endDate?: string;
      };
      const { window, summary } = await service.getOeeReport(
        db,
        {
          workplaceId: query.workplaceId,
          workplaceGroupId: query.workplaceGroupId,
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
          ...(query.workplaceId
            ? { workplace: link(request.hrefs.api(`${WORKPLACES_PATH}/${query.workplaceId}`)) }
            : {
                workplaceGroup: link(request.hrefs.api(`${WORKPLACE_GROUPS_PATH}/${query.workplaceGroupId}`)),
              }),
        },
      );
    },
  );
}
