// Machines (docs/resources/machines.md): one per machine workplace, with the workplace's id. A
// machine state sets the workplace's operating state through the master data's mapping (the same
// change as the operating-state command); counts, strokes and quantities with a quality detail
// book output quantities at the workplace (the same booking as a connector's counter). Each is a
// plain function so a command (POST /commands) can run the same code.
import type { Database, Queryable } from '../db/database.ts';
import type { OffsetPage, OffsetRequest } from '../db/paging.ts';
import { listMasterDataEntries } from '../db/repositories/masterDataRepository.ts';
import * as workplaces from '../db/repositories/workplaceRepository.ts';
import { notFound } from '../domain/errors.ts';
import {
  hasMachine,
  MACHINE_STATE_DETAILS,
  MACHINE_STATES,
  type Machine,
  machineOf,
  operatingStateIdFor,
  QUALITY_DETAILS,
  qualityTypeOf,
} from '../domain/machines.ts';
import { operatingStateById } from '../domain/masterData.ts';
import type { MasterDataEntry } from '../domain/masterDataEntries.ts';
import type { QuantityType } from '../domain/outputQuantities.ts';
import type { Workplace } from '../domain/workplaces.ts';
import { bookAtWorkplace } from './connectorCounters.ts';
import { checkMasterDataReference, getMasterDataEntry } from './masterDataService.ts';
import { moveOperatingState } from './workplaceService.ts';
import { writeOnFound } from './writes.ts';

/** Every machine state there is: a handful, read whole. */
const ALL: OffsetRequest = { offset: 0, limit: 1000 };

/** The machines of these workplaces, in their order (a manual workplace's too: callers pick by `hasMachine`). */
export async function machinesOf(db: Queryable, found: readonly Workplace[]): Promise<Machine[]> {
  const states = (await listMasterDataEntries(db, MACHINE_STATES, ALL)).items;
  return found.map((workplace) =>
    machineOf(workplace, operatingStateById(workplace.operatingStateId), states),
  );
}

async function machineOfWorkplace(db: Queryable, workplace: Workplace): Promise<Machine> {
  return (await machinesOf(db, [workplace]))[0] as Machine;
}

/** The machine workplace `id` names (the machine's id is its workplace's), locked when `forUpdate`. */
async function machineWorkplace(db: Queryable, id: string, forUpdate: boolean): Promise<Workplace> {
  const workplace = await workplaces.findWorkplace(db, id, forUpdate);
  if (!workplace || !hasMachine(workplace)) throw notFound('machine', id);
  return workplace;
}

const lockMachine = (id: string) => (tx: Queryable) => machineWorkplace(tx, id, true);

export async function getMachine(db: Queryable, id: string): Promise<Machine> {
  return machineOfWorkplace(db, await machineWorkplace(db, id, false));
}

export interface MachineFilter {
  machineNumber?: string | undefined;
  workplaceNumber?: string | undefined;
}

/** The machines by number; a machine's number is its workplace's, so both filters name it. */
export async function listMachines(
  db: Queryable,
  filter: MachineFilter,
  page: OffsetRequest,
): Promise<OffsetPage<Machine>> {
  const numbers = [filter.machineNumber, filter.workplaceNumber].filter((value) => value !== undefined);
  if (new Set(numbers).size > 1) return { items: [], total: 0 };
  const found = await workplaces.listWorkplaces(
    db,
    { withMachine: true, ...(numbers[0] === undefined ? {} : { workplaceNumber: numbers[0] }) },
    page,
  );
  return { items: await machinesOf(db, found.items), total: found.total };
}

export interface MachineStateInput {
  machineStateId: string;
  machineStateDetailIds?: string[] | undefined;
  remark?: string | undefined;
}

async function detailsOf(tx: Queryable, ids: readonly string[], field: string): Promise<MasterDataEntry[]> {
  const details: MasterDataEntry[] = [];
  for (const id of ids) {
    const detail = await checkMasterDataReference(tx, field, id, MACHINE_STATE_DETAILS, 'machineStateDetail');
    if (detail) details.push(detail);
  }
  return details;
}

