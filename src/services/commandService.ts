// Commands (docs/resources/commands.md): POST /commands, /commands/bulk and /activities. Each
// command type runs through the service of its dedicated route (the table RUNNERS below), inside
// the transaction that stores the command, so a command, its effect and its events commit
// together; a refused command is stored with its failure and changes nothing else.

import { v7 as uuidv7 } from 'uuid';
import { type Clock, systemClock } from '../background/clock.ts';
import { type LoopLogger, PollingLoop } from '../background/pollingLoop.ts';
import {
  type Database,
  DatabaseTimeoutError,
  DatabaseUnavailableError,
  type Queryable,
} from '../db/database.ts';
import * as repository from '../db/repositories/commandRepository.ts';
import { inSavepoint, insideTransaction } from '../db/savepoints.ts';
import {
  type Command,
  type CommandData,
  type CommandType,
  failureOf,
  SUCCESS,
  UNKNOWN_FAILURE,
  UNSUPPORTED,
  unsupported,
} from '../domain/commands.ts';
import { AppError } from '../domain/errors.ts';
import { commandEvent, type ObjectType } from '../domain/events.ts';
import { findOperatingState } from '../domain/masterData.ts';
import { QUANTITY_TYPES, type QuantityType } from '../domain/outputQuantities.ts';
import { recordEvents } from './eventService.ts';
import { addStrokes, bookMachineQuantity, increaseCounter, setMachineState } from './machineService.ts';
import { checkMasterDataReference } from './masterDataService.ts';
import { changeOperationPhase, getOperation } from './operationService.ts';
import { recordOutputQuantity } from './outputQuantityService.ts';
import { recordActivity } from './staffMemberService.ts';
import { changeOperatingState } from './workplaceService.ts';
import { found } from './writes.ts';

/** Where command times come from: the injected clock. */
type TimeSource = Pick<Clock, 'now'>;

/** How one command type is executed. */
interface Runner {
  /** The kind of object the command is about: its COMMAND event's objectType. */
  objectType: ObjectType;
  /** The field of the command (or of the command a revision insert carries) naming that object. */
  objectField: string;
  /** A revision insert: the property holding the inserted command. */
  inserted?: string;
  /**
   * Executes the command through the service of its dedicated route, on `db` (inside the
   * command's transaction). `at`: a revision insert's insertionTimestamp.
   */
  run: (db: Database, data: Fields, at: Date | undefined) => Promise<void>;
}

type Fields = Record<string, unknown>;

const text = (data: Fields, field: string) => data[field] as string;
const optional = (data: Fields, field: string) => (data[field] ?? undefined) as string | undefined;

/**
 * The runners of the commands about one kind of object, which the field `objectField` names:
 * `run` gets the object's id. `inserted`: a revision insert's property holding its command.
 */
const about =
  (objectType: ObjectType, objectField: string) =>
  (
    run: (db: Database, id: string, data: Fields, at: Date | undefined) => Promise<unknown>,
    inserted?: string,
  ): Runner => ({
    objectType,
    objectField,
    ...(inserted === undefined ? {} : { inserted }),
    run: async (db, data, at) => {
      await run(db, text(data, objectField), data, at);
    },
  });

const operationCommand = about('OPERATION', 'operationId');
// A machine has its workplace's id (docs/resources/machines.md): its commands are about that workplace.
const machineCommand = about('WORKPLACE', 'machineId');
const staffMemberCommand = about('STAFF_MEMBER', 'staffMemberId');

/** OPERATION_QUANTITY's qualityDetailId: a quality type, or a quality detail of that type. */
async function quantityTypeOf(db: Queryable, qualityDetailId: string): Promise<QuantityType> {
  if ((QUANTITY_TYPES as readonly string[]).includes(qualityDetailId)) return qualityDetailId as QuantityType;
  const detail = await checkMasterDataReference(
    db,
    'qualityDetailId',
    qualityDetailId,
    'qualityDetails',
    'qualityDetail',
  );
  const type = detail?.attributes.qualityTypeId;
  if (typeof type === 'string' && (QUANTITY_TYPES as readonly string[]).includes(type)) {
    return type as QuantityType;
  }
  throw new AppError('INVALID_REFERENCE', {
    field: 'qualityDetailId',
    id: qualityDetailId,
    expected: 'qualityDetail',
  });
}

