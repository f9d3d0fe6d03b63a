// The sub-resources of an operation that show what its create or replace stored (components,
// production resources and tools, scheduled dates, alternative workplaces, material
// characteristics, user fields) and what its phase history gives (current production data):
// docs/resources/production-orders.md, "Sub-resources".
import { Type } from 'typebox';
import { phaseHistoryOfOperation } from '../../db/repositories/operationRepository.ts';
import { findWorkplaces } from '../../db/repositories/workplaceRepository.ts';
import { OPERATION_PHASE_IDS } from '../../domain/operationPhases.ts';
import { type PhaseTimes, phaseTimes } from '../../domain/operations.ts';
import { getOperation } from '../../services/operationService.ts';
import type { Api } from '../api.ts';
import type { ServerDeps } from '../deps.ts';
import {
  type ElementEmbeds,
  OffsetPagination,
  pageOf,
  registerElementsRoute,
  registerObjectRoute,
} from '../elementRoutes.ts';
import { link, offsetCollection, resource } from '../hal.ts';
import { operationViewOf } from '../operationViews.ts';
import { OPERATIONS_PATH, WORKPLACES_PATH } from '../paths.ts';
import {
  presentOperation,
  scheduledDatesProperties,
  workplaceReference,
} from '../presenters/operationPresenter.ts';
import { registerRoute } from '../route.ts';
import { Nullable, OffsetQuery, offsetPage, Resource } from '../schemas/common.ts';
import {
  ForecastProperty,
  RequiredSkillsProperty,
  ScheduledDatesProperties,
  ToolDefinitionProperty,
  WorkplaceReference,
} from '../schemas/operationSchemas.ts';

const tags = ['operations'];
const below = (name: string) => `${OPERATIONS_PATH}/:id/${name}`;
const operationLink = (id: string, request: { hrefs: { api: (path: string) => string } }) => ({
  operation: link(request.hrefs.api(`${OPERATIONS_PATH}/${id}`)),
});

/** The operation times currentProductionData names, and the phase total each is. */
const OPERATION_TIMES = {
  operationSetupTime: { name: 'setupTime', of: (times: PhaseTimes) => times.setupTime },
  operationProductionTime: { name: 'productionTime', of: (times: PhaseTimes) => times.processingTime },
  operationMalfunctionTime: { name: 'malfunctionTime', of: (times: PhaseTimes) => times.interruptionTime },
} as const;
type OperationTimeName = keyof typeof OPERATION_TIMES;
const OPERATION_TIME_NAMES = Object.keys(OPERATION_TIMES) as OperationTimeName[];

