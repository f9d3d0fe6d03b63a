// Whether a row a body field refers to exists, for the reference check of the services.
import type { Queryable } from '../database.ts';

/** Tables a body field may refer to. */
export type ReferencedTable =
  | 'workplaces'
  | 'workplace_groups'
  | 'production_orders'
  | 'operations'
  | 'staff_members'
  | 'tools'
  | 'devices'
  | 'documents'
  | 'shifts';

/**
 * True when the row exists. Inside a transaction `FOR KEY SHARE` keeps it from being deleted
 * until the change that refers to it commits. `id` must be a UUID (the column type).
 */
export async function lockReferencedRow(tx: Queryable, table: ReferencedTable, id: string): Promise<boolean> {
  return (await tx.query(`SELECT 1 FROM ${table} WHERE id = $1 FOR KEY SHARE`, [id])).length > 0;
}
