// The one shape of creating, replacing and deleting an item of a resource family: each write
// checks, stores and records its events in one transaction (docs/decisions/0004), on the item read
// with its row locked (writes.ts, `locking`).
import { v7 as uuidv7 } from 'uuid';
import type { Database, Queryable } from '../db/database.ts';
import type { RowWrites } from '../db/table.ts';
import {
  type ChangeType,
  catalogueEvent,
  lifecycleEvents,
  type NewEvent,
  type ObjectType,
} from '../domain/events.ts';
import type { Stored } from '../domain/stored.ts';
import { rethrowDuplicate, rethrowInUse } from './constraintErrors.ts';
import { recordEvents } from './eventService.ts';
import { gettingBelow, lockingBelow, writeOnFound } from './writes.ts';

/**
 * What a family states of itself: the writes of its table (the repository's `<family>Writes`),
 * the events each change emits, the rules a new or changed item must pass that read the database,
 * and the property a unique violation is about.
 */
export interface Family<Item extends Stored> {
  rows: RowWrites<Item>;
  /** The events of a change (docs/events.md); `changed` names the changed properties of an update. */
  events: (change: ChangeType, item: Item, changed?: string[]) => NewEvent[];
  /** The rules of a new or changed item that read the database (its references); none without it. */
  check?: (tx: Queryable, item: Item) => Promise<void>;
  /** The field and value a unique violation is about (400 ALREADY_EXISTS); none without it. */
  unique?: (item: Item) => [field: string, value: string];
}

/** What a replace makes of an item: the item after it, and the properties that changed (none: no write). */
export interface Change<Item> {
  after: Item;
  changed: string[];
}

/** The read of the item a write changes, with its row locked (writes.ts, `locking`). */
type LockedRead<Item> = (tx: Queryable) => Promise<Item>;

/** Event data, with the properties an update changed (`changedProperties`) when it names them. */
export const withChanged = (data: Record<string, unknown>, changed?: string[]): Record<string, unknown> =>
  changed === undefined ? data : { ...data, changedProperties: changed };

/**
 * The events of a primary resource's change (domain/events.ts, `lifecycleEvents`): its detail
 * event with the item's data and the properties an update changed, and RESOURCES_UPDATED.
 */
export const primaryEvents =
  <Item extends Stored>(objectType: ObjectType, dataOf: (item: Item) => Record<string, unknown>) =>
  (change: ChangeType, item: Item, changed?: string[]): NewEvent[] =>
    lifecycleEvents(objectType, change, item.id, withChanged(dataOf(item), changed));

/**
 * The events of a change of an item below an owner: the catalogue's `<prefix>_<change>` about
 * the owner, with the item's data and the properties an update changed.
 */
export const ownerEvents =
  <Item extends Stored>(
    prefix: string,
    ownerIdOf: (item: Item) => string,
    dataOf: (item: Item) => Record<string, unknown>,
  ) =>
  (change: ChangeType, item: Item, changed?: string[]): NewEvent[] => [
    catalogueEvent(`${prefix}_${change}`, ownerIdOf(item), withChanged(dataOf(item), changed)),
  ];

/** A new item of these properties: a new id, created and last changed `at`. */
export const newItem = <Properties extends object>(properties: Properties, at: Date) => ({
  ...properties,
  id: uuidv7(),
  createdAt: at,
  updatedAt: at,
});

/**
 * The writes of the items of `resource` (as RESOURCE_IN_USE names it): in the caller's
 * transaction, or each in its own (`create`, `replace`, `delete`).
 */
