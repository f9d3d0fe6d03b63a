// Planning scenarios of operations and staff members and predicted malfunction scenarios of
// workplaces: created (POST, 201) and read (offset-mode collections, newest first); never changed.
import { Type } from 'typebox';
import * as repository from '../../db/repositories/scenarios.ts';
import type { ScenarioKind } from '../../domain/planning.ts';
import * as service from '../../services/scenarios.ts';
import type { Api } from '../api.ts';
import { canWrite } from '../auth.ts';
import type { ServerDeps } from '../deps.ts';
import { offsetCollection } from '../hal.ts';
import {
  MALFUNCTION_SCENARIOS_PATH,
  OPERATION_PLANNING_SCENARIOS_PATH,
  STAFF_MEMBER_PLANNING_SCENARIOS_PATH,
} from '../paths.ts';
import { presentMalfunctionScenario, presentPlanningScenario } from '../presenters/planning.ts';
import {
  errorResponses,
  IdParams,
  Nullable,
  OffsetCollection,
  OffsetQuery,
  OperatingStateProperty,
  offsetPage,
  Resource,
} from '../schemas/common.ts';
import { ElementBody, MAX_ELEMENTS, ResultProperties, toElement } from './planning.ts';

const Uuid = Type.String({ format: 'uuid', maxLength: 36 });
const DateTime = Type.String({ format: 'date-time', maxLength: 64 });
const Text = (maxLength: number) => Type.Optional(Nullable(Type.String({ maxLength })));

interface ScenarioRoutes {
  kind: ScenarioKind;
  path: string;
  /** The embedded collection name and the rel of its create link. */
  name: string;
  createRel: string;
  list: 'assignments' | 'elements';
  ownerField: 'operationId' | 'staffMemberId';
  event: string;
  tags: string[];
}

const ROUTES: ScenarioRoutes[] = [
  {
    kind: 'OPERATION',
    path: OPERATION_PLANNING_SCENARIOS_PATH,
    name: 'operationPlanningScenarios',
    createRel: 'createOperationPlanningScenario',
    list: 'assignments',
    ownerField: 'operationId',
    event: 'OPERATION_PLANNING_SCENARIO_CREATED',
    tags: ['operations'],
  },
  {
    kind: 'STAFF_MEMBER',
    path: STAFF_MEMBER_PLANNING_SCENARIOS_PATH,
    name: 'staffMemberPlanningScenarios',
    createRel: 'createStaffMemberPlanningScenario',
    list: 'elements',
    ownerField: 'staffMemberId',
    event: 'STAFF_MEMBER_PLANNING_SCENARIO_CREATED',
    tags: ['staffMembers'],
  },
];

const MalfunctionSchema = Resource(
  Type.Object({
    id: Type.String({ format: 'uuid' }),
    workplaceId: Type.String({ format: 'uuid' }),
    startDate: Type.String({ format: 'date-time' }),
    endDate: Type.String({ format: 'date-time' }),
    probability: Type.Number(),
    operatingState: Nullable(OperatingStateProperty),
    description: Nullable(Type.String()),
    createdAt: Type.String({ format: 'date-time' }),
    obsoleteSince: Nullable(Type.String({ format: 'date-time' })),
  }),
  'A predicted malfunction of a workplace',
);

const MalfunctionBody = Type.Object(
  {
    workplaceId: Uuid,
    startDate: DateTime,
    endDate: DateTime,
    probability: Type.Number({ minimum: 0, maximum: 1 }),
    operatingStateId: Type.Optional(
      Nullable(Type.String({ maxLength: 100, description: 'A DOWNTIME operating state (id or code)' })),
    ),
    description: Text(2000),
  },
  { additionalProperties: false },
);

