// The steps every write of a resource repeats: read it or answer 404, change it in one transaction
// with the row locked, and record its events in that same transaction (eventService.ts).
import { v7 as uuidv7 } from 'uuid';
import type { Database, Queryable } from '../db/database.ts';
import type { RowWrites } from '../db/table.ts';
import { notFound } from '../domain/errors.ts';
import type { ChangeType, NewEvent } from '../domain/events.ts';
import { rethrowDuplicate, rethrowInUse } from './constraintErrors.ts';
import { recordEvents } from './eventService.ts';

/** What `find` gave, or NOT_FOUND naming the resource and the id asked for. */
export async function found<Item>(
  find: Promise<Item | undefined>,
  resource: string,
  id: string,
): Promise<Item> {
  const item = await find;
  if (!item) throw notFound(resource, id);
  return item;
}

/**
 * The read of a resource below an owner (a shift of a workplace): NOT_FOUND without the owner,
 * which `getOwner` reads, or without the resource below it.
 */
export const gettingBelow =
  <Item>(
    resource: string,
    getOwner: (db: Queryable, ownerId: string) => Promise<{ id: string }>,
    find: (db: Queryable, ownerId: string, id: string) => Promise<Item | undefined>,
  ) =>
  async (db: Queryable, ownerId: string, id: string): Promise<Item> => {
    const owner = await getOwner(db, ownerId);
    return found(find(db, owner.id, id), resource, id);
  };

/** A read of one resource for a write: `find` with its row locked, NOT_FOUND without it. */
export const locking =
  <Item>(
    resource: string,
    find: (tx: Queryable, id: string, forUpdate: boolean) => Promise<Item | undefined>,
  ) =>
  (id: string) =>
  (tx: Queryable): Promise<Item> =>
    found(find(tx, id, true), resource, id);

/**
 * A read of a resource below an owner for a write (a shift of a workplace): `lockOwner` first
 * (NOT_FOUND without the owner, and the writes below one owner take turns), then `find` with the
 * resource's row locked, NOT_FOUND without it.
 */
export const lockingBelow =
  <Item>(
    resource: string,
    lockOwner: (tx: Queryable, ownerId: string) => Promise<void>,
    find: (tx: Queryable, ownerId: string, id: string, forUpdate: boolean) => Promise<Item | undefined>,
  ) =>
  (ownerId: string, id: string) =>
  async (tx: Queryable): Promise<Item> => {
    await lockOwner(tx, ownerId);
    return found(find(tx, ownerId, id, true), resource, id);
  };

/**
 * Runs `write` in one transaction on the resource `read` gives there (`locking`), so concurrent
 * writes of it run one after the other; NOT_FOUND, and nothing written, without it.
 */
export function writeOnFound<Item, T>(
  db: Database,
  read: (tx: Queryable) => Promise<Item>,
  write: (tx: Queryable, item: Item) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => write(tx, await read(tx)));
}

/** An item as its table stores it: an id and the times of its creation and last change. */
interface Stored {
  id: string;
  createdAt: Date;
  updatedAt: Date;
}

/** A new item of these properties: a new id, created and last changed `at`. */
export const newItem = <Properties extends object>(properties: Properties, at: Date) => ({
  ...properties,
  id: uuidv7(),
  createdAt: at,
  updatedAt: at,
});

/**
 * How the items of a resource family are created, replaced and deleted: the writes of its table
 * (the repository's `<family>Writes`), the events each change emits, the rules a new or changed
 * item must pass that read the database, and the property a unique violation is about.
 */
export interface Lifecycle<Item extends Stored> {
  /** The resource as RESOURCE_IN_USE names it when a delete finds it still referenced. */
  resource: string;
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

/** An insert or update of `item`, a unique violation answered as the lifecycle's `unique` names it. */
async function storing<Item extends Stored>(lifecycle: Lifecycle<Item>, item: Item, write: Promise<void>) {
  const unique = lifecycle.unique?.(item);
  await (unique === undefined ? write : write.catch(rethrowDuplicate(...unique)));
}

/** Stores a new item after its checks and records its CREATED events, in the caller's transaction. */
export async function insertItem<Item extends Stored>(
  tx: Queryable,
  lifecycle: Lifecycle<Item>,
  item: Item,
): Promise<Item> {
  await lifecycle.check?.(tx, item);
  await storing(lifecycle, item, lifecycle.rows.insert(tx, item));
  await recordEvents(tx, lifecycle.events('CREATED', item), item.createdAt);
  return item;
}

/**
 * Stores a change of an item read with its row locked, in the caller's transaction: nothing when
 * no property changed (the item as it was); else the item after, once it passed its checks, with
 * its last change `at`, and its UPDATED events.
 */
export async function updateItem<Item extends Stored>(
  tx: Queryable,
  lifecycle: Lifecycle<Item>,
  before: Item,
  { after, changed }: Change<Item>,
  at: Date,
): Promise<Item> {
  if (changed.length === 0) return before;
  await lifecycle.check?.(tx, after);
  const stored = { ...after, updatedAt: at };
  await storing(lifecycle, stored, lifecycle.rows.update(tx, stored));
  await recordEvents(tx, lifecycle.events('UPDATED', stored, changed), at);
  return stored;
}

/** Deletes an item read with its row locked and records its DELETED events, in the caller's transaction. */
export async function removeItem<Item extends Stored>(
  tx: Queryable,
  lifecycle: Lifecycle<Item>,
  item: Item,
  at: Date,
): Promise<void> {
  await lifecycle.rows.delete(tx, item.id).catch(rethrowInUse(lifecycle.resource, item.id));
  await recordEvents(tx, lifecycle.events('DELETED', item), at);
}

/** POST: a new item stored with its CREATED events in one transaction. */
export function createItem<Item extends Stored>(
  db: Database,
  lifecycle: Lifecycle<Item>,
  item: Item,
): Promise<Item> {
  return db.transaction((tx) => insertItem(tx, lifecycle, item));
}

/**
 * PUT: on the item `read` gives (`locking`), `change` makes the item after and names what changed
 * (`at` is the change's time); stored by `updateItem`, all in one transaction.
 */
export function replaceOnFound<Item extends Stored>(
  db: Database,
  read: (tx: Queryable) => Promise<Item>,
  lifecycle: Lifecycle<Item>,
  change: (tx: Queryable, before: Item, at: Date) => Change<Item> | Promise<Change<Item>>,
): Promise<Item> {
  return writeOnFound(db, read, async (tx, before) => {
    const at = new Date();
    return updateItem(tx, lifecycle, before, await change(tx, before, at), at);
  });
}

/** DELETE: the item `read` gives (`locking`) deleted with its DELETED events, in one transaction. */
export async function deleteOnFound<Item extends Stored>(
  db: Database,
  read: (tx: Queryable) => Promise<Item>,
  lifecycle: Lifecycle<Item>,
): Promise<void> {
  await writeOnFound(db, read, (tx, item) => removeItem(tx, lifecycle, item, new Date()));
}
