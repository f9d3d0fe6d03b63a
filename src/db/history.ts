// Histories: the records of one owner (the operating states of a workplace, the phases of an
// operation, the activities of a staff member), in a table with `id`, `start_date`, `end_date`
// (NULL while a record is open) and the owner.
import type { Queryable } from './database.ts';
import {
  byStartDate,
  insertRow,
  ownedBy,
  ownedFind,
  type Table,
  timestampList,
  type Values,
} from './table.ts';

/**
 * Reads the history in `table` whose owner is in `ownerColumn` (a page newest start first, or one
 * record), and opens its next record.
 */
export function history<Row extends { id: string; start_date: Date }, Item>(
  table: string,
  ownerColumn: string,
  toItem: (row: Row) => Item,
) {
  const records: Table<Row, Item> = { from: table, toItem };
  return {
    list: timestampList(records, byStartDate<Row>(), ownedBy(ownerColumn)),
    find: ownedFind(records, ownerColumn),
    /**
     * Closes the owner's open record (if any) where the new one starts, and inserts the new one,
     * open; `columns` are its other columns (`id`, what it records).
     */
    async open(db: Queryable, ownerId: string, startDate: Date, columns: Values): Promise<void> {
      await db.query(`UPDATE ${table} SET end_date = $2 WHERE ${ownerColumn} = $1 AND end_date IS NULL`, [
        ownerId,
        startDate,
      ]);
      await insertRow(db, table, {
        ...columns,
        [ownerColumn]: ownerId,
        start_date: startDate,
        end_date: null,
      });
    },
  };
}
