// Planning scenarios of operations and staff members and predicted malfunction scenarios of
// workplaces: created (POST, 201) and read (offset-mode collections, newest first); never changed.

import { Type } from 'typebox';
import * as repository from '../../db/repositories/planningScenarioRepository.ts';
import type { PlanningScenario, PredictedMalfunctionScenario, ScenarioKind } from '../../domain/planning.ts';
import * as service from '../../services/planningScenarioService.ts';
import type { Api } from '../api.ts';
import type { ServerDeps } from '../deps.ts';
import {
  MALFUNCTION_SCENARIOS_PATH,
  OPERATION_PLANNING_SCENARIOS_PATH,
  STAFF_MEMBER_PLANNING_SCENARIOS_PATH,
} from '../paths.ts';
import { presentMalfunctionScenario, presentPlanningScenario } from '../presenters/planningPresenter.ts';
import { each, resourceRoutes } from '../resourceRoutes.ts';
import { PeriodFilters, periodOf } from '../schemas/common.ts';
import {
  MalfunctionBody,
  MalfunctionSchema,
  PlanningScenarioBody,
  PlanningScenarioSchema,
  type ResultBody,
  toElement,
} from '../schemas/planningSchemas.ts';

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
            presentPlanningScenario(scenario, await service.scenarioFigures(db, scenario), request.hrefs),
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
    scenarios.get({
      summary: `One ${kind === 'OPERATION' ? 'operation' : 'staff member'} planning scenario`,
      operationId: `get${one}`,
      load: (at) => service.getPlanningScenario(db, kind, at.id),
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
  malfunctions.get({
    summary: 'One predicted malfunction scenario',
    load: (at) => service.getMalfunctionScenario(db, at.id),
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
