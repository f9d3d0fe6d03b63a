// The steps every write of a resource repeats: read it or answer 404, change it in one transaction
// with the row locked (its events are recorded in that same transaction through eventService.ts).
import type { Database, Queryable } from '../db/database.ts';
import { notFound } from '../domain/errors.ts';

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
