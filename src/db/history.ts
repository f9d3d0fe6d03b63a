// Histories: the records of one owner (the operating states of a workplace, the phases of an
// operation, the activities of a staff member), in a table with `id`, `start_date` and the owner.
import type { Queryable } from './database.ts';
import type { KeysetPage, KeysetRequest } from './paging.ts';
import { byStartDate, findById, type Table, timestampPageOf } from './table.ts';

/** Reads the history in `table` whose owner is in `ownerColumn`: a page newest start first, or one record. */
export function history<Row extends { id: string; start_date: Date }, Item>(
  table: string,
  ownerColumn: string,
  toItem: (row: Row) => Item,
) {
  const records: Table<Row, Item> = { from: table, toItem };
  return {
    list(db: Queryable, ownerId: string, request: KeysetRequest): Promise<KeysetPage<Item>> {
      const owned = { where: [`${ownerColumn} = $1`], params: [ownerId] };
      return timestampPageOf(db, records, owned, byStartDate<Row>(), request);
    },
    find(db: Queryable, ownerId: string, id: string): Promise<Item | undefined> {
      return findById(db, records, id, { owner: [ownerColumn, ownerId] });
    },
  };
}
