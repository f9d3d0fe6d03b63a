import { v7 as uuidv7 } from 'uuid';
import type { Database, Queryable } from '../db/database.ts';
import { findWorkplaceGroup } from '../db/repositories/workplaceGroupRepository.ts';
import * as workplaces from '../db/repositories/workplaceRepository.ts';
import { AppError, notFound } from '../domain/errors.ts';
import { catalogueEvent } from '../domain/events.ts';
import {
  findOperatingState,
  INITIAL_OPERATING_STATE_CODE,
  OPERATING_STATES,
  type OperatingState,
  operatingStateById,
} from '../domain/masterData.ts';
import { outdatedByOperatingState } from '../domain/planning.ts';
import {
  changedProperties,
  type GeoCoordinates,
  resolveWorkplaceType,
  sameLocation,
  WORKPLACE_CHARACTERISTICS,
  type Workplace,
  type WorkplaceGroupType,
  type WorkplaceInput,
  type WorkplaceType,
} from '../domain/workplaces.ts';
import { lifecycle, newItem, primaryEvents } from './lifecycle.ts';
import { referencedOperatingState } from './referenceService.ts';
import { found, locking } from './writes.ts';

/** A workplace as a body gives it: the type and the flag may each be left out. */
export type WorkplaceBody = Omit<WorkplaceInput, 'workplaceType' | 'isManualWorkplace'> & {
  workplaceType?: WorkplaceType | undefined;
  isManualWorkplace?: boolean | undefined;
};

function withType(body: WorkplaceBody, stored?: WorkplaceType): WorkplaceInput {
  const { workplaceType: _type, isManualWorkplace: _flag, ...rest } = body;
  const resolved = resolveWorkplaceType(body, stored);
  if ('conflict' in resolved) {
    throw new AppError('VALIDATION_FAILED', {
      rule: 'value',
      field: 'isManualWorkplace',
      detail: resolved.conflict,
    });
  }
  return { ...rest, ...resolved };
}

const lockWorkplace = locking('workplace', workplaces.findWorkplace);

// The event data keeps the catalogue's properties (docs/events.md); a change of the type or the
// ERP context is still an update, named in changedProperties.
const EVENT_PROPERTIES = [
  'number',
  'description',
  'isManualWorkplace',
  'capacityGroupId',
  'productionLineId',
] as const;

/** The event data of WORKPLACE_CREATED/_UPDATED/_DELETED: the workplace's characteristic properties. */
function eventData(workplace: Workplace) {
  const data: Record<string, unknown> = { workplaceId: workplace.id };
  for (const key of EVENT_PROPERTIES) data[key] = workplace[key];
  return data;
}

/** Operating state as it appears in event data (texts in the default language). */
export function operatingStateData(state: OperatingState) {
  return {
    id: state.id,
    code: state.code,
    description: state.description['en-GB'],
    workplaceStateId: state.workplaceStateId,
  };
}

export async function getWorkplace(db: Queryable, id: string): Promise<Workplace> {
  return found(workplaces.findWorkplace(db, id), 'workplace', id);
}

async function checkGroup(tx: Queryable, field: string, id: string | null, type: WorkplaceGroupType) {
  if (id === null) return;
  const group = await findWorkplaceGroup(tx, id);
  if (!group || group.type !== type) throw new AppError('INVALID_REFERENCE', { field, id, expected: type });
}

async function checkReferences(tx: Queryable, input: WorkplaceInput) {
  await checkGroup(tx, 'capacityGroupId', input.capacityGroupId, 'CAPACITY_GROUP');
  await checkGroup(tx, 'productionLineId', input.productionLineId, 'PRODUCTION_LINE');
}

const WORKPLACES = lifecycle<Workplace>('workplace', {
  rows: workplaces.workplaceWrites,
  events: primaryEvents('WORKPLACE', eventData),
  check: checkReferences,
  unique: (workplace) => ['number', workplace.number],
});

