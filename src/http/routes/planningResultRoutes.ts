// Forecast and planning results (docs/resources/planning.md): one per operation (forecast, planning) or staff
// member (planning), read, deleted, replaced (operation results: PUT) and bulk updated. The static bulk
// paths (`/operations/forecastResults/update`) win over `/operations/:id/:operationPhaseId`.
import { Type } from 'typebox';
import * as resultRepository from '../../db/repositories/planningResultRepository.ts';
import {
  FORECAST_RESULTS,
  OPERATION_PLANNING_RESULTS,
  type Result,
  type ResultKind,
  STAFF_MEMBER_PLANNING_RESULTS,
  summarizeStaffScenario,
} from '../../domain/planning.ts';
import * as service from '../../services/planningResultService.ts';
import type { Api } from '../api.ts';
import { canWrite } from '../auth.ts';
import type { ServerDeps } from '../deps.ts';
import { type Resource as HalResource, link, startPosition } from '../hal.ts';
import { OPERATIONS_PATH, STAFF_MEMBERS_PATH } from '../paths.ts';
import {
  presentBulkOutcome,
  presentResult,
  presentShiftResult,
  presentSummary,
  resultPath,
} from '../presenters/planningPresenter.ts';
import { checkEchoed, echoingBody, readOnlyNames } from '../readOnly.ts';
import { resourceRoutes } from '../resourceRoutes.ts';
import { registerRoute } from '../route.ts';
import { PeriodFilters, periodOf, Resource } from '../schemas/common.ts';
import {
  BulkOutcomeSchema,
  ElementBody,
  MAX_ELEMENTS,
  type ResultBody,
  ResultProperties,
  ResultSummarySchema,
  resultFields,
  type ShiftAssignmentBody,
  ShiftResultBody,
  ShiftResultSchema,
  StaffResultsSummarySchema,
  toElement,
  toResultInput,
  toShiftAssignment,
} from '../schemas/planningSchemas.ts';
import { singletonRoutes } from '../singletonRoutes.ts';

interface ResultRoutes {
  kind: ResultKind;
  /** Collection path of the owner, e.g. `/operations`. */
  owners: string;
  /** Name of the body's array, e.g. `forecastResults`. */
  list: string;
  title: string;
  tags: string[];
}

const ROUTES: ResultRoutes[] = [
  {
    kind: FORECAST_RESULTS,
    owners: OPERATIONS_PATH,
    list: 'forecastResults',
    title: 'forecast result',
    tags: ['operations'],
  },
  {
    kind: OPERATION_PLANNING_RESULTS,
    owners: OPERATIONS_PATH,
    list: 'assignments',
    title: 'planning result',
    tags: ['operations'],
  },
  {
    kind: STAFF_MEMBER_PLANNING_RESULTS,
    owners: STAFF_MEMBERS_PATH,
    list: 'elements',
    title: 'staff member planning result (dispatching to a workplace)',
    tags: ['staffMembers'],
  },
];

/**
 * An operation's result with the writes a writer may make on it, under the real API's names:
 * replaced (PUT) and deleted.
 */
function withWriteLinks(kind: ResultKind, presented: HalResource): HalResource {
  // A staff member's result is written in bulk only, and the SDK names no links on it.
  if (kind.ownerField !== 'operationId') return presented;
  const href = presented._links.self?.href as string;
  const name = kind.resource.charAt(0).toUpperCase() + kind.resource.slice(1);
  presented._links[`update${name}`] = link(href, { method: 'PUT' });
  presented._links[`delete${name}`] = link(href, { method: 'DELETE' });
  return presented;
}

