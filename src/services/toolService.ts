import { v7 as uuidv7 } from 'uuid';
import type { Database, Queryable } from '../db/database.ts';
import * as tools from '../db/repositories/toolRepository.ts';
import { AppError, notFound } from '../domain/errors.ts';
import {
  type Characteristic,
  changedEdgeCharacteristics,
  changedToolCharacteristics,
  isSettableToolState,
  type Lifespan,
  lifespanProblem,
  NO_PLACE,
  sameCharacteristics,
  type Tool,
  type ToolEdge,
  type ToolEdgeInput,
  type ToolInput,
  type ToolPlace,
  type ToolView,
} from '../domain/tools.ts';
import type { Workplace } from '../domain/workplaces.ts';
import { rethrowDuplicate } from './constraintErrors.ts';
import { recordEvents } from './eventService.ts';
import { lifecycle, newItem, primaryEvents } from './lifecycle.ts';
import { checkReference } from './referenceService.ts';
import { getWorkplace } from './workplaceService.ts';
import { found, gettingBelow, locking, writeOnFound } from './writes.ts';

const lockTool = locking('tool', tools.findTool);

/** A tool's place in a workplace's magazine, as written. */
export interface ToolLocationInput extends ToolPlace {
  workplaceId: string;
}

export interface NewTool extends ToolInput {
  location: ToolLocationInput | null;
  characteristics: Characteristic[];
}

/** A tool's location: its workplace and the place there. */
export interface ToolLocation {
  toolId: string;
  workplace: Workplace;
  place: ToolPlace;
}

/** The event data of TOOL_CREATED/_UPDATED/_DELETED: the tool's characteristic properties. */
const toolEventData = (tool: Tool) => ({
  toolId: tool.id,
  number: tool.number,
  description: tool.description,
  lifespan: { maximum: tool.lifespan.maximum, warningLimit: tool.lifespan.warningLimit },
});

export const TOOLS = lifecycle<Tool>('tool', {
  rows: tools.toolWrites,
  events: primaryEvents('TOOL', toolEventData),
  unique: (tool) => ['number', String(tool.number)],
});

/** Remaining life and warning limit must fit within the maximum: 400 naming the part otherwise. */
export function checkLifespan(lifespan: Lifespan): void {
  const part = lifespanProblem(lifespan);
  if (part) {
    throw new AppError('VALIDATION_FAILED', {
      rule: 'value',
      field: `lifespan.${part}`,
      detail: 'must not exceed lifespan.maximum',
    });
  }
}

export async function getTool(db: Queryable, id: string): Promise<ToolView> {
  return found(tools.findTool(db, id), 'tool', id);
}

/**
 * POST /tools: a tool without an assembly order, with its location and characteristics, in one
 * transaction (emits TOOL_CREATED). Its state is null until the tool state command sets it.
 */
export async function createTool(db: Database, input: NewTool): Promise<ToolView> {
  checkLifespan(input.lifespan);
  const now = new Date();
  const { location, characteristics, ...fields } = input;
  const tool: ToolView = {
    ...fields,
    id: uuidv7(),
    workplaceId: location?.workplaceId ?? fields.workplaceId,
    place: location ? placeOf(location) : NO_PLACE,
    stateId: null,
    toolStateId: null,
    toolAssemblyOrderId: null,
    createdAt: now,
    updatedAt: now,
  };
  await db.transaction(async (tx) => {
    await checkReference(
      tx,
      location ? 'location.workplaceId' : 'workplaceId',
      tool.workplaceId,
      'workplaces',
    );
    // The body names the number identifier1.
    await tools.toolWrites.insert(tx, tool).catch(rethrowDuplicate('identifier1', String(tool.number)));
    await tools.replaceCharacteristics(tx, { toolId: tool.id, edgeId: null }, characteristics);
    await recordEvents(tx, TOOLS.events('CREATED', tool), now);
  });
  return tool;
}

const placeOf = ({ magazineNumber, magazinePlace, geoCoordinates }: ToolPlace): ToolPlace => ({
  magazineNumber,
  magazinePlace,
  geoCoordinates,
});

