// Reads of the master data kept in the database (docs/resources/masterData.md).
import type { Queryable } from '../db/database.ts';
import * as repository from '../db/repositories/masterDataRepository.ts';
import { AppError } from '../domain/errors.ts';
import type { Literal, MasterDataEntry, MaterialEntry } from '../domain/masterDataEntries.ts';
import { found } from './writes.ts';

/** The entry of `kind` with this id; NOT_FOUND naming it as `singular` ("ticketState"). */
export function getMasterDataEntry(
  db: Queryable,
  kind: string,
  singular: string,
  id: string,
): Promise<MasterDataEntry> {
  return found(repository.findMasterDataEntry(db, kind, id), singular, id);
}

/**
 * A body field that names an entry of `kind` (a ticket's `ticketClassId`) must name an existing
 * one: otherwise 400 INVALID_REFERENCE naming the field. `null` refers to nothing.
 */
export async function checkMasterDataReference(
  db: Queryable,
  field: string,
  id: string | null | undefined,
  kind: string,
  singular: string,
): Promise<MasterDataEntry | null> {
  if (id === null || id === undefined) return null;
  const entry = await repository.findMasterDataEntry(db, kind, id);
  if (!entry) throw new AppError('INVALID_REFERENCE', { field, id, expected: singular });
  return entry;
}

export function getLiteral(db: Queryable, id: string): Promise<Literal> {
  return found(repository.findLiteral(db, id), 'literal', id);
}

/** A material that a production order or operation names (docs/resources/masterData.md, "Materials"). */
export function getMaterial(db: Queryable, id: string): Promise<MaterialEntry> {
  return found(repository.findMaterial(db, id), 'material', id);
}
