import { isUniqueViolation, type Queryable } from '../db/database.ts';
import { AppError } from '../domain/errors.ts';
import { isUuid } from '../domain/ids.ts';

/** Tables a body field may refer to, with the resource name 400 messages use. */
const REFERENCED = {
  workplaces: 'workplace',
  workplace_groups: 'workplaceGroup',
  production_orders: 'productionOrder',
  operations: 'operation',
  staff_members: 'staffMember',
  tools: 'tool',
  devices: 'device',
  documents: 'document',
} as const;
export type ReferencedTable = keyof typeof REFERENCED;

/**
 * A body field that names another resource must name an existing one: otherwise 400
 * INVALID_REFERENCE naming the field (e.g. `forecastResults[3].operationId`). `null` refers to nothing.
 * Inside a transaction, `FOR KEY SHARE` keeps the row from being deleted until the change commits.
 */
export async function checkReference(
  tx: Queryable,
  field: string,
  id: string | null | undefined,
  table: ReferencedTable,
): Promise<void> {
  if (id === null || id === undefined) return;
  const found =
    isUuid(id) && (await tx.query(`SELECT 1 FROM ${table} WHERE id = $1 FOR KEY SHARE`, [id])).length > 0;
  if (!found) throw new AppError('INVALID_REFERENCE', { field, id, expected: REFERENCED[table] });
}

/**
 * A `.catch` handler for inserts and updates: a unique violation becomes 400 ALREADY_EXISTS naming
 * the field and the value that collided; any other error passes through.
 */
export const rethrowDuplicate = (field: string, value: string) => (error: unknown) => {
  if (isUniqueViolation(error)) throw new AppError('ALREADY_EXISTS', { field, value });
  throw error;
};