const bookQuantity = async (db: Database, operationId: string, data: Fields, at: Date | undefined) => {
  await recordOutputQuantity(db, operationId, {
    quantity: data.quantity as number,
    quantityType: await quantityTypeOf(db, text(data, 'qualityDetailId')),
    timestamp: at,
    workplaceId: optional(data, 'workplaceId'),
    staffMemberId: optional(data, 'staffMemberId'),
  });
};

/**
 * OPERATION_PRODUCTION_STATE: the operating state of the workplace the operation runs at, as
 * POST /workplaces/{id}/operatingState/{operatingStateId} sets it. The first detail id names the
 * operating state; without one, PRODUCTION is the production state itself.
 */
async function changeProductionState(db: Database, operationId: string, data: Fields) {
  const operation = await getOperation(db, operationId);
  const workplaceId = optional(data, 'workplaceId') ?? operation.workplaceId;
  if (workplaceId === null) {
    throw new AppError('VALIDATION_FAILED', {
      rule: 'value',
      field: 'workplaceId',
      detail: 'the operation has no workplace planned; name one',
    });
  }
  const wanted = text(data, 'operationProductionStateId');
  const detail = (data.operationProductionStateDetailIds as string[] | undefined)?.[0];
  const state = findOperatingState(detail ?? (wanted === 'PRODUCTION' ? '000' : ''));
  if (!state || state.workplaceStateId !== wanted) {
    throw new AppError('VALIDATION_FAILED', {
      rule: 'value',
      field: 'operationProductionStateDetailIds',
      detail: `must name an operating state of the workplace state ${wanted}`,
    });
  }
  await changeOperatingState(db, workplaceId, state.id);
}

/**
 * The command types this service executes. A type without an entry is stored and answered with
 * RC_GENERIC_REQ_NO_MSG_LISTENER_REGISTERED: no part of the service consumes it.
 */
const RUNNERS: Partial<Record<CommandType, Runner>> = {
  OPERATION_PHASE: operationCommand((db, operationId, data) =>
    changeOperationPhase(db, operationId, text(data, 'operationPhaseId'), {
      workplaceId: optional(data, 'workplaceId'),
      staffMemberId: optional(data, 'staffMemberId'),
    }),
  ),
  OPERATION_QUANTITY: operationCommand(bookQuantity),
  OPERATION_QUANTITY_REVISION_INSERT: operationCommand(bookQuantity, 'operationQuantityCommand'),
  OPERATION_PRODUCTION_STATE: operationCommand(changeProductionState),
  MACHINE_STATE: machineCommand((db, machineId, data) =>
    setMachineState(db, machineId, {
      machineStateId: text(data, 'machineStateId'),
      machineStateDetailIds: data.machineStateDetailIds as string[] | undefined,
      remark: optional(data, 'annotation'),
    }),
  ),
  MACHINE_COUNT: machineCommand((db, machineId, data) =>
    increaseCounter(db, machineId, { count: data.count as number }),
  ),
  MACHINE_STROKE: machineCommand((db, machineId, data) =>
    addStrokes(db, machineId, { strokes: data.strokes as number }),
  ),
  MACHINE_QUANTITY: machineCommand((db, machineId, data) =>
    bookMachineQuantity(db, machineId, {
      quantity: data.quantity as number,
      qualityDetailId: text(data, 'qualityDetailId'),
    }),
  ),
  STAFF_MEMBER_OPERATION_STATE: staffMemberCommand((db, staffMemberId, data) =>
    recordActivity(db, staffMemberId, {
      operationId: text(data, 'operationId'),
      workplaceId: optional(data, 'workplaceId') ?? null,
      activity: data.staffMemberStateId === 'SIGNED_ON' ? 'STARTED' : 'FINISHED',
    }),
  ),
};

const isDatabaseFailure = (error: unknown) =>
  error instanceof DatabaseTimeoutError || error instanceof DatabaseUnavailableError;

/**
 * Executes a stored command inside `tx` and records its result there. Its effect and its COMMAND
 * event are in a savepoint: a refusal undoes them and only the failure is recorded.
 */
