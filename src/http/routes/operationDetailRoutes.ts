// The sub-resources of an operation that show what its create or replace stored (components,
// production resources and tools, scheduled dates, alternative workplaces, material
// characteristics, user fields) and what its phase history gives (current production data):
// docs/resources/production-orders.md, "Sub-resources".
import type { FastifyRequest } from 'fastify';
import { type TSchema, Type } from 'typebox';
import type { Queryable } from '../../db/database.ts';
import type { OffsetRequest } from '../../db/paging.ts';
import { findLiterals } from '../../db/repositories/masterDataRepository.ts';
import { phaseHistoryOfOperation } from '../../db/repositories/operationRepository.ts';
import { findWorkplaces } from '../../db/repositories/workplaceRepository.ts';
import { OPERATION_PHASE_IDS } from '../../domain/operationPhases.ts';
import {
  type Component,
  type ManufacturingVariant,
  type Operation,
  type PhaseTimes,
  phaseTimes,
  type UserField,
} from '../../domain/operations.ts';
import { getOperation } from '../../services/operationService.ts';
import type { Api } from '../api.ts';
import type { ServerDeps } from '../deps.ts';
import {
  type ElementEmbeds,
  elementsAnswer,
  OffsetPagination,
  pageOf,
  registerElementsRoute,
  registerObjectRoute,
} from '../elementRoutes.ts';
import { embedQuery, parseEmbed } from '../embed.ts';
import { link, offsetCollection, resource } from '../hal.ts';
import { operationViewOf } from '../operationViews.ts';
import { LITERALS_PATH, OPERATIONS_PATH, WORKPLACES_PATH } from '../paths.ts';
import { presentLiteral } from '../presenters/masterDataPresenter.ts';
import {
  type OPERATION_PART_EMBEDS,
  presentOperation,
  scheduledDatesProperties,
  workplaceReference,
} from '../presenters/operationPresenter.ts';
import { productionResourceLiteralId } from '../presenters/texts.ts';
import { registerRoute } from '../route.ts';
import { EmbedQuery, Nullable, OffsetQuery, offsetPage, Resource } from '../schemas/common.ts';
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

/** A sub-resource of an operation in the SDK's element form, read from the stored operation. */
interface ElementPart<Item> {
  name: (typeof OPERATION_PART_EMBEDS)[number];
  operationId: string;
  summary: string;
  description?: string;
  element: TSchema;
  /** The operation's elements in page order. */
  items: (db: Queryable, operation: Operation) => readonly Item[] | Promise<readonly Item[]>;
  present: (item: Item) => unknown;
}
const elementPart = <Item>(part: ElementPart<Item>) => part as ElementPart<unknown>;

/** The variants with their workplaces as references; a workplace deleted since drops out. */
async function variantsWithWorkplaces(db: Queryable, variants: readonly ManufacturingVariant[]) {
  const ids = [...new Set(variants.flatMap((variant) => variant.workplaceIds))];
  const found = new Map((await findWorkplaces(db, ids)).map((workplace) => [workplace.id, workplace]));
  return variants.map((variant) => ({
    workplaces: variant.workplaceIds.flatMap((workplaceId) => {
      const workplace = found.get(workplaceId);
      return workplace ? [workplaceReference(workplace)] : [];
    }),
    tools: variant.tools,
    additionalConditions: variant.additionalConditions,
    forecast: variant.forecast,
  }));
}

const ELEMENT_PARTS = [
  elementPart({
    name: 'components',
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
    items: (_db, operation) => operation.components,
    present: (component: Component) => ({
      material: { number: component.materialNumber, description: component.description, type: null },
      quantity: component.quantity,
      quantityUnit: component.quantityUnit,
    }),
  }),
  elementPart({
    name: 'materialCharacteristics',
    operationId: 'getOperationMaterialCharacteristics',
    summary: 'The characteristics of the material the operation makes, as stored',
    element: Type.Object({
      name: Type.String(),
      identifier: Nullable(Type.String()),
      value: Nullable(Type.String()),
      unit: Nullable(Type.String()),
    }),
    items: (_db, operation) => operation.materialCharacteristics,
    present: (characteristic) => characteristic,
  }),
  elementPart({
    name: 'userFields',
    operationId: 'getOperationUserFields',
    summary: 'The user fields of the operation, by position, as stored',
    element: Type.Object({ value: Nullable(Type.String()), position: Type.Integer() }),
    items: (_db, operation) => [...operation.userFields].sort((a, b) => a.position - b.position),
    present: (field: UserField) => ({ value: field.value, position: field.position }),
  }),
  elementPart({
    name: 'manufacturingVariants',
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
    items: (db, operation) => variantsWithWorkplaces(db, operation.manufacturingVariants),
    present: (variant) => variant,
  }),
  elementPart({
    name: 'requiredTools',
    operationId: 'getOperationRequiredTools',
    summary: 'The tool definitions the operation requires, as its create or replace stored them',
    element: ToolDefinitionProperty,
    items: (_db, operation) => operation.requiredTools,
    present: (tool) => tool,
  }),
];

/**
 * The production resources and tools of an operation, a page as its GET answers it; each
 * description links its literal (migration 160), embedded when `embed` names `description`.
 */
