// Machines (docs/resources/machines.md): every machine workplace has one machine, with the
// workplace's id. Its machine state is read from the workplace's operating state; setting a
// machine state sets the operating state the master data maps it (or its first detail) to.
import { AppError } from './errors.ts';
import type { OperatingState } from './masterData.ts';
import type { MasterDataEntry } from './masterDataEntries.ts';
import type { Workplace } from './workplaces.ts';

export const MACHINE_STATES = 'machineStates';
export const MACHINE_STATE_DETAILS = 'machineStateDetails';
export const QUALITY_DETAILS = 'qualityDetails';

export interface Machine {
  /** The workplace's id: one machine per machine workplace. */
  id: string;
  number: string;
  description: string | null;
  erpContextId: string | null;
  workplaceId: string;
  machineStateId: string | null;
}

/** A manual workplace has no machine; both machine types have one. */
export const hasMachine = (workplace: Workplace): boolean => workplace.workplaceType !== 'MANUAL_WORKPLACE';

const attribute = (entry: MasterDataEntry, name: string): string | undefined => {
  const value = entry.attributes[name];
  return typeof value === 'string' ? value : undefined;
};

/**
 * The machine state a workplace in `state` is in: the machine state that maps to that operating
 * state, else the one standing for its workplace state (PRODUCTION, DOWNTIME); null without either.
 */
function machineStateOf(state: OperatingState, machineStates: readonly MasterDataEntry[]): string | null {
  const exact = machineStates.find((entry) => attribute(entry, 'operatingStateId') === state.id);
  const byWorkplaceState = machineStates.find(
    (entry) => attribute(entry, 'workplaceStateId') === state.workplaceStateId,
  );
  return (exact ?? byWorkplaceState)?.id ?? null;
}

export function machineOf(
  workplace: Workplace,
  state: OperatingState,
  machineStates: readonly MasterDataEntry[],
): Machine {
  return {
    id: workplace.id,
    number: workplace.number,
    description: workplace.description,
    erpContextId: workplace.erpContextId,
    workplaceId: workplace.id,
    machineStateId: machineStateOf(state, machineStates),
  };
}

/**
 * The operating state a machine state with these details sets: the first detail's, else the
 * machine state's. Every detail must be a reason of that machine state (400 naming `field`).
 */
export function operatingStateIdFor(
  machineState: MasterDataEntry,
  details: readonly MasterDataEntry[],
  field: string,
): string {
  for (const detail of details) {
    const of = attribute(detail, 'machineStateId');
    if (of !== machineState.id) {
      throw new AppError('VALIDATION_FAILED', {
        rule: 'value',
        field,
        detail: `machine state detail ${detail.id} is a reason of ${of ?? 'no machine state'}, not of ${machineState.id}`,
      });
    }
  }
  const target = details[0] ?? machineState;
  const operatingStateId = attribute(target, 'operatingStateId');
  if (operatingStateId === undefined)
    throw new Error(`${target.kind} ${target.id} maps to no operating state`);
  return operatingStateId;
}

/** The quality type (YIELD, SCRAP, REWORK) a quality detail books. */
export function qualityTypeOf(detail: MasterDataEntry): string {
  const type = attribute(detail, 'qualityTypeId');
  if (type === undefined) throw new Error(`quality detail ${detail.id} has no quality type`);
  return type;
}