export function registerPlanning(api: Api, { db }: ServerDeps): void {
  for (const { kind, owners, list, title, tags } of ROUTES) {
    const schema = Resource(ResultProperties(kind.ownerField), title);
    const events = `${kind.eventPrefix}_CREATED/_UPDATED/_DELETED`;
    const bulkPath = `${owners}/${kind.resource}s/update`;

    const result = singletonRoutes(api, {
      tags,
      path: `${owners}/:id/${kind.resource}`,
      schema,
      present: (item: Result, request) => {
        const presented = presentResult(kind, item, request.hrefs);
        return canWrite(request) ? withWriteLinks(kind, presented) : presented;
      },
    });
    result.get({ summary: `The ${title}`, load: (id) => service.getResult(db, kind, id) });
    result.remove({
      summary: `Delete the ${title} (emits ${kind.eventPrefix}_DELETED)`,
      run: (id) => service.deleteResult(db, kind, id),
    });

    registerRoute(api, {
      method: 'POST',
      path: bulkPath,
      tags,
      summary: `Create or replace many ${title}s in one transaction (emits ${events})`,
      description:
        'All or nothing: one invalid element is a 400 naming its index and nothing is applied. ' +
        'Each element is applied exactly as a single replacement would be.',
      body: Type.Object(
        { [list]: Type.Array(ElementBody(kind.ownerField), { maxItems: MAX_ELEMENTS }) },
        { additionalProperties: false },
      ),
      response: { 200: BulkOutcomeSchema },
      errors: [415],
      handler: async (request) => {
        const body = request.body as Record<string, ResultBody[]>;
        const elements = (body[list] ?? []).map((element) => toElement(kind.ownerField, element));
        const outcome = await service.updateResults(db, kind, list, elements);
        return presentBulkOutcome(kind, bulkPath, outcome, request.hrefs);
      },
    });
  }

  // Every operation's result of a kind, for planning boards that read the whole plan.
  for (const kind of [FORECAST_RESULTS, OPERATION_PLANNING_RESULTS]) {
    const title = kind === FORECAST_RESULTS ? 'forecast result' : 'planning result';
    const results = resourceRoutes(api, {
      path: `${OPERATIONS_PATH}/${kind.resource}s`,
      schema: Resource(ResultProperties(kind.ownerField), title),
      present: (item: Result, hrefs, writable) => {
        const presented = presentResult(kind, item, hrefs);
        return writable ? withWriteLinks(kind, presented) : presented;
      },
    });
    results.list({
      summary: `The ${title}s of all operations, by start (offset pages)`,
      description: 'startDate/endDate: only the results overlapping the period.',
      operationId:
        kind === FORECAST_RESULTS ? 'getOperationsForecastResults' : 'getOperationsPlanningResults',
      filters: PeriodFilters,
      load: (filter, page) => resultRepository.listResults(db, kind, periodOf(filter), page),
      elements: {
        schema: ResultSummarySchema,
        of: async (_items, _request, filter) =>
          presentSummary(await service.summarizeOperationResults(db, kind, periodOf(filter))),
      },
    });
  }

  // Every staff member's planning result, in the real API's form: the page's results as
  // `elements` beside the figures of the whole period.
  const staffResults = resourceRoutes(api, {
    path: `${STAFF_MEMBERS_PATH}/planningResults`,
    schema: Resource(ResultProperties('staffMemberId'), 'staff member planning result'),
    present: (item: Result, hrefs) => presentResult(STAFF_MEMBER_PLANNING_RESULTS, item, hrefs),
  });
  staffResults.list({
    summary: 'The planning results of all staff members, by start (offset pages)',
    description: 'startDate/endDate: only the results overlapping the period, which the figures cover.',
    operationId: 'getStaffMembersPlanningResults',
    filters: PeriodFilters,
    createRel: 'createPlanningResult',
    createPath: `${STAFF_MEMBERS_PATH}/planningResults/update`,
    load: (filter, page) =>
      resultRepository.listResults(db, STAFF_MEMBER_PLANNING_RESULTS, periodOf(filter), page),
    elements: {
      schema: StaffResultsSummarySchema,
      of: async (items, _request, filter) => {
        const period = periodOf(filter);
        const all = await resultRepository.resultsOverlapping(db, STAFF_MEMBER_PLANNING_RESULTS, period);
        const figures = summarizeStaffScenario(all, period);
        const elements = [];
        for (const item of items) {
          elements.push({
            staffMemberId: item.ownerId,
            staffMemberShiftId: null,
            workplaceId: item.workplaceId,
            skillId: null,
            workplaceShiftId: await resultRepository.shiftAt(db, item.workplaceId, item.startDate),
            startDate: item.startDate.toISOString(),
            endDate: item.endDate.toISOString(),
            capacity: null,
            fixed: item.fixed,
          });
        }
        return { ...presentSummary(figures), elements };
      },
    },
  });

  registerShiftResults(api, db);

  // The operationId a GET shows may come back unchanged (docs/api.md, "Errors").
  const resultBody = Type.Object(resultFields, { additionalProperties: false });
  const resultReadOnly = readOnlyNames(resultBody, ResultProperties('operationId').properties);
  for (const kind of [FORECAST_RESULTS, OPERATION_PLANNING_RESULTS]) {
    const title = kind === FORECAST_RESULTS ? 'forecast result' : 'planning result';
    const obsoletes = kind === FORECAST_RESULTS ? '' : ', OBSOLETE_OPERATION_PLANNING_SCENARIOS';
    registerRoute(api, {
      method: 'PUT',
      path: `${OPERATIONS_PATH}/:id/${kind.resource}`,
      tags: ['operations'],
      summary: `Create or replace the ${title} (emits ${kind.eventPrefix}_CREATED/_UPDATED${obsoletes})`,
      body: echoingBody(resultBody, resultReadOnly),
      response: {
        200: Resource(ResultProperties('operationId'), title),
        201: Resource(ResultProperties('operationId'), title),
      },
      errors: [404, 415],
      handler: async (request, reply) => {
        await checkEchoed(request.body as Record<string, unknown>, resultReadOnly, [], async () => ({
          operationId: request.params.id,
        }));
        const { result, change } = await service.replaceOperationResult(
          db,
          kind,
          request.params.id,
          toResultInput(request.body),
        );
        const representation = withWriteLinks(kind, presentResult(kind, result, request.hrefs));
        if (change !== 'CREATED') return representation;
        const location = request.hrefs.api(resultPath(kind, result.ownerId));
        return reply.code(201).header('location', location).send(representation);
      },
    });
  }
}