export function registerOperationDetails(api: Api, { db, clock }: ServerDeps): void {
  const now = () => clock?.now() ?? new Date();
  /** `embed=operation`: the operation the elements belong to, as GET /operations/{id} shows it. */
  const withOperation: ElementEmbeds = {
    names: ['operation'],
    load: async (id, _embed, request) => {
      const operation = await getOperation(db, id);
      return { operation: presentOperation(operation, await operationViewOf(db, request, [operation])) };
    },
  };

  registerElementsRoute(api, {
    tags,
    path: below('components'),
    operationId: 'getOperationComponents',
    summary: 'The components (materials) the operation consumes, as its create or replace stored them',
    element: Type.Object({
      material: Type.Object({
        number: Type.String(),
        description: Nullable(Type.String()),
        type: Type.Null(),
      }),
      quantity: Nullable(Type.Number()),
      quantityUnit: Nullable(Type.String()),
    }),
    load: async (id, _filters, page) => pageOf((await getOperation(db, id)).components, page),
    present: (component) => ({
      material: { number: component.materialNumber, description: component.description, type: null },
      quantity: component.quantity,
      quantityUnit: component.quantityUnit,
    }),
    links: operationLink,
    embeds: withOperation,
  });

  registerElementsRoute(api, {
    tags,
    path: below('materialCharacteristics'),
    operationId: 'getOperationMaterialCharacteristics',
    summary: 'The characteristics of the material the operation makes, as stored',
    element: Type.Object({
      name: Type.String(),
      identifier: Nullable(Type.String()),
      value: Nullable(Type.String()),
      unit: Nullable(Type.String()),
    }),
    load: async (id, _filters, page) => pageOf((await getOperation(db, id)).materialCharacteristics, page),
    present: (characteristic) => characteristic,
    links: operationLink,
    embeds: withOperation,
  });

  registerElementsRoute(api, {
    tags,
    path: below('userFields'),
    operationId: 'getOperationUserFields',
    summary: 'The user fields of the operation, by position, as stored',
    element: Type.Object({ value: Nullable(Type.String()), position: Type.Integer() }),
    load: async (id, _filters, page) => {
      const fields = [...(await getOperation(db, id)).userFields].sort((a, b) => a.position - b.position);
      return pageOf(fields, page);
    },
    present: (field) => ({ value: field.value, position: field.position }),
    links: operationLink,
    embeds: withOperation,
  });

  registerElementsRoute(api, {
    tags,
    path: below('manufacturingVariants'),
    operationId: 'getOperationManufacturingVariants',
    summary:
      'The ways the operation can be made (workplaces, tools, forecast), as its create or replace stored them',
    description: 'A workplace deleted since drops out of its variant.',
    element: Type.Object({
      workplaces: Type.Array(WorkplaceReference),
      tools: Type.Array(ToolDefinitionProperty),
      additionalConditions: Nullable(Type.String()),
      forecast: ForecastProperty,
    }),
    load: async (id, _filters, page) => {
      const { items, total } = pageOf((await getOperation(db, id)).manufacturingVariants, page);
      const ids = [...new Set(items.flatMap((variant) => variant.workplaceIds))];
      const found = new Map((await findWorkplaces(db, ids)).map((workplace) => [workplace.id, workplace]));
      return {
        total,
        items: items.map((variant) => ({
          ...variant,
          workplaces: variant.workplaceIds.flatMap((workplaceId) => {
            const workplace = found.get(workplaceId);
            return workplace ? [workplaceReference(workplace)] : [];
          }),
        })),
      };
    },
    present: (variant) => ({
      workplaces: variant.workplaces,
      tools: variant.tools,
      additionalConditions: variant.additionalConditions,
      forecast: variant.forecast,
    }),
    links: operationLink,
    embeds: withOperation,
  });

  registerElementsRoute(api, {
    tags,
    path: below('requiredTools'),
    operationId: 'getOperationRequiredTools',
    summary: 'The tool definitions the operation requires, as its create or replace stored them',
    element: ToolDefinitionProperty,
    load: async (id, _filters, page) => pageOf((await getOperation(db, id)).requiredTools, page),
    present: (tool) => tool,
    links: operationLink,
    embeds: withOperation,
  });

  registerObjectRoute(api, {
    tags,
    path: below('requiredSkills'),
    operationId: 'getOperationRequiredSkills',
    summary:
      'The skills (and how much of each) the setup and the processing of the operation require, as stored',
    properties: RequiredSkillsProperty,
    load: async (id, _query, request) => {
      const operation = await getOperation(db, id);
      return {
        properties: { ...operation.requiredSkills },
        links: { operation: link(request.hrefs.api(`${OPERATIONS_PATH}/${operation.id}`)) },
      };
    },
  });

  const ToolProperties = Type.Object({
    itemNumber: Nullable(Type.String()),
    type: Nullable(Type.String()),
    group: Nullable(Type.String()),
    number: Type.String(),
    description: Nullable(Type.String()),
    quantity: Nullable(Type.Number()),
    quantityUnit: Nullable(Type.String()),
  });
  registerRoute(api, {
    method: 'GET',
    path: below('productionResourcesAndTools'),
    tags,
    operationId: 'getOperationProductionResourcesAndTools',
    summary: 'The production resources and tools the operation needs, as stored (offset pages)',
    querystring: Type.Object(OffsetQuery, { additionalProperties: false }),
    response: {
      200: Type.Object({
        pagination: OffsetPagination,
        _embedded: Type.Object({
          productionResourcesAndTools: Type.Array(Resource(ToolProperties, 'A production resource or tool')),
        }),
        _links: Type.Record(Type.String(), Type.Unknown()),
      }),
    },
    errors: [404],
    handler: async (request) => {
      const operation = await getOperation(db, request.params.id);
      const asked = offsetPage(request.query);
      const page = pageOf(operation.productionResourcesAndTools, asked);
      const path = `${OPERATIONS_PATH}/${operation.id}/productionResourcesAndTools`;
      const items = page.items.map((tool, index) =>
        resource(
          {
            itemNumber: tool.itemNumber,
            type: tool.type,
            group: tool.group,
            number: tool.identifier,
            description: tool.description,
            quantity: tool.quantity,
            quantityUnit: tool.quantityUnit,
          },
          {
            self: link(request.hrefs.api(path, { limit: 1, offset: asked.offset + index })),
            tool: tool.toolId ? link(request.hrefs.api(`/tools/${tool.toolId}`)) : undefined,
          },
        ),
      );
      const collection = offsetCollection(
        { hrefs: request.hrefs, path, name: 'productionResourcesAndTools', query: {} },
        items,
        page,
        asked,
      );
      const { current: _same, ...links } = collection._links;
      return {
        ...collection,
        pagination: { ...collection.pagination, firstIdentifier: null, lastIdentifier: null },
        _links: links,
      };
    },
  });

  registerObjectRoute(api, {
    tags,
    path: below('scheduledDates'),
    operationId: 'getOperationScheduledDates',
    summary: 'The dates of lead-time scheduling, as stored (null where none were sent)',
    properties: ScheduledDatesProperties,
    load: async (id) => ({
      properties: scheduledDatesProperties((await getOperation(db, id)).scheduledDates),
    }),
  });

  registerRoute(api, {
    method: 'GET',
    path: below('alternativeWorkplaces'),
    tags,
    operationId: 'getAlternativeWorkplaces',
    summary: 'The workplaces the operation may run at instead of its planned one, as stored',
    response: {
      200: Type.Object({
        _embedded: Type.Object({
          alternativeWorkplaces: Type.Array(Resource(WorkplaceReference, 'An alternative workplace')),
        }),
        _links: Type.Record(Type.String(), Type.Unknown()),
      }),
    },
    errors: [404],
    handler: async (request) => {
      const operation = await getOperation(db, request.params.id);
      const found = new Map(
        (await findWorkplaces(db, operation.alternativeWorkplaceIds)).map((workplace) => [
          workplace.id,
          workplace,
        ]),
      );
      // In the order stored; a workplace deleted since drops out.
      const workplaces = operation.alternativeWorkplaceIds.flatMap((id) => found.get(id) ?? []);
      return {
        _embedded: {
          alternativeWorkplaces: workplaces.map((workplace) =>
            resource(workplaceReference(workplace), {
              self: link(request.hrefs.api(`${WORKPLACES_PATH}/${workplace.id}`)),
            }),
          ),
        },
        _links: {
          self: link(request.hrefs.api(`${OPERATIONS_PATH}/${operation.id}/alternativeWorkplaces`)),
          operation: link(request.hrefs.api(`${OPERATIONS_PATH}/${operation.id}`)),
        },
      };
    },
  });

  registerObjectRoute(api, {
    tags,
    path: below('currentProductionData'),
    operationId: 'getCurrentProductionData',
    summary: "The operation's phase, workplace and times so far, from its phase history",
    description:
      'operationTimes: the time spent in SETUP (setupTime), PROCESSING (productionTime) and INTERRUPTED ' +
      '(malfunctionTime), an open phase counted until now; additionalOperationTime names the ones wanted ' +
      '(default: all three). strokes: null, as machine strokes are not booked on operations.',
    query: {
      additionalOperationTime: Type.Optional(
        Type.Array(Type.Enum(OPERATION_TIME_NAMES), { maxItems: OPERATION_TIME_NAMES.length }),
      ),
    },
    properties: Type.Object({
      workplace: Nullable(WorkplaceReference),
      strokes: Type.Null(),
      operationTimes: Type.Array(Type.Object({ name: Type.String(), duration: Type.Integer() })),
      operationPhaseId: Type.Enum([...OPERATION_PHASE_IDS]),
    }),
    load: async (id, query, request) => {
      const operation = await getOperation(db, id);
      const [records, workplaces] = await Promise.all([
        phaseHistoryOfOperation(db, operation.id),
        findWorkplaces(db, operation.workplaceId ? [operation.workplaceId] : []),
      ]);
      const times = phaseTimes(records, now());
      const names = [...new Set(query.additionalOperationTime ?? OPERATION_TIME_NAMES)];
      return {
        properties: {
          workplace: workplaces[0] ? workplaceReference(workplaces[0]) : null,
          strokes: null,
          operationTimes: names.map((name) => ({
            name: OPERATION_TIMES[name].name,
            duration: OPERATION_TIMES[name].of(times),
          })),
          operationPhaseId: operation.operationPhaseId,
        },
        links: { operation: link(request.hrefs.api(`${OPERATIONS_PATH}/${operation.id}`)) },
      };
    },
  });
}