export function registerPlanningScenarios(api: Api, { db }: ServerDeps): void {
  for (const { kind, path, name, createRel, list, ownerField, event, tags } of ROUTES) {
    const schema = Resource(
      Type.Object({
        id: Type.String({ format: 'uuid' }),
        name: Nullable(Type.String()),
        description: Nullable(Type.String()),
        [list]: Type.Array(ResultProperties(ownerField)),
        createdAt: Type.String({ format: 'date-time' }),
        ...(kind === 'OPERATION' ? { obsoleteSince: Nullable(Type.String({ format: 'date-time' })) } : {}),
      }),
      `A ${kind === 'OPERATION' ? 'operation' : 'staff member'} planning scenario`,
    );

    api.get(
      path,
      {
        schema: {
          tags,
          summary: `List ${name}, newest first`,
          querystring: Type.Object(OffsetQuery, { additionalProperties: false }),
          response: { 200: OffsetCollection(name, schema), ...errorResponses() },
        },
      },
      async (request) => {
        const page = offsetPage(request.query);
        const found = await repository.listPlanningScenarios(db, kind, page);
        return offsetCollection(
          {
            hrefs: request.hrefs,
            path,
            name,
            query: {},
            create: canWrite(request) ? { rel: createRel, href: request.hrefs.api(path) } : undefined,
          },
          found.items.map((scenario) => presentPlanningScenario(scenario, request.hrefs)),
          found,
          page,
        );
      },
    );

    api.get(
      `${path}/:id`,
      {
        schema: {
          tags,
          summary: `One of the ${name}`,
          params: IdParams,
          response: { 200: schema, ...errorResponses(404) },
        },
      },
      async (request) =>
        presentPlanningScenario(
          await service.getPlanningScenario(db, kind, request.params.id),
          request.hrefs,
        ),
    );

    api.post(
      path,
      {
        schema: {
          tags,
          summary: `Create a planning scenario (emits ${event})`,
          body: Type.Object(
            {
              name: Text(200),
              description: Text(2000),
              [list]: Type.Array(ElementBody(ownerField), { maxItems: MAX_ELEMENTS }),
            },
            { additionalProperties: false },
          ),
          response: { 201: schema, ...errorResponses(415) },
        },
      },
      async (request, reply) => {
        const body = request.body as { name?: string | null; description?: string | null } & Record<
          string,
          unknown
        >;
        const elements = (body[list] as Parameters<typeof toElement>[1][]).map((element) =>
          toElement(ownerField, element),
        );
        const scenario = await service.createPlanningScenario(db, kind, {
          name: body.name ?? null,
          description: body.description ?? null,
          elements,
        });
        const representation = presentPlanningScenario(scenario, request.hrefs);
        return reply.code(201).header('location', representation._links.self?.href).send(representation);
      },
    );
  }

  const tags = ['workplaces'];
  api.get(
    MALFUNCTION_SCENARIOS_PATH,
    {
      schema: {
        tags,
        summary: 'List predicted malfunction scenarios, newest first',
        querystring: Type.Object(
          { ...OffsetQuery, workplaceId: Type.Optional(Uuid) },
          { additionalProperties: false },
        ),
        response: {
          200: OffsetCollection('predictedMalfunctionScenarios', MalfunctionSchema),
          ...errorResponses(),
        },
      },
    },
    async (request) => {
      const page = offsetPage(request.query);
      const { workplaceId } = request.query;
      const found = await repository.listMalfunctionScenarios(db, { workplaceId }, page);
      return offsetCollection(
        {
          hrefs: request.hrefs,
          path: MALFUNCTION_SCENARIOS_PATH,
          name: 'predictedMalfunctionScenarios',
          query: { workplaceId },
          create: canWrite(request)
            ? {
                rel: 'createPredictedMalfunctionScenario',
                href: request.hrefs.api(MALFUNCTION_SCENARIOS_PATH),
              }
            : undefined,
        },
        found.items.map((scenario) => presentMalfunctionScenario(scenario, request.hrefs, request.locale)),
        found,
        page,
      );
    },
  );

  api.get(
    `${MALFUNCTION_SCENARIOS_PATH}/:id`,
    {
      schema: {
        tags,
        summary: 'One predicted malfunction scenario',
        params: IdParams,
        response: { 200: MalfunctionSchema, ...errorResponses(404) },
      },
    },
    async (request) =>
      presentMalfunctionScenario(
        await service.getMalfunctionScenario(db, request.params.id),
        request.hrefs,
        request.locale,
      ),
  );

  api.post(
    MALFUNCTION_SCENARIOS_PATH,
    {
      schema: {
        tags,
        summary: 'Create a predicted malfunction scenario (emits PREDICTED_MALFUNCTION_SCENARIO_CREATED)',
        body: MalfunctionBody,
        response: { 201: MalfunctionSchema, ...errorResponses(415) },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const scenario = await service.createMalfunctionScenario(db, {
        workplaceId: body.workplaceId,
        startDate: new Date(body.startDate),
        endDate: new Date(body.endDate),
        probability: body.probability,
        operatingStateId: body.operatingStateId ?? null,
        description: body.description ?? null,
      });
      const representation = presentMalfunctionScenario(scenario, request.hrefs, request.locale);
      return reply.code(201).header('location', representation._links.self?.href).send(representation);
    },
  );
}
