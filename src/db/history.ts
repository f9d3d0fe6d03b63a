// Histories: the records of one owner (the operating states of a workplace, the phases of an
// operation, the activities of a staff member), in a table with `id`, `start_date` and the owner.
import { isUuid } from '../domain/ids.ts';
import type { Queryable } from './database.ts';
import { byStartDate, type KeysetPage, type KeysetRequest, keysetPage } from './paging.ts';

/** Reads the history in `table` whose owner is in `ownerColumn`: a page newest start first, or one record. */
export function history<Row extends { id: string; start_date: Date }, Item>(
  table: string,
  ownerColumn: string,
  toItem: (row: Row) => Item,
) {
  return {
    async list(db: Queryable, ownerId: string, request: KeysetRequest): Promise<KeysetPage<Item>> {
      const page = await keysetPage(db, byStartDate<Row>(table, [`${ownerColumn} = $1`], [ownerId]), request);
      return { ...page, items: page.items.map(toItem) };
    },
    async find(db: Queryable, ownerId: string, id: string): Promise<Item | undefined> {
      if (!isUuid(id)) return undefined;
      const rows = await db.query<Row>(`SELECT * FROM ${table} WHERE ${ownerColumn} = $1 AND id = $2`, [
        ownerId,
        id,
      ]);
      return rows[0] === undefined ? undefined : toItem(rows[0]);
    },
  };
}
