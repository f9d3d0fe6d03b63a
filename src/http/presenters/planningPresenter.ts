import { operatingStateById } from '../../domain/masterData.ts';
import type {
  PlanningScenario,
  PredictedMalfunctionScenario,
  Result,
  ResultElement,
  ResultKind,
  ResultSummary,
  StaffScenarioSummary,
} from '../../domain/planning.ts';
import type { Locale } from '../../i18n/locales.ts';
import { link, type Resource, resource } from '../hal.ts';
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

export function presentMalfunctionScenario(
  scenario: PredictedMalfunctionScenario,
  hrefs: Hrefs,
  locale: Locale,
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
