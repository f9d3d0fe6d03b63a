import { v7 as uuidv7 } from 'uuid';
import type { Database } from '../db/database.ts';
import * as groups from '../db/repositories/workplaceGroupRepository.ts';
import { AppError } from '../domain/errors.ts';
import { resourcesUpdated } from '../domain/events.ts';
import { changedProperties, type WorkplaceGroup, type WorkplaceGroupInput } from '../domain/workplaces.ts';
import { rethrowDuplicate, rethrowInUse } from './constraintErrors.ts';
import { recordEvents } from './eventService.ts';
import { found, locking, writeOnFound } from './writes.ts';

const lockWorkplaceGroup = locking('workplaceGroup', groups.findWorkplaceGroup);

const CHARACTERISTICS = ['number', 'description', 'type', 'erpContextId'] as const;

// Workplace groups have no detail events in the catalogue; their changes are announced by the
// condensed RESOURCES_UPDATED with objectType WORKPLACE_GROUP.
const eventsFor = (change: 'CREATED' | 'UPDATED' | 'DELETED', group: WorkplaceGroup) => [
  resourcesUpdated('WORKPLACE_GROUP', change, group.id),
];

export async function getWorkplaceGroup(db: Database, id: string): Promise<WorkplaceGroup> {
  return found(groups.findWorkplaceGroup(db, id), 'workplaceGroup', id);
}

export async function createWorkplaceGroup(
  db: Database,
  input: WorkplaceGroupInput,
): Promise<WorkplaceGroup> {
  const now = new Date();
  const group: WorkplaceGroup = { ...input, id: uuidv7(), createdAt: now, updatedAt: now };
  await db.transaction(async (tx) => {
    await groups.insertWorkplaceGroup(tx, group).catch(rethrowDuplicate('number', input.number));
    await recordEvents(tx, eventsFor('CREATED', group), now);
  });
  return group;
}

export async function replaceWorkplaceGroup(
  db: Database,
  id: string,
  input: WorkplaceGroupInput,
): Promise<WorkplaceGroup> {
  return writeOnFound(db, lockWorkplaceGroup(id), async (tx, before) => {
    const after: WorkplaceGroup = { ...before, ...input };
    if (changedProperties(before, after, CHARACTERISTICS).length === 0) return before;
    if (before.type !== after.type && (await groups.countWorkplacesInGroup(tx, id, before.type)) > 0) {
      throw new AppError('RESOURCE_IN_USE', { resource: 'workplaceGroup', id, by: 'workplaces' });
    }
    after.updatedAt = new Date();
    await groups.updateWorkplaceGroup(tx, after).catch(rethrowDuplicate('number', input.number));
    await recordEvents(tx, eventsFor('UPDATED', after), after.updatedAt);
    return after;
  });
}

export async function deleteWorkplaceGroup(db: Database, id: string): Promise<void> {
  await writeOnFound(db, lockWorkplaceGroup(id), async (tx, group) => {
    await groups.deleteWorkplaceGroup(tx, group.id).catch(rethrowInUse('workplaceGroup', id));
    await recordEvents(tx, eventsFor('DELETED', group), new Date());
  });
}