async function productionResourcesAnswer(
  db: Queryable,
  operation: Operation,
  request: FastifyRequest,
  asked: OffsetRequest,
  embed: ReadonlySet<'description'> = new Set(),
) {
  const page = pageOf(operation.productionResourcesAndTools, asked);
  const path = `${OPERATIONS_PATH}/${operation.id}/productionResourcesAndTools`;
  const literalIds = page.items.map((tool, index) =>
    tool.description === null ? null : productionResourceLiteralId(operation.id, asked.offset + index + 1),
  );
  const literals = new Map(
    embed.has('description')
      ? (
          await findLiterals(
            db,
            literalIds.flatMap((id) => id ?? []),
          )
        ).map((literal) => [literal.id, literal])
      : [],
  );
  const items = page.items.map((tool, index) => {
    const literalId = literalIds[index] ?? null;
    const literal = literalId === null ? undefined : literals.get(literalId);
    return resource(
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
        description:
          literalId === null
            ? undefined
            : link(request.hrefs.api(`${LITERALS_PATH}/${literalId}`), { embeddable: true }),
        tool: tool.toolId ? link(request.hrefs.api(`/tools/${tool.toolId}`)) : undefined,
      },
      literal ? { description: presentLiteral(literal, request.hrefs) } : undefined,
    );
  });
  const collection = offsetCollection(
    { hrefs: request.hrefs, path, name: 'productionResourcesAndTools', query: { embed: embedQuery(embed) } },
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
}

/** The alternative workplaces in the order stored; a workplace deleted since drops out. */
async function alternativeWorkplacesAnswer(db: Queryable, operation: Operation, request: FastifyRequest) {
  const found = new Map(
    (await findWorkplaces(db, operation.alternativeWorkplaceIds)).map((workplace) => [
      workplace.id,
      workplace,
    ]),
  );
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
}

const scheduledDatesOf = (operation: Operation) => scheduledDatesProperties(operation.scheduledDates);

/**
 * The sub-resources of an operation that `embed` names, each as its own GET answers it without a
 * query (the first page of a paged one).
 */
export async function embeddedParts(
  db: Queryable,
  request: FastifyRequest,
  operation: Operation,
  embed: ReadonlySet<string>,
): Promise<Record<string, unknown>> {
  const embedded: Record<string, unknown> = {};
  const asked = offsetPage({});
  const path = (name: string) => `${OPERATIONS_PATH}/${operation.id}/${name}`;
  for (const part of ELEMENT_PARTS) {
    if (!embed.has(part.name)) continue;
    const page = pageOf(await part.items(db, operation), asked);
    const answer = elementsAnswer(request, path(part.name), {}, page, asked, part.present);
    embedded[part.name] = {
      ...answer,
      _links: { ...answer._links, ...operationLink(operation.id, request) },
    };
  }
  const self = (name: string) => link(request.hrefs.api(path(name)));
  if (embed.has('requiredSkills')) {
    embedded.requiredSkills = resource(
      { ...operation.requiredSkills },
      { self: self('requiredSkills'), ...operationLink(operation.id, request) },
    );
  }
  if (embed.has('productionResourcesAndTools'))
    embedded.productionResourcesAndTools = await productionResourcesAnswer(db, operation, request, asked);
  if (embed.has('scheduledDates'))
    embedded.scheduledDates = resource(scheduledDatesOf(operation), { self: self('scheduledDates') });
  if (embed.has('alternativeWorkplaces'))
    embedded.alternativeWorkplaces = await alternativeWorkplacesAnswer(db, operation, request);
  return embedded;
}

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

  for (const part of ELEMENT_PARTS) {
    registerElementsRoute(api, {
      tags,
      path: below(part.name),
      operationId: part.operationId,
      summary: part.summary,
      description: part.description,
      element: part.element,
      load: async (id, _filters, page) => pageOf(await part.items(db, await getOperation(db, id)), page),
      present: (item) => part.present(item),
      links: operationLink,
      embeds: withOperation,
    });
  }

  registerObjectRoute(api, {
    tags,
    path: below('requiredSkills'),
    operationId: 'getOperationRequiredSkills',
    summary:
      'The skills (and how much of each) the setup and the processing of the operation require, as stored',
    properties: RequiredSkillsProperty,
    load: async (id, _query, request) => {
      const operation = await getOperation(db, id);
      return { properties: { ...operation.requiredSkills }, links: operationLink(operation.id, request) };
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
    querystring: Type.Object({ ...OffsetQuery, embed: EmbedQuery }, { additionalProperties: false }),
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
      const embed = parseEmbed(request.query.embed, ['description']);
      return productionResourcesAnswer(db, operation, request, offsetPage(request.query), embed);
    },
  });

  registerObjectRoute(api, {
    tags,
    path: below('scheduledDates'),
    operationId: 'getOperationScheduledDates',
    summary: 'The dates of lead-time scheduling, as stored (null where none were sent)',
    properties: ScheduledDatesProperties,
    load: async (id) => ({ properties: scheduledDatesOf(await getOperation(db, id)) }),
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
    handler: async (request) =>
      alternativeWorkplacesAnswer(db, await getOperation(db, request.params.id), request),
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
