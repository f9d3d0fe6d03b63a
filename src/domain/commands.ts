// Commands (docs/resources/commands.md): the command types of the FORCE Bridge v3 command model,
// the result codes a command ends with, and the stored command.
import { AppError } from './errors.ts';

/** Every command type of the v3 model (its `type` discriminator). */
export const COMMAND_TYPES = [
  'OPERATION_PHASE',
  'OPERATION_PHASE_REVISION_INSERT',
  'OPERATION_QUANTITY',
  'OPERATION_QUANTITY_REVISION_INSERT',
  'OPERATION_PRODUCTION_STATE',
  'OPERATION_PRODUCTION_STATE_REVISION_INSERT',
  'MACHINE_STATE',
  'MACHINE_STATE_REVISION_INSERT',
  'MACHINE_COUNT',
  'MACHINE_STROKE',
  'MACHINE_QUANTITY',
  'STAFF_MEMBER_WORKPLACE_STATE',
  'STAFF_MEMBER_WORKPLACE_STATE_REVISION_INSERT',
  'STAFF_MEMBER_OPERATION_STATE',
  'STAFF_MEMBER_OPERATION_STATE_REVISION_INSERT',
  'STAFF_MEMBER_TIME_ATTENDANCE',
  'STAFF_MEMBER_TIME_ATTENDANCE_REVISION_INSERT',
  'STAFF_MEMBER_TIME_ATTENDANCE_BREAK',
  'STAFF_MEMBER_TIME_ATTENDANCE_BREAK_REVISION_INSERT',
  'WORKPLACE_SHIFT_STATE',
  'WORKPLACE_PLANNED_MAINTENANCE_STATE',
  'WORKPLACE_MAINTENANCE_STATE',
  'WORKPLACE_MAINTENANCE_REQUEST',
  'DOMAIN_ATTRIBUTE_CHANGE',
] as const;
export type CommandType = (typeof COMMAND_TYPES)[number];

/** The result codes of the v3 model. */
export const RESULT_CODES = [
  'RC_GENERIC_REQ_CANCEL_SUCCEED',
  'RC_GENERIC_REQ_UNKNOWN_FAILURE',
  'RC_GENERIC_REQ_NO_MSG_LISTENER_REGISTERED',
  'RC_SIMPLE_SUCCESS',
  'RC_ENHANCED_SUCCESS',
  'RC_SIMPLE_FAILURE',
  'RC_BOOKING_FAILURE',
] as const;
export type ResultCode = (typeof RESULT_CODES)[number];

/** Executed and booked. */
export const SUCCESS: ResultCode = 'RC_SIMPLE_SUCCESS';
/** The plant refused the booking (unknown operation, transition not allowed, ...). */
export const BOOKING_FAILURE: ResultCode = 'RC_BOOKING_FAILURE';
/** No part of this service executes commands of the type ("no registered consumer"). */
export const UNSUPPORTED: ResultCode = 'RC_GENERIC_REQ_NO_MSG_LISTENER_REGISTERED';
/** The execution failed for a reason of the service's own. */
export const UNKNOWN_FAILURE: ResultCode = 'RC_GENERIC_REQ_UNKNOWN_FAILURE';

/** The most commands one POST /commands/bulk takes. */
export const BULK_MAX = 100;

/** A command's body as sent: `type` and the fields of its type. */
export type CommandData = { type: CommandType } & Record<string, unknown>;

export interface Command {
  id: string;
  clientId: string;
  type: CommandType;
  data: CommandData;
  /** null while it waits for the runner. */
  resultCode: ResultCode | null;
  /** Why it failed: the error code and its parameters. */
  resultDetail: Record<string, unknown> | null;
  createdAt: Date;
  executedAt: Date | null;
  bookingTimestamp: Date | null;
}

/** A refusal naming why a command of this type cannot run here. */
export const unsupported = (type: string) =>
  new AppError('BAD_REQUEST', { detail: `no part of this service executes ${type} commands` });

/** The failure a refusal ends a command with, and its detail. */
export function failureOf(error: AppError): {
  resultCode: ResultCode;
  resultDetail: Record<string, unknown>;
} {
  return { resultCode: BOOKING_FAILURE, resultDetail: { code: error.code, ...error.params } };
}