async function execute(db: Database, tx: Queryable, command: Command, now: Date): Promise<Command> {
  const runner = RUNNERS[command.type];
  let done: Command;
  if (!runner) {
    const { params } = unsupported(command.type);
    done = { ...command, resultCode: UNSUPPORTED, resultDetail: { code: 'BAD_REQUEST', ...params } };
  } else {
    const fields = (runner.inserted ? command.data[runner.inserted] : command.data) as Fields;
    const inserted = runner.inserted ? new Date(command.data.insertionTimestamp as string) : undefined;
    try {
      await inSavepoint(tx, async () => {
        await runner.run(insideTransaction(db, tx), fields, inserted);
        const objectId = (fields[runner.objectField] ?? null) as string | null;
        await recordEvents(tx, [commandEvent(command.type, runner.objectType, objectId, command.data)], now);
      });
      done = { ...command, resultCode: SUCCESS, resultDetail: null, bookingTimestamp: inserted ?? now };
    } catch (error) {
      if (isDatabaseFailure(error)) throw error;
      done = {
        ...command,
        ...(error instanceof AppError
          ? failureOf(error)
          : { resultCode: UNKNOWN_FAILURE, resultDetail: { code: 'INTERNAL_ERROR' } }),
      };
    }
  }
  done = { ...done, executedAt: now };
  await repository.recordCommandResult(tx, done);
  return done;
}

const pending = (clientId: string, data: CommandData, now: Date): Command => ({
  id: uuidv7(),
  clientId,
  type: data.type,
  data,
  resultCode: null,
  resultDetail: null,
  createdAt: now,
  executedAt: null,
  bookingTimestamp: null,
});

/** Stores and executes one command now; answers it with its result. */
function executeCommand(
  db: Database,
  clientId: string,
  data: CommandData,
  clock: TimeSource,
): Promise<Command> {
  return db.transaction(async (tx) => {
    const now = clock.now();
    const command = pending(clientId, data, now);
    await repository.insertCommand(tx, command);
    return execute(db, tx, command, now);
  });
}

/**
 * Executes commands one after the other, each in its own transaction: a failing one is answered
 * with its failure and does not undo the others.
 */
export async function executeCommands(
  db: Database,
  clientId: string,
  commands: readonly CommandData[],
  clock: TimeSource,
): Promise<Command[]> {
  const results: Command[] = [];
  for (const data of commands) results.push(await executeCommand(db, clientId, data, clock));
  return results;
}

/** Stores commands to be executed by the runner, in this order after those already waiting. */
export function queueCommands(
  db: Database,
  clientId: string,
  commands: readonly CommandData[],
  clock: TimeSource,
): Promise<Command[]> {
  return db.transaction(async (tx) => {
    const now = clock.now();
    const queued = commands.map((data) => pending(clientId, data, now));
    for (const command of queued) await repository.insertCommand(tx, command);
    return queued;
  });
}

/** A client's command; another client's is not found. */
export function getCommand(db: Queryable, clientId: string, id: string): Promise<Command> {
  return found(repository.findCommand(db, clientId, id), 'command', id);
}

/** Executes the waiting commands in the order received until none is left. */
async function runPendingCommands(db: Database, clock: TimeSource, stopping?: AbortSignal): Promise<number> {
  let executed = 0;
  while (!stopping?.aborted) {
    const ran = await db.transaction(async (tx) => {
      const command = await repository.lockNextPendingCommand(tx);
      if (!command) return false;
      await execute(db, tx, command, clock.now());
      return true;
    });
    if (!ran) break;
    executed += 1;
  }
  return executed;
}

/** How often each instance looks for waiting commands when nothing woke it (a crash left some). */
const COMMAND_POLL_MS = 5000;

/**
 * The background runner of asynchronous commands (every instance runs one; they take turns):
 * `wake()` when a command was queued, `nextCycle()` to wait for a run (tests).
 */
export function commandRunner(db: Database, log: LoopLogger, clock: Clock = systemClock): PollingLoop {
  return new PollingLoop({
    name: 'commands',
    intervalMs: COMMAND_POLL_MS,
    clock,
    log,
    cycle: async (stopping) => {
      await runPendingCommands(db, clock, stopping);
    },
  });
}
