// Storage of planning scenarios (operations, staff members) and predicted malfunction scenarios.
import { isUuid } from '../../domain/ids.ts';
import type {
  PlanningScenario,
  PredictedMalfunctionScenario,
  ResultElement,
  ScenarioKind,
} from '../../domain/planning.ts';
import type { Queryable } from '../database.ts';
import { countRows, type OffsetPage, type OffsetRequest, whereClause } from '../paging.ts';

/** A scenario element as stored in jsonb: times as ISO text, the owner under its API name. */
type StoredElement = Record<string, string | boolean | null>;

interface ScenarioRow {
  id: string;
  kind: ScenarioKind;
  name: string | null;
  description: string | null;
  elements: StoredElement[] | string;
  created_at: Date;
  obsolete_since: Date | null;
}

const ownerField = (kind: ScenarioKind) => (kind === 'OPERATION' ? 'operationId' : 'staffMemberId');
const DATE_FIELDS = [
  'startDate',
  'endDate',
  'setupStartDate',
  'setupEndDate',
  'processingStartDate',
  'processingEndDate',
] as const;

function storeElement(kind: ScenarioKind, element: ResultElement): StoredElement {
  const stored: StoredElement = { [ownerField(kind)]: element.ownerId, workplaceId: element.workplaceId };
  for (const field of DATE_FIELDS) stored[field] = element[field]?.toISOString() ?? null;
  stored.fixed = element.fixed;
  return stored;
}

function loadElement(kind: ScenarioKind, stored: StoredElement): ResultElement {
  const date = (field: (typeof DATE_FIELDS)[number]) => {
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
  // node-postgres parses jsonb; PGlite may hand it over as text.
  const elements = typeof row.elements === 'string' ? JSON.parse(row.elements) : row.elements;
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    description: row.description,
    elements: (elements as StoredElement[]).map((element) => loadElement(row.kind, element)),
    createdAt: row.created_at,
    obsoleteSince: row.obsolete_since,
  };
};

export async function insertPlanningScenario(db: Queryable, scenario: PlanningScenario): Promise<void> {
  await db.query(
    `INSERT INTO planning_scenarios (id, kind, name, description, elements, created_at, obsolete_since)
     VALUES ($1, $2, $3, $4, $5, $6, $7)`,
    [
      scenario.id,
      scenario.kind,
      scenario.name,
      scenario.description,
      JSON.stringify(scenario.elements.map((element) => storeElement(scenario.kind, element))),
      scenario.createdAt,
      scenario.obsoleteSince,
    ],
  );
}

/** Newest first. */
export async function listPlanningScenarios(
  db: Queryable,
  kind: ScenarioKind,
  page: OffsetRequest,
): Promise<OffsetPage<PlanningScenario>> {
  const rows = await db.query<ScenarioRow>(
    `SELECT * FROM planning_scenarios WHERE kind = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
    [kind, page.limit, page.offset],
  );
  return {
    items: rows.map(toScenario),
    total: await countRows(db, 'planning_scenarios', ['kind = $1'], [kind]),
  };
}

export async function findPlanningScenario(
  db: Queryable,
  kind: ScenarioKind,
  id: string,
): Promise<PlanningScenario | undefined> {
  if (!isUuid(id)) return undefined;
  const rows = await db.query<ScenarioRow>('SELECT * FROM planning_scenarios WHERE id = $1 AND kind = $2', [
    id,
    kind,
  ]);
  return rows[0] === undefined ? undefined : toScenario(rows[0]);
}

/** Marks every current scenario of the kind obsolete; returns their ids (oldest first). */
export async function obsoletePlanningScenarios(
  db: Queryable,
  kind: ScenarioKind,
  at: Date,
): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `UPDATE planning_scenarios SET obsolete_since = $2 WHERE kind = $1 AND obsolete_since IS NULL RETURNING id`,
    [kind, at],
  );
  return rows.map((row) => row.id).sort();
}

interface MalfunctionRow {
  id: string;
  workplace_id: string;
  start_date: Date;
  end_date: Date;
  probability: number;
  operating_state_id: string | null;
  description: string | null;
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
  createdAt: row.created_at,
  obsoleteSince: row.obsolete_since,
});

export async function insertMalfunctionScenario(
  db: Queryable,
  scenario: PredictedMalfunctionScenario,
): Promise<void> {
  await db.query(
    `INSERT INTO predicted_malfunction_scenarios (id, workplace_id, start_date, end_date, probability,
       operating_state_id, description, created_at, obsolete_since)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
    [
      scenario.id,
      scenario.workplaceId,
      scenario.startDate,
      scenario.endDate,
      scenario.probability,
      scenario.operatingStateId,
      scenario.description,
      scenario.createdAt,
      scenario.obsoleteSince,
    ],
  );
}

/** Newest first, optionally of one workplace. */
export async function listMalfunctionScenarios(
  db: Queryable,
  filter: { workplaceId?: string },
  page: OffsetRequest,
): Promise<OffsetPage<PredictedMalfunctionScenario>> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (filter.workplaceId !== undefined) {
    params.push(filter.workplaceId);
    where.push(`workplace_id = $${params.length}::uuid`);
  }
  const rows = await db.query<MalfunctionRow>(
    `SELECT * FROM predicted_malfunction_scenarios ${whereClause(where)} ORDER BY created_at DESC, id DESC
     LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, page.limit, page.offset],
  );
  return {
    items: rows.map(toMalfunction),
    total: await countRows(db, 'predicted_malfunction_scenarios', where, params),
  };
}

export async function findMalfunctionScenario(
  db: Queryable,
  id: string,
): Promise<PredictedMalfunctionScenario | undefined> {
  if (!isUuid(id)) return undefined;
  const rows = await db.query<MalfunctionRow>('SELECT * FROM predicted_malfunction_scenarios WHERE id = $1', [
    id,
  ]);
  return rows[0] === undefined ? undefined : toMalfunction(rows[0]);
}

/** Marks the workplace's current predictions obsolete; returns their ids (oldest first). */
export async function obsoleteMalfunctionScenarios(
  db: Queryable,
  workplaceId: string,
  at: Date,
): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `UPDATE predicted_malfunction_scenarios SET obsolete_since = $2
     WHERE workplace_id = $1 AND obsolete_since IS NULL RETURNING id`,
    [workplaceId, at],
  );
  return rows.map((row) => row.id).sort();
}
