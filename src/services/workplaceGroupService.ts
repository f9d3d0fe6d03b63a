import type { Database, Queryable } from '../db/database.ts';
import * as groups from '../db/repositories/workplaceGroupRepository.ts';
import { AppError } from '../domain/errors.ts';
import { resourcesUpdated } from '../domain/events.ts';
import type { Stored } from '../domain/stored.ts';
import {
  changedProperties,
  WORKPLACE_GROUP_CHARACTERISTICS,
  type WorkplaceGroup,
  type WorkplaceGroupInput,
} from '../domain/workplaces.ts';
import { lifecycle, newItem, type OwnedFamily, ownedLifecycle, ownerEvents } from './lifecycle.ts';
import { found, locking } from './writes.ts';

const lockWorkplaceGroup = locking('workplaceGroup', groups.findWorkplaceGroup);

const GROUPS = lifecycle<WorkplaceGroup>('workplaceGroup', {
  rows: groups.workplaceGroupWrites,
  // Workplace groups have no detail events in the catalogue; their changes are announced by the
  // condensed RESOURCES_UPDATED with objectType WORKPLACE_GROUP.
  events: (change, group) => [resourcesUpdated('WORKPLACE_GROUP', change, group.id)],
  unique: (group) => ['number', group.number],
});

export async function getWorkplaceGroup(db: Queryable, id: string): Promise<WorkplaceGroup> {
  return found(groups.findWorkplaceGroup(db, id), 'workplaceGroup', id);
}

/** Locks a group's row for a write below it (its rules), so those writes take turns; NOT_FOUND without it. */
async function lockWorkplaceGroupBelow(tx: Queryable, id: string): Promise<void> {
  await lockWorkplaceGroup(id)(tx);
}

/** A rule of a workplace group as stored: its input, the group's id, and what every item has. */
type GroupRule<Input> = Input & Stored & { workplaceGroupId: string };

/**
 * The read and writes of a kind of rules of a workplace group (setup transitions, manufacturing
 * variants): each write locks the group first, and each change's `<prefix>_*` event is about the
 * group, with the rule's `eventData`.
 */
export const groupRules = <Input extends object>(
  resource: string,
  prefix: string,
  family: Omit<OwnedFamily<GroupRule<Input>, Input>, 'owner' | 'events' | 'create'> & {
    eventData: (rule: GroupRule<Input>) => Record<string, unknown>;
  },
) =>
  ownedLifecycle<GroupRule<Input>, Input>(resource, {
    ...family,
    owner: { get: getWorkplaceGroup, lock: lockWorkplaceGroupBelow },
    events: ownerEvents(prefix, (rule) => rule.workplaceGroupId, family.eventData),
    create: (input, groupId, at) => newItem({ ...input, workplaceGroupId: groupId }, at),
  });

export async function createWorkplaceGroup(
  db: Database,
  input: WorkplaceGroupInput,
): Promise<WorkplaceGroup> {
  return GROUPS.create(db, newItem(input, new Date()));
}

/** A group its workplaces use in its role keeps its type (400 RESOURCE_IN_USE). */
export async function replaceWorkplaceGroup(
  db: Database,
  id: string,
  input: WorkplaceGroupInput,
): Promise<WorkplaceGroup> {
  return GROUPS.replace(db, lockWorkplaceGroup(id), async (tx, before) => {
    const after: WorkplaceGroup = { ...before, ...input };
    if (before.type !== after.type && (await groups.countWorkplacesInGroup(tx, id, before.type)) > 0) {
      throw new AppError('RESOURCE_IN_USE', { resource: 'workplaceGroup', id, by: 'workplaces' });
    }
    return { after, changed: changedProperties(before, after, WORKPLACE_GROUP_CHARACTERISTICS) };
  });
}

export async function deleteWorkplaceGroup(db: Database, id: string): Promise<void> {
  await GROUPS.delete(db, lockWorkplaceGroup(id));
}
