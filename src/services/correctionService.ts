// Corrections of the operating-state history (docs/resources/workplaces.md, "Corrections"): a
// period is inserted into a workplace's records, splitting and trimming the ones it overlaps
// (domain/historyCorrections.ts), in one transaction with its events. Summaries and reports read
// the history, so they follow. A period that reaches now also sets the current operating state.
import { v7 as uuidv7 } from 'uuid';
import type { Database, Queryable } from '../db/database.ts';
import * as operations from '../db/repositories/operationRepository.ts';
import * as workplaces from '../db/repositories/workplaceRepository.ts';
import { AppError, notFound } from '../domain/errors.ts';
import { catalogueEvent } from '../domain/events.ts';
import { checkCorrectionDates, insertPeriod, periodEnd } from '../domain/historyCorrections.ts';
import {
  hasMachine,
  MACHINE_STATE_DETAILS,
  MACHINE_STATES,
  operatingStateIdFor,
} from '../domain/machines.ts';
import { type OperatingState, operatingStateById } from '../domain/masterData.ts';
import type { MasterDataEntry } from '../domain/masterDataEntries.ts';
import type { Operation } from '../domain/operations.ts';
import type { Workplace } from '../domain/workplaces.ts';
import { recordEvents } from './eventService.ts';
import { checkMasterDataReference, getMasterDataEntry } from './masterDataService.ts';
import { referencedOperatingState } from './referenceService.ts';
import { operatingStateChanged, operatingStateData, type StateReasons } from './workplaceService.ts';
import { found, locking, writeOnFound } from './writes.ts';

interface PeriodInput {
  startDate: Date;
  /** Null: to where the next record starts, or on (the current state) when none does. */
  endDate: Date | null;
}

export interface OperatingStateCorrection extends PeriodInput {
  operatingStateId: string;
  remark?: string | undefined;
}

const lockWorkplace = locking('workplace', workplaces.findWorkplace);

/** Inserts the period with `target` into the locked workplace's history; returns the workplace after. */
async function insertOperatingState(
  tx: Queryable,
  before: Workplace,
  target: OperatingState,
  period: PeriodInput,
  reasons: StateReasons,
  operationId: string | null,
): Promise<Workplace> {
  const now = new Date();
  checkCorrectionDates(period.startDate, period.endDate, now);
  const records = await workplaces.lockOperatingStatesFrom(tx, before.id, period.startDate);
  const end = periodEnd(records, period.startDate, period.endDate);
  const correction = insertPeriod(records, period.startDate, end, uuidv7());
  await workplaces.reshapeOperatingStates(tx, correction.removed, correction.changed);
  if (correction.tail) {
    const { from: _split, ...tail } = correction.tail;
    await workplaces.insertRecordedOperatingState(tx, tail);
  }
  const record = {
    id: uuidv7(),
    workplaceId: before.id,
    operatingStateId: target.id,
    startDate: period.startDate,
    endDate: end,
    ...reasons,
  };
  await workplaces.insertRecordedOperatingState(tx, record);
  const events = [
    catalogueEvent('WORKPLACE_RECORDED_OPERATING_STATES_CORRECTED', before.id, {
      workplaceId: before.id,
      operationId,
      recordedOperatingStateId: record.id,
      operatingState: operatingStateData(target),
      startDate: record.startDate.toISOString(),
      endDate: record.endDate?.toISOString() ?? null,
      machineStateDetailIds: record.machineStateDetailIds,
      remark: record.remark,
      removedRecordIds: correction.removed,
    }),
  ];
  let after = before;
  // The period reaches now: the workplace is in its state from here on.
  if (end === null && before.operatingStateId !== target.id) {
    after = { ...before, operatingStateId: target.id, updatedAt: now };
    await workplaces.workplaceWrites.update(tx, after);
    events.push(operatingStateChanged(before, target));
  }
  await recordEvents(tx, events, now);
  return after;
}

const reasonsOf = (input: { remark?: string | undefined }, machineStateDetailIds: string[] = []) => ({
  machineStateDetailIds,
  remark: input.remark ?? null,
});

/** POST /workplaces/{id}/recordedOperatingStates/update. */
export async function correctWorkplaceOperatingStates(
  db: Database,
  workplaceId: string,
  input: OperatingStateCorrection,
): Promise<Workplace> {
  return writeOnFound(db, lockWorkplace(workplaceId), (tx, before) =>
    insertOperatingState(
      tx,
      before,
      referencedOperatingState(input.operatingStateId),
      input,
      reasonsOf(input),
      null,
    ),
  );
}

/**
 * POST /operations/{id}/recordedOperatingStates/update: the period goes into the history of the
 * operation's workplace, where the operation's operating states are read from.
 */
export async function correctOperationOperatingStates(
  db: Database,
  operationId: string,
  input: OperatingStateCorrection,
): Promise<Operation> {
  return db.transaction(async (tx) => {
    const operation = await found(operations.findOperation(tx, operationId), 'operation', operationId);
    const target = referencedOperatingState(input.operatingStateId);
    if (operation.workplaceId === null) {
      throw new AppError('VALIDATION_FAILED', {
        rule: 'value',
        field: 'operationId',
        detail: 'the operation has no workplace whose history could be corrected',
      });
    }
    const before = await lockWorkplace(operation.workplaceId)(tx);
    await insertOperatingState(tx, before, target, input, reasonsOf(input), operation.id);
    return operation;
  });
}

export interface MachineStateDetailCorrection extends PeriodInput {
  machineStateDetailIds: string[];
  remark?: string | undefined;
}

/**
 * POST /workplaces/{id}/machine/recordedMachineStateDetails/update: the period gets the operating
 * state the first detail maps to, and keeps the details; they must be reasons of one machine state.
 */
export async function correctMachineStateDetails(
  db: Database,
  workplaceId: string,
  input: MachineStateDetailCorrection,
): Promise<Workplace> {
  return writeOnFound(db, lockWorkplace(workplaceId), async (tx, before) => {
    if (!hasMachine(before)) throw notFound('machine', workplaceId);
    const field = 'machineStateDetailIds';
    const details: MasterDataEntry[] = [];
    for (const id of input.machineStateDetailIds) {
      const detail = await checkMasterDataReference(
        tx,
        field,
        id,
        MACHINE_STATE_DETAILS,
        'machineStateDetail',
      );
      if (detail) details.push(detail);
    }
    const first = details[0];
    if (first === undefined)
      throw new AppError('VALIDATION_FAILED', {
        rule: 'value',
        field,
        detail: 'names no machine state detail',
      });
    const state = await getMasterDataEntry(
      tx,
      MACHINE_STATES,
      'machineState',
      String(first.attributes.machineStateId),
    );
    const target = operatingStateById(operatingStateIdFor(state, details, field));
    return insertOperatingState(
      tx,
      before,
      target,
      input,
      reasonsOf(input, input.machineStateDetailIds),
      null,
    );
  });
}
