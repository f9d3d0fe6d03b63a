import type { ToolAssemblyOrderStateId } from '../../domain/toolAssemblyOrderStates.ts';
import {
  type Characteristic,
  type IdentifierValue,
  type LifeTime,
  orderStatesOf,
  shownToolState,
  type Tool,
  type ToolEdge,
  type ToolStateId,
  type ToolView,
} from '../../domain/tools.ts';
import { Conditions } from '../conditions.ts';
import type { Queryable } from '../database.ts';
import { findById, offsetList, ownedFind, rowWrites, type Table } from '../table.ts';

// bigint arrives as text from the drivers.
type BigInt = string | number | null;

interface LifeTimeColumns {
  life_time_current: BigInt;
  life_time_warning_limit: BigInt;
  life_time_maximum: BigInt;
}

interface Row extends LifeTimeColumns {
  id: string;
  number: string | null;
  description: string | null;
  storage_location: string | null;
  workplace_id: string | null;
  lifespan_remaining: BigInt;
  lifespan_maximum: BigInt;
  lifespan_warning_limit: BigInt;
  name: string | null;
  identifier2: string | null;
  identifier3: string | null;
  document_url: string | null;
  group_name: string | null;
  group_identifier: string | null;
  class_name: string | null;
  class_identifier: string | null;
  state: ToolStateId | null;
  magazine_number: number | null;
  magazine_place: number | null;
  geo_coordinates: Record<string, unknown> | null;
  created_at: Date;
  updated_at: Date;
  order_id: string | null;
  order_state: ToolAssemblyOrderStateId | null;
}

const toNumber = (value: BigInt) => (value === null ? null : Number(value));

const toLifeTime = (row: LifeTimeColumns): LifeTime => ({
  current: toNumber(row.life_time_current),
  warningLimit: toNumber(row.life_time_warning_limit),
  maximum: toNumber(row.life_time_maximum),
});

const lifeTimeValues = (lifeTime: LifeTime) => ({
  life_time_current: lifeTime.current,
  life_time_warning_limit: lifeTime.warningLimit,
  life_time_maximum: lifeTime.maximum,
});

const toIdentifierValue = (name: string | null, identifier: string | null): IdentifierValue | null =>
  name === null && identifier === null ? null : { name, identifier };

const toTool = (row: Row): ToolView => ({
  id: row.id,
  number: row.number,
  description: row.description,
  storageLocation: row.storage_location,
  workplaceId: row.workplace_id,
  lifespan: {
    remaining: toNumber(row.lifespan_remaining),
    maximum: toNumber(row.lifespan_maximum),
    warningLimit: toNumber(row.lifespan_warning_limit),
  },
  name: row.name,
  identifier2: row.identifier2,
  identifier3: row.identifier3,
  documentUrl: row.document_url,
  group: toIdentifierValue(row.group_name, row.group_identifier),
  toolClass: toIdentifierValue(row.class_name, row.class_identifier),
  lifeTime: toLifeTime(row),
  place: {
    magazineNumber: row.magazine_number,
    magazinePlace: row.magazine_place,
    geoCoordinates: row.geo_coordinates,
  },
  stateId: row.state,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  toolAssemblyOrderId: row.order_id,
  toolStateId: shownToolState(row.state, row.order_state),
});

// A tool created through an assembly order has it, which gives the tool its state while unfinished.
const TOOLS: Table<Row, ToolView> = {
  from: 'tools t LEFT JOIN tool_assembly_orders o ON o.tool_id = t.id',
  select: 't.*, o.id AS order_id, o.state AS order_state',
  id: 't.id',
  toItem: toTool,
};

// The state a tool shows (shownToolState) in SQL; the order states are constants of the domain.
const IN_ASSEMBLY_ORDER_STATES = orderStatesOf('IN_ASSEMBLY')
  .map((state) => `'${state}'`)
  .join(', ');
const SHOWN_STATE = `CASE WHEN o.state IN (${IN_ASSEMBLY_ORDER_STATES}) THEN 'IN_ASSEMBLY' ELSE COALESCE(t.state, o.state) END`;

export interface ToolFilter {
  workplaceId?: string;
  toolStateId?: ToolStateId;
  number?: string;
  /** The SDK's names: identifier is the number. */
  identifier?: string;
  identifier2?: string;
  identifier3?: string;
}

export const listTools = offsetList(TOOLS, 't.number, t.id', (filter: ToolFilter) =>
  new Conditions()
    .equals('t.workplace_id', filter.workplaceId)
    .equals(SHOWN_STATE, filter.toolStateId)
    .equals('t.number', filter.number)
    .equals('t.number', filter.identifier)
    .equals('t.identifier2', filter.identifier2)
    .equals('t.identifier3', filter.identifier3),
);

/** The tool by id; a write locks its row only (the order's side of the outer join cannot be locked). */
export const findTool = (db: Queryable, id: string, lock = false): Promise<ToolView | undefined> =>
  findById(db, TOOLS, id, { lock: lock ? ' FOR UPDATE OF t' : '' });

