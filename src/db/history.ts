// Histories: the records of one owner (the operating states of a workplace, the phases of an
// operation, the activities of a staff member), in a table with `id`, `start_date`, `end_date`
// (NULL while a record is open) and the owner.
import type { Queryable } from './database.ts';
import {
  byStartDate,
  deleteById,
  insertRow,
  ownedAll,
  ownedBy,
  ownedFind,
  type Table,
  timestampList,
  updateById,
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
    /** Every record of the owner, oldest start first. */
    all: ownedAll(records, ownerColumn, 'start_date, id'),
    /**
     * The owner's records that overlap [from, to) (to null: on), newest start first: the
     * records a derived history over those periods needs.
     */
    async overlapping(db: Queryable, ownerId: string, from: Date, to: Date | null): Promise<Item[]> {
      const rows = await db.query<Row>(
        `SELECT * FROM ${table} WHERE ${ownerColumn} = $1 AND (end_date IS NULL OR end_date > $2)
         AND ($3::timestamptz IS NULL OR start_date < $3) ORDER BY start_date DESC, id DESC`,
        [ownerId, from, to],
      );
      return rows.map(toItem);
    },
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
    /**
     * The owner's records that end after `from` (the open one included), oldest first, locked:
     * what a correction from `from` on may change (docs/resources/workplaces.md, "Corrections").
     */
    async lockFrom(db: Queryable, ownerId: string, from: Date): Promise<Item[]> {
      const rows = await db.query<Row>(
        `SELECT * FROM ${table} WHERE ${ownerColumn} = $1 AND (end_date IS NULL OR end_date > $2)
         ORDER BY start_date, id FOR UPDATE`,
        [ownerId, from],
      );
      return rows.map(toItem);
    },
    /** A correction's removals and new dates of kept records (domain/historyCorrections.ts). */
    async reshape(
      db: Queryable,
      removed: readonly string[],
      changed: readonly { id: string; startDate: Date; endDate: Date | null }[],
    ): Promise<void> {
      for (const id of removed) await deleteById(db, table, id);
      for (const period of changed)
        await updateById(db, table, period.id, { start_date: period.startDate, end_date: period.endDate });
    },
  };
}