/** TOOL_UPDATED naming what changed of a tool's parts (edges, characteristics). */
const toolUpdated = (tool: Tool, changed: string[]) => TOOLS.events('UPDATED', tool, changed);

/**
 * PUT: every writable property is replaced. Location, site and remaining life are saved quietly;
 * only a change of a characteristic property emits TOOL_UPDATED (docs/events.md, "Catalogue").
 */
export async function replaceTool(db: Database, id: string, input: ToolInput): Promise<ToolView> {
  checkLifespan(input.lifespan);
  return writeOnFound(db, lockTool(id), async (tx, before) => {
    const after: ToolView = { ...before, ...input, lifespan: { ...input.lifespan } };
    // Without a workplace the tool has no location, so no place in a magazine either.
    if (after.workplaceId === null) after.place = NO_PLACE;
    const unchanged =
      before.storageLocation === after.storageLocation &&
      before.workplaceId === after.workplaceId &&
      before.lifespan.remaining === after.lifespan.remaining &&
      before.lifeTime.current === after.lifeTime.current;
    const changed = changedToolCharacteristics(before, after);
    if (unchanged && changed.length === 0) return before;
    if (after.workplaceId !== before.workplaceId) {
      await checkReference(tx, 'workplaceId', after.workplaceId, 'workplaces');
    }
    after.updatedAt = new Date();
    await tools.toolWrites.update(tx, after).catch(rethrowDuplicate('number', String(after.number)));
    if (changed.length > 0) {
      await recordEvents(tx, toolUpdated(after, changed), after.updatedAt);
    }
    return after;
  });
}

/**
 * A tool whose assembly order is still in progress cannot be deleted (400 RESOURCE_IN_USE): the
 * order must first end, e.g. as UNAVAILABLE. A finished order stays as history without its tool.
 */
export async function deleteTool(db: Database, id: string): Promise<void> {
  await writeOnFound(db, lockTool(id), async (tx, tool) => {
    if (tool.toolStateId === 'IN_ASSEMBLY') {
      throw new AppError('RESOURCE_IN_USE', {
        resource: 'tool',
        id,
        by: `the unfinished toolAssemblyOrder '${tool.toolAssemblyOrderId}'`,
      });
    }
    await TOOLS.remove(tx, tool, new Date());
  });
}

/**
 * The tool state command: AVAILABLE or UNAVAILABLE (unknown ids 404), refused while an unfinished
 * assembly order decides the state. A change of condition is saved without an event.
 */
export async function setToolState(db: Database, id: string, requested: string): Promise<ToolView> {
  return writeOnFound(db, lockTool(id), async (tx, before) => {
    if (!isSettableToolState(requested)) throw notFound('toolState', requested);
    if (before.toolStateId === 'IN_ASSEMBLY') {
      throw new AppError('INVALID_TRANSITION', {
        resource: 'tool',
        id,
        current: before.toolStateId,
        requested,
        allowed: 'none while its assembly order is unfinished',
      });
    }
    if (before.stateId === requested) return before;
    const after: ToolView = { ...before, stateId: requested, toolStateId: requested, updatedAt: new Date() };
    await tools.toolWrites.update(tx, after);
    return after;
  });
}

/** A tool's location; 404 when the tool has none (no workplace). */
export async function getToolLocation(db: Queryable, id: string): Promise<ToolLocation> {
  const tool = await getTool(db, id);
  if (tool.workplaceId === null) throw notFound('toolLocation', id);
  return { toolId: id, workplace: await getWorkplace(db, tool.workplaceId), place: tool.place };
}

/**
 * PUT location: the workplace (default: the one the tool is in) and the place in its magazine,
 * saved without an event (a move).
 */
export async function putToolLocation(
  db: Database,
  id: string,
  input: Omit<ToolLocationInput, 'workplaceId'> & { workplaceId: string | null },
): Promise<ToolLocation> {
  await writeOnFound(db, lockTool(id), async (tx, before) => {
    const workplaceId = input.workplaceId ?? before.workplaceId;
    if (workplaceId === null) {
      throw new AppError('VALIDATION_FAILED', { rule: 'required', field: 'workplaceId' });
    }
    await checkReference(tx, 'workplaceId', workplaceId, 'workplaces');
    await tools.toolWrites.update(tx, {
      ...before,
      workplaceId,
      place: placeOf(input),
      updatedAt: new Date(),
    });
  });
  return getToolLocation(db, id);
}

