import { operatingStateById } from '../../domain/masterData.ts';
import {
  type ImminentMalfunction,
  imminentMalfunctionsOf,
  type PlanningScenario,
  type PredictedMalfunctionScenario,
  type Result,
  type ResultElement,
  type ResultKind,
  type ResultSummary,
  type ShiftPlanningResult,
  type StaffScenarioSummary,
} from '../../domain/planning.ts';
import type { Locale } from '../../i18n/locales.ts';
import { type Link, link, type Resource, resource } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';
import {
  MALFUNCTION_SCENARIOS_PATH,
  OPERATING_STATES_PATH,
  OPERATION_PLANNING_SCENARIOS_PATH,
  OPERATIONS_PATH,
  STAFF_MEMBER_PLANNING_SCENARIOS_PATH,
  STAFF_MEMBERS_PATH,
  WORKPLACES_PATH,
} from '../paths.ts';
import { operatingStateProperty } from './masterDataPresenter.ts';
import { iso } from './properties.ts';

// Paths of the owners (their collections belong to other slices; only the prefix is needed here).
const OWNER_PATHS = { operations: OPERATIONS_PATH, staff_members: STAFF_MEMBERS_PATH } as const;

/** The path of an owner's result: `/operations/{id}/forecastResult` and so on. */
export const resultPath = (kind: ResultKind, ownerId: string) =>
  `${OWNER_PATHS[kind.ownerTable]}/${ownerId}/${kind.resource}`;

/** A result's or element's properties as the API shows them. */
function elementProperties(ownerField: string, element: ResultElement) {
  return {
    [ownerField]: element.ownerId,
    workplaceId: element.workplaceId,
    startDate: element.startDate.toISOString(),
    endDate: element.endDate.toISOString(),
    setupStartDate: iso(element.setupStartDate),
    setupEndDate: iso(element.setupEndDate),
    processingStartDate: iso(element.processingStartDate),
    processingEndDate: iso(element.processingEndDate),
    fixed: element.fixed,
  };
}

export function presentResult(kind: ResultKind, result: Result, hrefs: Hrefs): Resource {
  return resource(elementProperties(kind.ownerField, result), {
    self: link(hrefs.api(resultPath(kind, result.ownerId))),
    [kind.ownerResource]: link(hrefs.api(`${OWNER_PATHS[kind.ownerTable]}/${result.ownerId}`)),
    workplace: link(hrefs.api(`${WORKPLACES_PATH}/${result.workplaceId}`)),
  });
}

/** Where a staff member's planning result of one shift is read, replaced and deleted. */
const shiftResultPath = (result: ShiftPlanningResult) =>
  `${STAFF_MEMBERS_PATH}/${result.staffMemberId}/shifts/${result.id}/planningResult`;

/**
 * A staff member's planning result of a shift, in the real API's form: its assignments as
 * `elements`; a skill and a capacity the service does not plan are null.
 */
export function presentShiftResult(result: ShiftPlanningResult, hrefs: Hrefs, writable: boolean): Resource {
  const href = hrefs.api(shiftResultPath(result));
  const presented = resource(
    {
      elements: result.assignments.map((assignment) => ({
        staffMemberId: result.staffMemberId,
        staffMemberShiftId: result.id,
        workplaceId: assignment.workplaceId,
        skillId: null,
        workplaceShiftId: assignment.workplaceShiftId,
        startDate: assignment.startDate.toISOString(),
        endDate: assignment.endDate.toISOString(),
        capacity: null,
        fixed: assignment.fixed,
      })),
    },
    {
      self: link(href),
      staffMemberShift: link(hrefs.api(`${STAFF_MEMBERS_PATH}/shifts/${result.id}`)),
      updateAssignments: writable ? link(href, { method: 'PUT' }) : undefined,
      deleteAssignments: writable ? link(href, { method: 'DELETE' }) : undefined,
    },
  );
  const links = presented._links as Record<string, Link | Link[]>;
  links.workplaces = result.assignments.map((assignment) =>
    link(hrefs.api(`${WORKPLACES_PATH}/${assignment.workplaceId}`), { embeddable: true }),
  );
  links.skills = [];
  return presented;
}

