// Planning scenarios of operations and staff members and predicted malfunction scenarios of
// workplaces: created (POST, 201) and read (offset-mode collections, newest first); never changed.

import { Type } from 'typebox';
import type { OffsetRequest } from '../../db/paging.ts';
import * as repository from '../../db/repositories/planningScenarioRepository.ts';
import {
  imminentMalfunctionsOf,
  type PlanningScenario,
  type PredictedMalfunctionScenario,
  type ScenarioKind,
} from '../../domain/planning.ts';
import * as service from '../../services/planningScenarioService.ts';
import type { Api } from '../api.ts';
import type { ServerDeps } from '../deps.ts';
import { type CollectionContext, type Resource as HalResource, offsetCollection } from '../hal.ts';
import {
  MALFUNCTION_SCENARIOS_PATH,
  OPERATION_PLANNING_SCENARIOS_PATH,
  STAFF_MEMBER_PLANNING_SCENARIOS_PATH,
} from '../paths.ts';
import { presentMalfunctionScenario, presentPlanningScenario } from '../presenters/planningPresenter.ts';
import { each, resourceRoutes } from '../resourceRoutes.ts';
import { registerRoute } from '../route.ts';
import { OffsetQuery, offsetPage, PeriodFilters, periodOf } from '../schemas/common.ts';
import {
  MalfunctionBody,
  MalfunctionSchema,
  PagedMalfunctionSchema,
  PagedScenarioSchema,
  PlanningScenarioBody,
  PlanningScenarioSchema,
  type ResultBody,
  toElement,
} from '../schemas/planningSchemas.ts';

/**
 * A single read as a page of its elements: the representation (showing the page's elements) with
 * the page's counts and paging links; its self link is the page's.
 */
function pagedElements(
  presented: HalResource,
  context: CollectionContext,
  shown: number,
  total: number,
  asked: OffsetRequest,
) {
  // The page's links and counts follow from how many elements it shows (its embedded list is dropped).
  const counted = Array.from({ length: shown }, () => presented);
  const page = offsetCollection(context, counted, { items: counted, total }, asked);
  const { self: _self, ...paging } = page._links;
  return {
    properties: presented.properties,
    pagination: page.pagination,
    _links: { ...presented._links, ...paging, self: page._links.self },
  };
}

interface ScenarioRoutes {
  kind: ScenarioKind;
  path: string;
  /** The embedded collection name and the rel of its create link, `planningScenarios` for both (as the SDK reads them). */
  name: string;
  /** What the operationIds name, which the shared embedded name cannot tell apart. */
  one: string;
  list: 'assignments' | 'elements';
  ownerField: 'operationId' | 'staffMemberId';
  event: string;
}

const ROUTES: ScenarioRoutes[] = [
  {
    kind: 'OPERATION',
    path: OPERATION_PLANNING_SCENARIOS_PATH,
    name: 'planningScenarios',
    one: 'OperationPlanningScenario',
    list: 'assignments',
    ownerField: 'operationId',
    event: 'OPERATION_PLANNING_SCENARIO_CREATED',
  },
  {
    kind: 'STAFF_MEMBER',
    path: STAFF_MEMBER_PLANNING_SCENARIOS_PATH,
    name: 'planningScenarios',
    one: 'StaffMemberPlanningScenario',
    list: 'elements',
    ownerField: 'staffMemberId',
    event: 'STAFF_MEMBER_PLANNING_SCENARIO_CREATED',
  },
];