/** DELETE location: the tool is nowhere; 404 when it had no location. */
export async function deleteToolLocation(db: Database, id: string): Promise<void> {
  await writeOnFound(db, lockTool(id), async (tx, before) => {
    if (before.workplaceId === null) throw notFound('toolLocation', id);
    await tools.toolWrites.update(tx, {
      ...before,
      workplaceId: null,
      place: NO_PLACE,
      updatedAt: new Date(),
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Edges and characteristics

export const getToolEdge = gettingBelow('toolEdge', getTool, tools.findToolEdge);

/** A new cutting edge with its characteristics (emits TOOL_UPDATED naming `edges`). */
export async function createToolEdge(
  db: Database,
  toolId: string,
  input: ToolEdgeInput & { characteristics: Characteristic[] },
): Promise<ToolEdge> {
  const { characteristics, ...fields } = input;
  return writeOnFound(db, lockTool(toolId), async (tx, tool) => {
    const now = new Date();
    const edge: ToolEdge = newItem({ ...fields, toolId }, now);
    await tools.toolEdgeWrites.insert(tx, edge).catch(rethrowDuplicate('identifier', edge.identifier));
    await tools.replaceCharacteristics(tx, { toolId, edgeId: edge.id }, characteristics);
    await recordEvents(tx, toolUpdated(tool, ['edges']), now);
    return edge;
  });
}

/**
 * PUT an edge: identifier and lifeTime replaced. A change of the identifier or the limits emits
 * TOOL_UPDATED naming `edges`; used life alone is saved quietly.
 */
export async function replaceToolEdge(
  db: Database,
  toolId: string,
  edgeId: string,
  input: ToolEdgeInput,
): Promise<ToolEdge> {
  return writeOnFound(db, lockTool(toolId), async (tx, tool) => {
    const before = await found(tools.findToolEdge(tx, toolId, edgeId, true), 'toolEdge', edgeId);
    const after: ToolEdge = { ...before, ...input, lifeTime: { ...input.lifeTime } };
    const changed = changedEdgeCharacteristics(before, after);
    if (changed.length === 0 && before.lifeTime.current === after.lifeTime.current) return before;
    after.updatedAt = new Date();
    await tools.toolEdgeWrites.update(tx, after).catch(rethrowDuplicate('identifier', after.identifier));
    if (changed.length > 0) await recordEvents(tx, toolUpdated(tool, ['edges']), after.updatedAt);
    return after;
  });
}

/** The owner of a characteristics list exists: the tool, and the edge when one is named (404 otherwise). */
export async function checkCharacteristicsOwner(
  db: Queryable,
  owner: tools.CharacteristicsOwner,
): Promise<void> {
  if (owner.edgeId === null) await getTool(db, owner.toolId);
  else await getToolEdge(db, owner.toolId, owner.edgeId);
}

/**
 * PUT characteristics: the list replaces the tool's (or edge's) own, in order; a different list
 * emits TOOL_UPDATED naming `characteristics` (or `edges.characteristics`).
 */
export async function replaceToolCharacteristics(
  db: Database,
  owner: tools.CharacteristicsOwner,
  characteristics: Characteristic[],
): Promise<void> {
  await writeOnFound(db, lockTool(owner.toolId), async (tx, tool) => {
    if (owner.edgeId !== null) {
      await found(tools.findToolEdge(tx, owner.toolId, owner.edgeId, true), 'toolEdge', owner.edgeId);
    }
    if (sameCharacteristics(await tools.allCharacteristics(tx, owner), characteristics)) return;
    await tools.replaceCharacteristics(tx, owner, characteristics);
    const changed = owner.edgeId === null ? 'characteristics' : 'edges.characteristics';
    await recordEvents(tx, toolUpdated(tool, [changed]), new Date());
  });
}