/** The answer of a bulk update: what happened, and the resulting results in the body's order. */
export function presentBulkOutcome(
  kind: ResultKind,
  path: string,
  outcome: { results: Result[]; created: number; updated: number; unchanged: number },
  hrefs: Hrefs,
): Resource {
  const { created, updated, unchanged } = outcome;
  return resource(
    { created, updated, unchanged },
    { self: link(hrefs.api(path), { method: 'POST' }) },
    { [`${kind.resource}s`]: outcome.results.map((result) => presentResult(kind, result, hrefs)) },
  );
}

/**
 * A planning scenario with the real API's properties first (creator, creationDate, its horizon and
 * figures, `elements`), then the service's own (`name`, `description`, `createdAt`; an operation
 * scenario also keeps its elements under their first name, `assignments`, and `obsoleteSince`).
 */
export function presentPlanningScenario(
  scenario: PlanningScenario,
  figures: ResultSummary | StaffScenarioSummary,
  hrefs: Hrefs,
  workplaceShifts: ReadonlyMap<ResultElement, string | null> = new Map(),
): Resource {
  const operation = scenario.kind === 'OPERATION';
  const ownerField = operation ? 'operationId' : 'staffMemberId';
  const path = operation ? OPERATION_PLANNING_SCENARIOS_PATH : STAFF_MEMBER_PLANNING_SCENARIOS_PATH;
  const elements = scenario.elements.map((element) =>
    operation
      ? elementProperties(ownerField, element)
      : {
          ...elementProperties(ownerField, element),
          // The staff member's own shift, the skill and the capacity it is dispatched with are
          // not recorded; the workplace shift is the one running at the element's start.
          staffMemberShiftId: null,
          skillId: null,
          workplaceShiftId: workplaceShifts.get(element) ?? null,
          capacity: null,
        },
  );
  return resource(
    {
      id: scenario.id,
      creator: scenario.creator,
      creationDate: scenario.createdAt.toISOString(),
      ...figures,
      startDate: iso(figures.startDate),
      endDate: iso(figures.endDate),
      elements,
      name: scenario.name,
      description: scenario.description,
      ...(operation ? { assignments: elements } : {}),
      createdAt: scenario.createdAt.toISOString(),
      // Only operation scenarios are outdated by a plan change (OBSOLETE_OPERATION_PLANNING_SCENARIOS).
      ...(operation ? { obsoleteSince: scenario.obsoleteSince?.toISOString() ?? null } : {}),
    },
    { self: link(hrefs.api(`${path}/${scenario.id}`)) },
  );
}

/**
 * A predicted malfunction scenario; `elements`: the page of its imminent malfunctions shown (all
 * of them in a list).
 */
export function presentMalfunctionScenario(
  scenario: PredictedMalfunctionScenario,
  hrefs: Hrefs,
  locale: Locale,
  elements: readonly ImminentMalfunction[] = imminentMalfunctionsOf(scenario),
): Resource {
  const state = scenario.operatingStateId === null ? null : operatingStateById(scenario.operatingStateId);
  return resource(
    {
      id: scenario.id,
      creator: scenario.creator,
      creationDate: scenario.createdAt.toISOString(),
      workplaceId: scenario.workplaceId,
      startDate: scenario.startDate.toISOString(),
      endDate: scenario.endDate.toISOString(),
      elements: elements.map((element) => ({
        workplaceId: element.workplaceId,
        operatingStateId: element.operatingStateId,
        prewarningDate: element.prewarningDate.toISOString(),
        criticalDate: element.criticalDate,
      })),
      probability: scenario.probability,
      operatingState: state === null ? null : operatingStateProperty(state, locale),
      description: scenario.description,
      createdAt: scenario.createdAt.toISOString(),
      obsoleteSince: scenario.obsoleteSince?.toISOString() ?? null,
    },
    {
      self: link(hrefs.api(`${MALFUNCTION_SCENARIOS_PATH}/${scenario.id}`)),
      workplace: link(hrefs.api(`${WORKPLACES_PATH}/${scenario.workplaceId}`)),
      operatingState: state ? link(hrefs.api(`${OPERATING_STATES_PATH}/${state.id}`)) : undefined,
    },
  );
}

/** The summary of a result collection: its dates as ISO text. */
export function presentSummary(summary: ResultSummary | StaffScenarioSummary): Record<string, unknown> {
  return { ...summary, startDate: iso(summary.startDate), endDate: iso(summary.endDate) };
}