export function lifecycle<Item extends Stored>(resource: string, family: Family<Item>) {
  /** An insert or update, a unique violation answered as `unique` names it. */
  const storing = async (item: Item, write: Promise<void>) => {
    const unique = family.unique?.(item);
    await (unique === undefined ? write : write.catch(rethrowDuplicate(...unique)));
  };

  /** Stores a new item after its checks and records its CREATED events. */
  const insert = async (tx: Queryable, item: Item): Promise<Item> => {
    await family.check?.(tx, item);
    await storing(item, family.rows.insert(tx, item));
    await recordEvents(tx, family.events('CREATED', item), item.createdAt);
    return item;
  };

  /**
   * Stores a change of an item read with its row locked: nothing when no property changed (the
   * item as it was); else the item after, once it passed its checks, last changed `at`, with its
   * UPDATED events.
   */
  const update = async (tx: Queryable, before: Item, { after, changed }: Change<Item>, at: Date) => {
    if (changed.length === 0) return before;
    await family.check?.(tx, after);
    const stored: Item = { ...after, updatedAt: at };
    await storing(stored, family.rows.update(tx, stored));
    await recordEvents(tx, family.events('UPDATED', stored, changed), at);
    return stored;
  };

  /** Deletes an item read with its row locked and records its DELETED events. */
  const remove = async (tx: Queryable, item: Item, at: Date): Promise<void> => {
    await family.rows.delete(tx, item.id).catch(rethrowInUse(resource, item.id));
    await recordEvents(tx, family.events('DELETED', item), at);
  };

  return {
    events: family.events,
    insert,
    update,
    remove,
    /** POST: a new item with its CREATED events. */
    create: (db: Database, item: Item): Promise<Item> => db.transaction((tx) => insert(tx, item)),
    /** PUT: on the item `read` gives, `change` makes the item after (`at`: the change's time). */
    replace: (
      db: Database,
      read: LockedRead<Item>,
      change: (tx: Queryable, before: Item, at: Date) => Change<Item> | Promise<Change<Item>>,
    ): Promise<Item> =>
      writeOnFound(db, read, async (tx, before) => {
        const at = new Date();
        return update(tx, before, await change(tx, before, at), at);
      }),
    /** DELETE: the item `read` gives, with its DELETED events. */
    delete: (db: Database, read: LockedRead<Item>): Promise<void> =>
      writeOnFound(db, read, (tx, item) => remove(tx, item, new Date())),
  };
}

/** What the items below an owner state beside their Family: the owner, the find, and their input. */
export interface OwnedFamily<Item extends Stored, Input extends object> extends Family<Item> {
  /** The owner's read (404 without it) and its lock for a write below it (404 without it). */
  owner: {
    get: (db: Queryable, ownerId: string) => Promise<{ id: string }>;
    lock: (tx: Queryable, ownerId: string) => Promise<void>;
  };
  /** One item of an owner by id, its row locked when a write asks for it. */
  find: (db: Queryable, ownerId: string, id: string, lock?: boolean) => Promise<Item | undefined>;
  /** The rules of an input that need no database, checked before the transaction opens. */
  checkInput: (input: Input) => void;
  /** The rules of an input that read the database, checked once the owner is locked. */
  checkReferences?: (tx: Queryable, input: Input) => Promise<void>;
  /** The new item of an input below an owner (`newItem`). */
  create: (input: Input, ownerId: string, at: Date) => Item;
  /** The properties an input changed (`changedProperties`). */
  changed: (before: Item, after: Item) => string[];
}

/**
 * The read and the writes of the items below an owner (a group's rules, a workplace's maintenance
 * tasks) whose input replaces what a client sets: every write locks the owner first, so the
 * writes below one owner take turns and the owner cannot go meanwhile.
 */
export function ownedLifecycle<Item extends Stored, Input extends object>(
  resource: string,
  family: OwnedFamily<Item, Input>,
) {
  const items = lifecycle(resource, family);
  const lockItem = lockingBelow(resource, family.owner.lock, family.find);
  return {
    /** One item of the owner: 404 when there is no such owner, or no such item of it. */
    get: gettingBelow(resource, family.owner.get, family.find),
    create: async (db: Database, ownerId: string, input: Input): Promise<Item> => {
      family.checkInput(input);
      return db.transaction(async (tx) => {
        await family.owner.lock(tx, ownerId);
        await family.checkReferences?.(tx, input);
        return items.insert(tx, family.create(input, ownerId, new Date()));
      });
    },
    replace: async (db: Database, ownerId: string, id: string, input: Input): Promise<Item> => {
      family.checkInput(input);
      return items.replace(db, lockItem(ownerId, id), async (tx, before) => {
        await family.checkReferences?.(tx, input);
        const after: Item = { ...before, ...input };
        return { after, changed: family.changed(before, after) };
      });
    },
    delete: async (db: Database, ownerId: string, id: string): Promise<void> => {
      await items.delete(db, lockItem(ownerId, id));
    },
  };
}