/** The columns of a tool beside the same-named ones of `toolWrites`. */
const otherColumns = (tool: Tool) => ({
  lifespan_remaining: tool.lifespan.remaining,
  lifespan_maximum: tool.lifespan.maximum,
  lifespan_warning_limit: tool.lifespan.warningLimit,
  group_name: tool.group?.name ?? null,
  group_identifier: tool.group?.identifier ?? null,
  class_name: tool.toolClass?.name ?? null,
  class_identifier: tool.toolClass?.identifier ?? null,
  ...lifeTimeValues(tool.lifeTime),
  state: tool.stateId,
  magazine_number: tool.place.magazineNumber,
  magazine_place: tool.place.magazinePlace,
  geo_coordinates: tool.place.geoCoordinates === null ? null : JSON.stringify(tool.place.geoCoordinates),
});

export const toolWrites = rowWrites<Tool>()(
  'tools',
  'id number description storageLocation workplaceId name identifier2 identifier3 documentUrl updatedAt createdAt',
  { other: otherColumns },
);

// ---------------------------------------------------------------------------------------------
// Edges

interface EdgeRow extends LifeTimeColumns {
  id: string;
  tool_id: string;
  identifier: string;
  created_at: Date;
  updated_at: Date;
}

const EDGES: Table<EdgeRow, ToolEdge> = {
  from: 'tool_edges',
  toItem: (row) => ({
    id: row.id,
    toolId: row.tool_id,
    identifier: row.identifier,
    lifeTime: toLifeTime(row),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }),
};

export const listToolEdges = offsetList(
  EDGES,
  'created_at, id',
  (filter: { toolId: string; identifier?: string }) =>
    new Conditions(['tool_id = $1'], [filter.toolId]).equals('identifier', filter.identifier),
);

export const findToolEdge = ownedFind(EDGES, 'tool_id');

export const toolEdgeWrites = rowWrites<ToolEdge>()(
  'tool_edges',
  'id toolId identifier createdAt updatedAt',
  {
    other: (edge) => lifeTimeValues(edge.lifeTime),
    fixed: ['created_at', 'tool_id'],
  },
);

// ---------------------------------------------------------------------------------------------
// Characteristics of a tool (edge null) or of an edge

/** Whose characteristics: a tool's own, or one of its edges'. */
export interface CharacteristicsOwner {
  toolId: string;
  edgeId: string | null;
}

const ofOwner = (owner: CharacteristicsOwner) =>
  owner.edgeId === null
    ? { where: 'tool_id = $1 AND edge_id IS NULL', params: [owner.toolId] }
    : { where: 'tool_id = $1 AND edge_id = $2', params: [owner.toolId, owner.edgeId] };

export async function listCharacteristics(
  db: Queryable,
  owner: CharacteristicsOwner,
  page: { offset: number; limit: number },
): Promise<{ items: Characteristic[]; total: number }> {
  const { where, params } = ofOwner(owner);
  const rows = await db.query<Characteristic & { total: string | number }>(
    `SELECT name, identifier, value, unit, count(*) OVER () AS total FROM tool_characteristics
     WHERE ${where} ORDER BY position
     LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
    [...params, page.limit, page.offset],
  );
  const items = rows.map(({ name, identifier, value, unit }) => ({ name, identifier, value, unit }));
  const total = rows[0] === undefined ? await countCharacteristics(db, owner) : Number(rows[0].total);
  return { items, total };
}

async function countCharacteristics(db: Queryable, owner: CharacteristicsOwner): Promise<number> {
  const { where, params } = ofOwner(owner);
  const rows = await db.query<{ count: string | number }>(
    `SELECT count(*) AS count FROM tool_characteristics WHERE ${where}`,
    params,
  );
  return Number(rows[0]?.count ?? 0);
}

/** All characteristics of the owner, in order (for a comparison before a replace). */
export async function allCharacteristics(
  db: Queryable,
  owner: CharacteristicsOwner,
): Promise<Characteristic[]> {
  const { where, params } = ofOwner(owner);
  return db.query<Characteristic>(
    `SELECT name, identifier, value, unit FROM tool_characteristics WHERE ${where} ORDER BY position`,
    params,
  );
}

/** Replaces the owner's characteristics with these, in this order. */
export async function replaceCharacteristics(
  db: Queryable,
  owner: CharacteristicsOwner,
  characteristics: readonly Characteristic[],
): Promise<void> {
  const { where, params } = ofOwner(owner);
  await db.query(`DELETE FROM tool_characteristics WHERE ${where}`, params);
  if (characteristics.length === 0) return;
  await db.query(
    `INSERT INTO tool_characteristics (tool_id, edge_id, position, name, identifier, value, unit)
     SELECT $1::uuid, $2::uuid, c.position, c.name, c.identifier, c.value, c.unit
     FROM unnest($3::int[], $4::text[], $5::text[], $6::text[], $7::text[])
       AS c(position, name, identifier, value, unit)`,
    [
      owner.toolId,
      owner.edgeId,
      characteristics.map((_, index) => index),
      characteristics.map((one) => one.name),
      characteristics.map((one) => one.identifier),
      characteristics.map((one) => one.value),
      characteristics.map((one) => one.unit),
    ],
  );
}
