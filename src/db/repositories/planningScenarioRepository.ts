import {
  type PlanningScenario,
  type PredictedMalfunctionScenario,
  RESULT_DATES,
  type ResultElement,
  type ScenarioKind,
} from '../../domain/planning.ts';
import { Conditions, type PeriodFilter } from '../conditions.ts';
import type { Queryable } from '../database.ts';
import type { OffsetPage, OffsetRequest } from '../paging.ts';
import { findById, fromJsonb, insertRow, offsetList, offsetPageOf, ownedFind, type Table } from '../table.ts';

/** A scenario element as stored in jsonb: times as ISO text, the owner under its API name. */
type StoredElement = Record<string, string | boolean | null>;

interface ScenarioRow {
  id: string;
  kind: ScenarioKind;
  name: string | null;
  description: string | null;
  elements: StoredElement[] | string;
  creator: string | null;
  created_at: Date;
  obsolete_since: Date | null;
}

const ownerField = (kind: ScenarioKind) => (kind === 'OPERATION' ? 'operationId' : 'staffMemberId');

function storeElement(kind: ScenarioKind, element: ResultElement): StoredElement {
  const stored: StoredElement = { [ownerField(kind)]: element.ownerId, workplaceId: element.workplaceId };
  for (const field of RESULT_DATES) stored[field] = element[field]?.toISOString() ?? null;
  stored.fixed = element.fixed;
  return stored;
}

function loadElement(kind: ScenarioKind, stored: StoredElement): ResultElement {
  const date = (field: (typeof RESULT_DATES)[number]) => {
    const value = stored[field];
    return typeof value === 'string' ? new Date(value) : null;
  };
  return {
    ownerId: String(stored[ownerField(kind)]),
    workplaceId: String(stored.workplaceId),
    startDate: new Date(String(stored.startDate)),
    endDate: new Date(String(stored.endDate)),
    setupStartDate: date('setupStartDate'),
    setupEndDate: date('setupEndDate'),
    processingStartDate: date('processingStartDate'),
    processingEndDate: date('processingEndDate'),
    fixed: stored.fixed === true,
  };
}

const toScenario = (row: ScenarioRow): PlanningScenario => {
  const elements = fromJsonb(row.elements);
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    description: row.description,
    elements: (elements as StoredElement[]).map((element) => loadElement(row.kind, element)),
    creator: row.creator,
    createdAt: row.created_at,
    obsoleteSince: row.obsolete_since,
  };
};

const PLANNING_SCENARIOS: Table<ScenarioRow, PlanningScenario> = {
  from: 'planning_scenarios',
  toItem: toScenario,
};
const NEWEST_FIRST = 'created_at DESC, id DESC';

export async function insertPlanningScenario(db: Queryable, scenario: PlanningScenario): Promise<void> {
  await insertRow(db, 'planning_scenarios', {
    id: scenario.id,
    kind: scenario.kind,
    name: scenario.name,
    description: scenario.description,
    elements: JSON.stringify(scenario.elements.map((element) => storeElement(scenario.kind, element))),
    creator: scenario.creator,
    created_at: scenario.createdAt,
    obsolete_since: scenario.obsoleteSince,
  });
}

/** The scenarios of one kind created in the period (either end open), newest first. */
export function listPlanningScenarios(
  db: Queryable,
  kind: ScenarioKind,
  created: PeriodFilter,
  page: OffsetRequest,
): Promise<OffsetPage<PlanningScenario>> {
  const conditions = new Conditions().add((at) => `kind = ${at}`, kind);
  if (created.startDate !== undefined) conditions.add((at) => `created_at >= ${at}`, created.startDate);
  if (created.endDate !== undefined) conditions.add((at) => `created_at <= ${at}`, created.endDate);
  return offsetPageOf(db, PLANNING_SCENARIOS, conditions, NEWEST_FIRST, page);
}

export const findPlanningScenario = ownedFind(PLANNING_SCENARIOS, 'kind');

/** Marks the current scenarios in `table` whose `column` is `value` obsolete; returns their ids (oldest first). */
async function markObsolete(
  db: Queryable,
  table: string,
  [column, value]: readonly [column: string, value: string],
  at: Date,
): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `UPDATE ${table} SET obsolete_since = $2 WHERE ${column} = $1 AND obsolete_since IS NULL RETURNING id`,
    [value, at],
  );
  return rows.map((row) => row.id).sort();
}

/** Marks every current scenario of the kind obsolete; returns their ids (oldest first). */
export const obsoletePlanningScenarios = (db: Queryable, kind: ScenarioKind, at: Date) =>
  markObsolete(db, 'planning_scenarios', ['kind', kind], at);

interface MalfunctionRow {
  id: string;
  workplace_id: string;
  start_date: Date;
  end_date: Date;
  probability: number;
  operating_state_id: string | null;
  description: string | null;
  creator: string | null;
  created_at: Date;
  obsolete_since: Date | null;
}

const toMalfunction = (row: MalfunctionRow): PredictedMalfunctionScenario => ({
  id: row.id,
  workplaceId: row.workplace_id,
  startDate: row.start_date,
  endDate: row.end_date,
  probability: Number(row.probability),
  operatingStateId: row.operating_state_id,
  description: row.description,
  creator: row.creator,
  createdAt: row.created_at,
  obsoleteSince: row.obsolete_since,
});

const MALFUNCTION_SCENARIOS: Table<MalfunctionRow, PredictedMalfunctionScenario> = {
  from: 'predicted_malfunction_scenarios',
  toItem: toMalfunction,
};

export async function insertMalfunctionScenario(
  db: Queryable,
  scenario: PredictedMalfunctionScenario,
): Promise<void> {
  await insertRow(db, 'predicted_malfunction_scenarios', {
    id: scenario.id,
    workplace_id: scenario.workplaceId,
    start_date: scenario.startDate,
    end_date: scenario.endDate,
    probability: scenario.probability,
    operating_state_id: scenario.operatingStateId,
    description: scenario.description,
    creator: scenario.creator,
    created_at: scenario.createdAt,
    obsolete_since: scenario.obsoleteSince,
  });
}

/** Newest first, optionally of one workplace and overlapping a period. */
export const listMalfunctionScenarios = offsetList(
  MALFUNCTION_SCENARIOS,
  NEWEST_FIRST,
  (filter: { workplaceId?: string | undefined } & PeriodFilter) =>
    new Conditions().equals('workplace_id', filter.workplaceId).overlapping(filter),
);

export async function findMalfunctionScenario(
  db: Queryable,
  id: string,
): Promise<PredictedMalfunctionScenario | undefined> {
  return findById(db, MALFUNCTION_SCENARIOS, id);
}