export function registerPlanningScenarios(api: Api, { db }: ServerDeps): void {
  for (const { kind, path, name, one, list, ownerField, event } of ROUTES) {
    const scenarios = resourceRoutes(api, {
      path,
      name,
      schema: PlanningScenarioSchema(ownerField),
      // Each scenario's figures read what its elements plan (production orders, shifts).
      presentPage: (items: PlanningScenario[], request) =>
        Promise.all(
          items.map(async (scenario) =>
            presentPlanningScenario(
              scenario,
              await service.scenarioFigures(db, scenario),
              request.hrefs,
              await service.workplaceShiftsOf(db, scenario),
            ),
          ),
        ),
    });
    scenarios.list({
      summary: `List the ${kind === 'OPERATION' ? 'operation' : 'staff member'} ${name}, newest first`,
      operationId: `list${one}s`,
      description: 'startDate/endDate: only the scenarios created in the period.',
      filters: PeriodFilters,
      load: (filter, page) => repository.listPlanningScenarios(db, kind, periodOf(filter), page),
    });
    // One scenario is a page of its elements (`limit`, `offset`; `startDate`/`endDate`: those
    // overlapping the period), as the real API answers it; its figures cover all of them.
    registerRoute(api, {
      method: 'GET',
      path: `${path}/:id`,
      tags: [path.split('/')[1] as string],
      summary: `One ${kind === 'OPERATION' ? 'operation' : 'staff member'} planning scenario, its elements paged`,
      operationId: `get${one}`,
      querystring: Type.Object({ ...OffsetQuery, ...PeriodFilters }, { additionalProperties: false }),
      response: { 200: PagedScenarioSchema(ownerField) },
      errors: [404],
      handler: async (request) => {
        const id = (request.params as { id: string }).id;
        const scenario = await service.getPlanningScenario(db, kind, id);
        const figures = await service.scenarioFigures(db, scenario);
        const query = request.query as {
          limit?: number;
          offset?: number;
          startDate?: string;
          endDate?: string;
        };
        const asked = offsetPage(query);
        const period = periodOf(query);
        const matching = scenario.elements.filter(
          (element) =>
            (period.startDate === undefined || element.endDate >= period.startDate) &&
            (period.endDate === undefined || element.startDate <= period.endDate),
        );
        const shown = matching.slice(asked.offset, asked.offset + asked.limit);
        const presented = presentPlanningScenario(
          { ...scenario, elements: shown },
          figures,
          request.hrefs,
          await service.workplaceShiftsOf(db, { ...scenario, elements: shown }),
        );
        const kept = { startDate: query.startDate, endDate: query.endDate };
        const context = { hrefs: request.hrefs, path: `${path}/${scenario.id}`, name: list, query: kept };
        return pagedElements(presented, context, shown.length, matching.length, asked);
      },
    });
    scenarios.create({
      summary: `Create a planning scenario (emits ${event})`,
      operationId: `create${one}`,
      body: PlanningScenarioBody(list, ownerField),
      run: (sent, at) => {
        const body = sent as { name?: string | null; description?: string | null } & Record<string, unknown>;
        const elements = (body[list] as ResultBody[]).map((element) => toElement(ownerField, element));
        return service.createPlanningScenario(db, kind, {
          name: body.name ?? null,
          description: body.description ?? null,
          elements,
          creator: at.request.client?.clientId ?? null,
        });
      },
    });
  }

  const malfunctions = resourceRoutes(api, {
    path: MALFUNCTION_SCENARIOS_PATH,
    schema: MalfunctionSchema,
    presentPage: each((scenario: PredictedMalfunctionScenario, request) =>
      presentMalfunctionScenario(scenario, request.hrefs, request.locale),
    ),
  });
  malfunctions.list({
    summary: 'List predicted malfunction scenarios, newest first',
    description: 'startDate/endDate: only the predictions whose period overlaps the period asked for.',
    filters: {
      workplaceId: Type.Optional(Type.String({ format: 'uuid', maxLength: 36 })),
      ...PeriodFilters,
    },
    load: ({ workplaceId, ...period }, page) =>
      repository.listMalfunctionScenarios(db, { workplaceId, ...periodOf(period) }, page),
    // The rel FORCAM's SDK reads.
    createRel: 'createMalfunctionScenario',
  });
  // One scenario is a page of its imminent malfunctions (`limit`, `offset`), as the real API
  // answers it (docs/decisions/0020-malfunction-scenario-elements.md).
  registerRoute(api, {
    method: 'GET',
    path: `${MALFUNCTION_SCENARIOS_PATH}/:id`,
    tags: ['workplaces'],
    summary: 'One predicted malfunction scenario, its imminent malfunctions paged',
    operationId: 'getPredictedMalfunctionScenario',
    querystring: Type.Object(OffsetQuery, { additionalProperties: false }),
    response: { 200: PagedMalfunctionSchema },
    errors: [404],
    handler: async (request) => {
      const scenario = await service.getMalfunctionScenario(db, (request.params as { id: string }).id);
      const asked = offsetPage(request.query as { limit?: number; offset?: number });
      const elements = imminentMalfunctionsOf(scenario);
      const shown = elements.slice(asked.offset, asked.offset + asked.limit);
      const presented = presentMalfunctionScenario(scenario, request.hrefs, request.locale, shown);
      const context = {
        hrefs: request.hrefs,
        path: `${MALFUNCTION_SCENARIOS_PATH}/${scenario.id}`,
        name: 'elements',
        query: {},
      };
      return pagedElements(presented, context, shown.length, elements.length, asked);
    },
  });
  malfunctions.create({
    summary: 'Create a predicted malfunction scenario (emits PREDICTED_MALFUNCTION_SCENARIO_CREATED)',
    body: MalfunctionBody,
    run: (body, at) =>
      service.createMalfunctionScenario(
        db,
        {
          workplaceId: body.workplaceId,
          startDate: new Date(body.startDate),
          endDate: new Date(body.endDate),
          probability: body.probability,
          operatingStateId: body.operatingStateId ?? null,
          description: body.description ?? null,
        },
        at.request.client?.clientId ?? null,
      ),
  });
}