/**
 * A staff member's planning result per shift, as the SDK reads the dispatching: the part of their
 * one stored planning result in each of their shifts (docs/resources/planning.md).
 */
function registerShiftResults(api: Api, db: ServerDeps['db']): void {
  const tags = ['staffMembers'];
  const shiftResults = resourceRoutes(api, {
    path: `${STAFF_MEMBERS_PATH}/:id/planningResults`,
    schema: ShiftResultSchema,
    present: presentShiftResult,
  });
  shiftResults.list({
    summary: "The staff member's planning result per shift, latest start first (timestamp pagination)",
    description:
      'One per shift of the staff member that their planning result shares time with; startDate/endDate: ' +
      'only the shifts overlapping the period.',
    operationId: 'getStaffMemberPlanningResults',
    position: startPosition,
    filters: PeriodFilters,
    links: (request) => ({
      staffMember: link(request.hrefs.api(`${STAFF_MEMBERS_PATH}/${(request.params as { id: string }).id}`), {
        embeddable: true,
      }),
    }),
    load: (filter, page, at) => service.listShiftResults(db, at.id, periodOf(filter), page),
  });

  const path = `${STAFF_MEMBERS_PATH}/:id/shifts/:shiftId/planningResult`;
  const idsOf = (request: { params: unknown }) => request.params as { id: string; shiftId: string };
  registerRoute(api, {
    method: 'GET',
    path,
    tags,
    summary: "The staff member's planning result of one of their shifts",
    description: 'No element when their planning result does not share time with the shift.',
    operationId: 'getStaffMemberShiftPlanningResult',
    response: { 200: ShiftResultSchema },
    errors: [404],
    handler: async (request) => {
      const { id, shiftId } = idsOf(request);
      return presentShiftResult(
        await service.getShiftResult(db, id, shiftId),
        request.hrefs,
        canWrite(request),
      );
    },
  });
  registerRoute(api, {
    method: 'PUT',
    path,
    tags,
    summary:
      "Set the shift's assignment as the staff member's planning result (emits STAFF_MEMBER_PLANNING_RESULT_CREATED/_UPDATED/_DELETED)",
    description:
      'The element must lie inside the shift and replaces the whole planning result, which may have ' +
      'spanned other shifts; no element deletes the planning result if it shares time with the shift. ' +
      'The GET answer may come back: staffMemberShiftId and workplaceShiftId as the service derives them, ' +
      'skillId and capacity null.',
    operationId: 'saveStaffMemberShiftPlanningResult',
    body: ShiftResultBody,
    response: { 200: ShiftResultSchema },
    errors: [404, 415],
    handler: async (request) => {
      const { id, shiftId } = idsOf(request);
      const [element] = (request.body as { elements: ShiftAssignmentBody[] }).elements;
      const result = await service.replaceShiftResult(db, id, shiftId, element && toShiftAssignment(element));
      return presentShiftResult(result, request.hrefs, true);
    },
  });
  registerRoute(api, {
    method: 'DELETE',
    path,
    tags,
    summary:
      "Delete the staff member's planning result that shares time with the shift (emits STAFF_MEMBER_PLANNING_RESULT_DELETED)",
    description:
      'The planning result goes from every shift it spans; 404 when it shares no time with this one.',
    operationId: 'deleteStaffMemberShiftPlanningResult',
    response: { 204: Type.Null() },
    errors: [404],
    handler: async (request, reply) => {
      const { id, shiftId } = idsOf(request);
      await service.deleteShiftResult(db, id, shiftId);
      return reply.code(204).send();
    },
  });
}
