// Planning scenarios (operations, staff members) and predicted malfunction scenarios: created
// once, never changed; outdated by later changes of the plan or of the workplace (see docs).
import { v7 as uuidv7 } from 'uuid';
import type { Database, Queryable } from '../db/database.ts';
import {
  ordersOfOperations,
  shiftAt,
  shiftsOfWorkplaces,
} from '../db/repositories/planningResultRepository.ts';
import * as scenarios from '../db/repositories/planningScenarioRepository.ts';
import { AppError } from '../domain/errors.ts';
import { catalogueEvent, lifecycleEvents, resourcesUpdated } from '../domain/events.ts';
import {
  checkPeriod,
  checkUniqueOwners,
  horizonOf,
  OPERATION_PLANNING_RESULTS,
  type PlanningScenario,
  type PredictedMalfunctionScenario,
  type PredictedMalfunctionScenarioInput,
  type ResultElement,
  type ResultSummary,
  type ScenarioKind,
  STAFF_MEMBER_PLANNING_RESULTS,
  type StaffScenarioSummary,
  summarizeResults,
  summarizeStaffScenario,
} from '../domain/planning.ts';
import { recordEvents } from './eventService.ts';
import { checkElement } from './planningResultService.ts';
import { checkReference, referencedOperatingState } from './referenceService.ts';
import { found } from './writes.ts';

/** Per kind: the results its elements look like, the body's list name and its event. */
const PLANNING_SCENARIO_KINDS = {
  OPERATION: {
    results: OPERATION_PLANNING_RESULTS,
    list: 'assignments',
    prefix: 'OPERATION_PLANNING_SCENARIO',
    idKey: 'operationPlanningScenarioId',
  },
  STAFF_MEMBER: {
    results: STAFF_MEMBER_PLANNING_RESULTS,
    list: 'elements',
    prefix: 'STAFF_MEMBER_PLANNING_SCENARIO',
    idKey: 'staffMemberPlanningScenarioId',
  },
} as const;

export interface PlanningScenarioInput {
  name: string | null;
  description: string | null;
  elements: ResultElement[];
  /** The client creating it. */
  creator: string | null;
}

export async function createPlanningScenario(
  db: Database,
  kind: ScenarioKind,
  input: PlanningScenarioInput,
): Promise<PlanningScenario> {
  const { results, list, prefix, idKey } = PLANNING_SCENARIO_KINDS[kind];
  checkUniqueOwners(input.elements, list, results.ownerField);
  const now = new Date();
  const scenario: PlanningScenario = { ...input, id: uuidv7(), kind, createdAt: now, obsoleteSince: null };
  await db.transaction(async (tx) => {
    for (const [index, element] of input.elements.entries()) {
      await checkElement(tx, results, element, `${list}[${index}].`);
    }
    await scenarios.insertPlanningScenario(tx, scenario);
    const data = { [idKey]: scenario.id, name: scenario.name, description: scenario.description };
    await recordEvents(tx, lifecycleEvents(prefix, 'CREATED', scenario.id, data), now);
  });
  return scenario;
}

export async function getPlanningScenario(db: Queryable, kind: ScenarioKind, id: string) {
  return found(scenarios.findPlanningScenario(db, kind, id), 'planningScenario', id);
}

/** An operating state given by id or code that a malfunction can be predicted as: a downtime. */
function malfunctionState(idOrCode: string | null): string | null {
  if (idOrCode === null) return null;
  const state = referencedOperatingState(idOrCode);
  if (state.workplaceStateId !== 'DOWNTIME')
    throw new AppError('VALIDATION_FAILED', {
      rule: 'value',
      field: 'operatingStateId',
      detail: 'must be an operating state of workplace state DOWNTIME',
    });
  return state.id;
}

export async function createMalfunctionScenario(
  db: Database,
  input: PredictedMalfunctionScenarioInput,
  creator: string | null,
): Promise<PredictedMalfunctionScenario> {
  checkPeriod(input.startDate, input.endDate, 'startDate', 'endDate');
  const now = new Date();
  const scenario: PredictedMalfunctionScenario = {
    ...input,
    operatingStateId: malfunctionState(input.operatingStateId),
    id: uuidv7(),
    creator,
    createdAt: now,
    obsoleteSince: null,
  };
  await db.transaction(async (tx) => {
    await checkReference(tx, 'workplaceId', scenario.workplaceId, 'workplaces');
    await scenarios.insertMalfunctionScenario(tx, scenario);
    await recordEvents(
      tx,
      [
        catalogueEvent('PREDICTED_MALFUNCTION_SCENARIO_CREATED', scenario.workplaceId, {
          predictedMalfunctionScenarioId: scenario.id,
          workplaceId: scenario.workplaceId,
          startDate: scenario.startDate.toISOString(),
          endDate: scenario.endDate.toISOString(),
          probability: scenario.probability,
          operatingStateId: scenario.operatingStateId,
          description: scenario.description,
        }),
        // The scenario is a resource of its own; the condensed event names it.
        resourcesUpdated('PREDICTED_MALFUNCTION_SCENARIO', 'CREATED', scenario.id),
      ],
      now,
    );
  });
  return scenario;
}

export async function getMalfunctionScenario(db: Queryable, id: string) {
  return found(scenarios.findMalfunctionScenario(db, id), 'predictedMalfunctionScenario', id);
}

/**
 * The figures of an operation planning scenario, as of a result collection (docs/resources/planning.md):
 * its elements are the results, its horizon their first start to their last end.
 */
async function summarizePlanningScenario(db: Database, scenario: PlanningScenario): Promise<ResultSummary> {
  const planned = new Map(scenario.elements.map((element) => [element.ownerId, element]));
  const results = scenario.elements;
  return db.transaction(async (tx) => {
    const period = horizonOf(results);
    const orders = await ordersOfOperations(tx, planned);
    const workplaceIds = [...new Set(results.map((element) => element.workplaceId))];
    const shifts = await shiftsOfWorkplaces(tx, workplaceIds, period);
    return summarizeResults({ period, results, orders, shifts });
  });
}

/** A scenario's figures: an operation scenario's as of a result collection, a staff member scenario's own. */
export function scenarioFigures(
  db: Database,
  scenario: PlanningScenario,
): Promise<ResultSummary | StaffScenarioSummary> {
  return scenario.kind === 'OPERATION'
    ? summarizePlanningScenario(db, scenario)
    : Promise.resolve(summarizeStaffScenario(scenario.elements));
}

/**
 * The workplace shift each element of a staff member scenario starts in (the shift of its
 * workplace running at its start), null where none does; none for operation scenarios.
 */
export async function workplaceShiftsOf(
  db: Queryable,
  scenario: PlanningScenario,
): Promise<Map<ResultElement, string | null>> {
  const shifts = new Map<ResultElement, string | null>();
  if (scenario.kind !== 'STAFF_MEMBER') return shifts;
  for (const element of scenario.elements) {
    shifts.set(element, await shiftAt(db, element.workplaceId, element.startDate));
  }
  return shifts;
}