/**
 * Sets a machine's state: the workplace takes the operating state the first detail (else the
 * machine state) maps to, with WORKPLACE_OPERATING_STATE_CHANGED; its record keeps the details
 * and the remark. 404 for an unknown machine or machine state; 400 naming machineStateDetailIds
 * for a detail that is unknown or a reason of another machine state.
 */
export async function setMachineState(
  db: Database,
  machineId: string,
  input: MachineStateInput,
): Promise<Machine> {
  return writeOnFound(db, lockMachine(machineId), async (tx, before) => {
    const state = await getMasterDataEntry(tx, MACHINE_STATES, 'machineState', input.machineStateId);
    const ids = input.machineStateDetailIds ?? [];
    const details = await detailsOf(tx, ids, 'machineStateDetailIds');
    const target = operatingStateById(operatingStateIdFor(state, details, 'machineStateDetailIds'));
    const after = await moveOperatingState(tx, before.id, target, {
      machineStateDetailIds: ids,
      remark: input.remark ?? null,
    });
    return machineOfWorkplace(tx, after);
  });
}

async function bookPieces(
  db: Database,
  machineId: string,
  quantity: number,
  quantityType: (tx: Queryable) => Promise<{ type: QuantityType; qualityDetailId: string | null }>,
): Promise<Machine> {
  return writeOnFound(db, lockMachine(machineId), async (tx, workplace) => {
    const { type, qualityDetailId } = await quantityType(tx);
    const now = new Date();
    await bookAtWorkplace(
      tx,
      {
        workplaceId: workplace.id,
        quantity,
        quantityType: type,
        timestamp: now,
        connectorId: null,
        qualityDetailId,
      },
      now,
    );
    return machineOfWorkplace(tx, workplace);
  });
}

// A machine's count is not yet yield, scrap or rework: the SDK's "uncategorized" quantity.
const uncategorized = async () => ({ type: 'UNCATEGORIZED' as const, qualityDetailId: null });

/** Pieces a machine counted: UNCATEGORIZED on the operation in PROCESSING there, else the workplace. */
export function increaseCounter(db: Database, machineId: string, input: { count: number }): Promise<Machine> {
  return bookPieces(db, machineId, input.count, uncategorized);
}

/** Strokes of a machine, one piece each, booked as a count is. */
export function addStrokes(db: Database, machineId: string, input: { strokes: number }): Promise<Machine> {
  return bookPieces(db, machineId, input.strokes, uncategorized);
}

/** The quality type (YIELD, SCRAP, REWORK) of a quality detail a body names; 400 naming `field`. */
export async function qualityOf(tx: Queryable, field: string, qualityDetailId: string) {
  const detail = await checkMasterDataReference(tx, field, qualityDetailId, QUALITY_DETAILS, 'qualityDetail');
  return { type: qualityTypeOf(detail as MasterDataEntry) as QuantityType, qualityDetailId };
}

/** A quantity with a quality detail: booked as the detail's quality type, with the detail. */
export function bookMachineQuantity(
  db: Database,
  machineId: string,
  input: { quantity: number; qualityDetailId: string },
): Promise<Machine> {
  return bookPieces(db, machineId, input.quantity, (tx) =>
    qualityOf(tx, 'qualityDetailId', input.qualityDetailId),
  );
}

/** The machine of a workplace: 404 without the workplace, or when it is a manual one. */
export async function getWorkplaceMachine(db: Queryable, workplaceId: string): Promise<Machine> {
  const workplace = await workplaces.findWorkplace(db, workplaceId);
  if (!workplace) throw notFound('workplace', workplaceId);
  if (!hasMachine(workplace)) throw notFound('machine', workplaceId);
  return machineOfWorkplace(db, workplace);
}
