// The checks every write makes on the resources its body refers to.
import type { Queryable } from '../db/database.ts';
import { lockReferencedRow, type ReferencedTable } from '../db/repositories/referenceRepository.ts';
import { AppError } from '../domain/errors.ts';
import { isUuid } from '../domain/ids.ts';
import { findOperatingState, type OperatingState } from '../domain/masterData.ts';

/** The resource name 400 messages use for each table a body field may refer to. */
const REFERENCED: Record<ReferencedTable, string> = {
  workplaces: 'workplace',
  workplace_groups: 'workplaceGroup',
  production_orders: 'productionOrder',
  operations: 'operation',
  staff_members: 'staffMember',
  tools: 'tool',
  devices: 'device',
  documents: 'document',
  shifts: 'shift',
};

/**
 * A body field that names another resource must name an existing one: otherwise 400
 * INVALID_REFERENCE naming the field (e.g. `forecastResults[3].operationId`). `null` refers to nothing.
 * Inside a transaction the row stays locked against deletion until the change commits.
 */
export async function checkReference(
  tx: Queryable,
  field: string,
  id: string | null | undefined,
  table: ReferencedTable,
): Promise<void> {
  if (id === null || id === undefined) return;
  const found = isUuid(id) && (await lockReferencedRow(tx, table, id));
  if (!found) throw invalidReference(field, id, table);
}

/** 400 INVALID_REFERENCE: the body field `field` names a row of `table` that is not there. */
export const invalidReference = (field: string, id: string, table: ReferencedTable): AppError =>
  new AppError('INVALID_REFERENCE', { field, id, expected: REFERENCED[table] });

/** The operating state a body names by id or code (`operatingStateId`): 400 INVALID_REFERENCE without one. */
export function referencedOperatingState(idOrCode: string): OperatingState {
  const state = findOperatingState(idOrCode);
  if (!state) {
    throw new AppError('INVALID_REFERENCE', {
      field: 'operatingStateId',
      id: idOrCode,
      expected: 'operatingState',
    });
  }
  return state;
}