export async function createWorkplace(
  db: Database,
  input: WorkplaceBody & { operatingStateId?: string | undefined },
): Promise<Workplace> {
  const { operatingStateId, ...body } = input;
  const properties = withType(body);
  const state = referencedOperatingState(operatingStateId ?? INITIAL_OPERATING_STATE_CODE);
  const now = new Date();
  const workplace: Workplace = newItem(
    { ...properties, operatingStateId: state.id, geoCoordinates: null },
    now,
  );
  await db.transaction(async (tx) => {
    await WORKPLACES.insert(tx, workplace);
    await workplaces.recordOperatingState(tx, {
      id: uuidv7(),
      workplaceId: workplace.id,
      operatingStateId: state.id,
      startDate: now,
      endDate: null,
      machineStateDetailIds: [],
      remark: null,
    });
  });
  return workplace;
}

export async function replaceWorkplace(db: Database, id: string, body: WorkplaceBody): Promise<Workplace> {
  return WORKPLACES.replace(db, lockWorkplace(id), (_tx, before) => {
    const after: Workplace = { ...before, ...withType(body, before.workplaceType) };
    return { after, changed: changedProperties(before, after, WORKPLACE_CHARACTERISTICS) };
  });
}

/**
 * Sets where a workplace is, or clears it (null): WORKPLACE_UPDATED naming `location` when that
 * changes, as a replace names a changed property; the same location again changes nothing.
 */
export async function putWorkplaceLocation(
  db: Database,
  id: string,
  geoCoordinates: GeoCoordinates | null,
): Promise<Workplace> {
  return WORKPLACES.replace(db, lockWorkplace(id), (_tx, before) => ({
    after: { ...before, geoCoordinates },
    changed: sameLocation(before.geoCoordinates, geoCoordinates) ? [] : ['location'],
  }));
}

/** Its operations, devices, tools, ... keep a workplace (400 RESOURCE_IN_USE). */
export async function deleteWorkplace(db: Database, id: string): Promise<void> {
  await WORKPLACES.delete(db, lockWorkplace(id));
}

/** How a state was set: the machine state details (reasons) and remark its record keeps. */
export interface StateReasons {
  machineStateDetailIds: string[];
  remark: string | null;
}

const NO_REASONS: StateReasons = { machineStateDetailIds: [], remark: null };

/**
 * The operating-state command. Any change to a different state is allowed; asking for the state
 * the workplace is already in changes nothing and emits nothing, so a repeated command is harmless.
 */
export async function changeOperatingState(
  db: Database,
  id: string,
  operatingStateIdOrCode: string,
): Promise<Workplace> {
  const target = findOperatingState(operatingStateIdOrCode);
  if (!target) {
    await getWorkplace(db, id); // an unknown workplace is the first 404
    throw notFound('operatingState', operatingStateIdOrCode);
  }
  return moveOperatingState(db, id, target, NO_REASONS);
}

/** Every operating state's event data by id, for the state a change leaves. */
const STATE_DATA = JSON.stringify(
  Object.fromEntries(OPERATING_STATES.map((state) => [state.id, operatingStateData(state)])),
);

/**
 * Moves a workplace to `target` (the operating-state command's rule, also a machine state's:
 * docs/resources/machines.md): with its row locked, a new open record keeping `reasons`,
 * WORKPLACE_OPERATING_STATE_CHANGED and what the change outdates; nothing when it is in that
 * state already. One database call (docs/decisions/0009-writes-in-one-round-trip.md); NOT_FOUND
 * without the workplace.
 */
export async function moveOperatingState(
  db: Queryable,
  id: string,
  target: OperatingState,
  reasons: StateReasons,
): Promise<Workplace> {
  const move = workplaces.moveOperatingState(db, {
    workplaceId: id,
    operatingStateId: target.id,
    at: new Date(),
    ...reasons,
    changed: catalogueEvent('WORKPLACE_OPERATING_STATE_CHANGED', id, {
      workplaceId: id,
      currentOperatingState: operatingStateData(target),
    }),
    stateData: STATE_DATA,
    outdated: outdatedByOperatingState(id, target),
  });
  return found(move, 'workplace', id);
}

/** WORKPLACE_OPERATING_STATE_CHANGED of a workplace leaving its state for `target`. */
export const operatingStateChanged = (before: Workplace, target: OperatingState) =>
  catalogueEvent('WORKPLACE_OPERATING_STATE_CHANGED', before.id, {
    workplaceId: before.id,
    currentOperatingState: operatingStateData(target),
    previousOperatingState: operatingStateData(operatingStateById(before.operatingStateId)),
  });
