// Commands as the API takes and shows them (docs/resources/commands.md): one body schema per
// command type of the v3 model, chosen by its `type`.
import { type TProperties, type TSchema, Type } from 'typebox';
import {
  BULK_MAX,
  COMMAND_TYPES,
  type CommandData,
  type CommandType,
  RESULT_CODES,
} from '../../domain/commands.ts';
import { Nullable, optional, Resource } from './common.ts';

const Uuid = Type.String({ format: 'uuid' });
/** An id of master data (a quality detail, a machine state detail): the plant's own text. */
const Code = Type.String({ minLength: 1, maxLength: 100 });
const Time = Type.String({ format: 'date-time' });
const Codes = Type.Array(Code, { maxItems: 100 });

/** The fields every command may carry besides its own. */
const COMMON = {
  source: optional(Type.Enum(['MACHINE', 'TERMINAL'], { description: 'Where the command comes from' })),
};

/** A command's body: `type` (fixed to this type, optional inside a revision insert) and its fields. */
function command(type: CommandType, fields: TProperties, nested = false) {
  const tag = Type.Literal(type);
  return Type.Object(
    { type: nested ? Type.Optional(tag) : tag, ...COMMON, ...fields },
    { additionalProperties: false, title: type },
  );
}

const StaffMemberState = Type.Enum(['SIGNED_ON', 'SIGNED_OFF']);

const FIELDS = {
  OPERATION_PHASE: {
    operationId: Uuid,
    operationPhaseId: Type.String({ maxLength: 100, description: 'The operation phase to change to' }),
    workplaceId: optional(Uuid),
    staffMemberId: optional(Uuid),
  },
  OPERATION_QUANTITY: {
    operationId: Uuid,
    workplaceId: optional(Uuid),
    quantity: Type.Number({ exclusiveMinimum: 0 }),
    qualityDetailId: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'A quality detail of the master data, or the quality type YIELD, SCRAP or REWORK',
    }),
    annotation: optional(Type.String({ maxLength: 2000 })),
    staffMemberId: optional(Uuid),
    ticketId: optional(Code),
  },
  OPERATION_PRODUCTION_STATE: {
    operationId: Uuid,
    workplaceId: optional(Uuid),
    staffMemberId: optional(Uuid),
    operationProductionStateId: Type.Enum(['PRODUCTION', 'DOWNTIME', 'SETUP']),
    operationProductionStateDetailIds: Type.Optional(Codes),
  },
  MACHINE_STATE: {
    machineId: Code,
    machineStateId: Type.Enum(['PRODUCTION', 'DOWNTIME', 'SETUP']),
    machineStateDetailIds: Type.Optional(Codes),
    annotation: optional(Type.String({ maxLength: 2000 })),
  },
  MACHINE_COUNT: {
    machineId: Code,
    counterNumber: Type.Integer({ minimum: 0 }),
    count: Type.Integer({ minimum: 0 }),
  },
  MACHINE_STROKE: {
    machineId: Code,
    counterNumber: Type.Integer({ minimum: 0, maximum: 32_767 }),
    strokes: Type.Integer({ minimum: 0 }),
  },
  MACHINE_QUANTITY: {
    machineId: Code,
    quantity: Type.Number({ exclusiveMinimum: 0 }),
    qualityDetailId: Code,
  },
  STAFF_MEMBER_WORKPLACE_STATE: {
    staffMemberId: Uuid,
    workplaceId: Uuid,
    staffMemberStateId: StaffMemberState,
  },
  STAFF_MEMBER_OPERATION_STATE: {
    staffMemberId: Uuid,
    workplaceId: optional(Uuid),
    operationId: Uuid,
    staffMemberStateId: StaffMemberState,
  },
  STAFF_MEMBER_TIME_ATTENDANCE: {
    staffMemberId: Uuid,
    staffMemberTimeAttendanceId: Type.Enum(['COMING', 'GOING']),
    forcedLogOff: Type.Optional(Type.Boolean()),
  },
  STAFF_MEMBER_TIME_ATTENDANCE_BREAK: {
    staffMemberId: Uuid,
    staffMemberTimeAttendanceBreakId: Type.Enum(['BREAK_START', 'BREAK_END']),
    forcedLogOff: Type.Optional(Type.Boolean()),
  },
} as const satisfies Partial<Record<CommandType, TProperties>>;

type Plain = keyof typeof FIELDS;

/** A revision insert: the command of `type` inserted into the history at `insertionTimestamp`. */
const revision = (type: CommandType, property: string, inserted: Plain) =>
  command(type, { insertionTimestamp: Time, [property]: command(inserted, FIELDS[inserted], true) });

const plain = (type: Plain) => command(type, FIELDS[type]);

/** The body schema of each command type. */
export const COMMAND_BODIES: Record<CommandType, TSchema> = {
  OPERATION_PHASE: plain('OPERATION_PHASE'),
  OPERATION_PHASE_REVISION_INSERT: revision(
    'OPERATION_PHASE_REVISION_INSERT',
    'operationPhaseCommand',
    'OPERATION_PHASE',
  ),
  OPERATION_QUANTITY: plain('OPERATION_QUANTITY'),
  OPERATION_QUANTITY_REVISION_INSERT: revision(
    'OPERATION_QUANTITY_REVISION_INSERT',
    'operationQuantityCommand',
    'OPERATION_QUANTITY',
  ),
  OPERATION_PRODUCTION_STATE: plain('OPERATION_PRODUCTION_STATE'),
  OPERATION_PRODUCTION_STATE_REVISION_INSERT: revision(
    'OPERATION_PRODUCTION_STATE_REVISION_INSERT',
    'operationProductionStateCommandDataWsModel',
    'OPERATION_PRODUCTION_STATE',
  ),
  MACHINE_STATE: plain('MACHINE_STATE'),
  MACHINE_STATE_REVISION_INSERT: revision(
    'MACHINE_STATE_REVISION_INSERT',
    'machineStateCommand',
    'MACHINE_STATE',
  ),
  MACHINE_COUNT: plain('MACHINE_COUNT'),
  MACHINE_STROKE: plain('MACHINE_STROKE'),
  MACHINE_QUANTITY: plain('MACHINE_QUANTITY'),
  STAFF_MEMBER_WORKPLACE_STATE: plain('STAFF_MEMBER_WORKPLACE_STATE'),
  STAFF_MEMBER_WORKPLACE_STATE_REVISION_INSERT: revision(
    'STAFF_MEMBER_WORKPLACE_STATE_REVISION_INSERT',
    'staffMemberWorkplaceStateCommand',
    'STAFF_MEMBER_WORKPLACE_STATE',
  ),
  STAFF_MEMBER_OPERATION_STATE: plain('STAFF_MEMBER_OPERATION_STATE'),
  STAFF_MEMBER_OPERATION_STATE_REVISION_INSERT: revision(
    'STAFF_MEMBER_OPERATION_STATE_REVISION_INSERT',
    'staffMemberOperationStateCommand',
    'STAFF_MEMBER_OPERATION_STATE',
  ),
  STAFF_MEMBER_TIME_ATTENDANCE: plain('STAFF_MEMBER_TIME_ATTENDANCE'),
  STAFF_MEMBER_TIME_ATTENDANCE_REVISION_INSERT: revision(
    'STAFF_MEMBER_TIME_ATTENDANCE_REVISION_INSERT',
    'staffMemberTimeAttendanceCommand',
    'STAFF_MEMBER_TIME_ATTENDANCE',
  ),
  STAFF_MEMBER_TIME_ATTENDANCE_BREAK: plain('STAFF_MEMBER_TIME_ATTENDANCE_BREAK'),
  STAFF_MEMBER_TIME_ATTENDANCE_BREAK_REVISION_INSERT: revision(
    'STAFF_MEMBER_TIME_ATTENDANCE_BREAK_REVISION_INSERT',
    'staffMemberTimeAttendanceBreakCommand',
    'STAFF_MEMBER_TIME_ATTENDANCE_BREAK',
  ),
  WORKPLACE_SHIFT_STATE: command('WORKPLACE_SHIFT_STATE', {
    workplaceId: Uuid,
    shiftId: optional(Code),
    shiftStateId: optional(Code),
    shiftTypeId: optional(Code),
    associatedDate: optional(Time),
  }),
  WORKPLACE_PLANNED_MAINTENANCE_STATE: command('WORKPLACE_PLANNED_MAINTENANCE_STATE', {
    workplaceId: Uuid,
    plannedMaintenanceStateId: Code,
  }),
  WORKPLACE_MAINTENANCE_STATE: command('WORKPLACE_MAINTENANCE_STATE', {
    workplaceId: Uuid,
    maintenanceStateId: Code,
    maintenanceRequestId: optional(Type.Integer()),
  }),
  WORKPLACE_MAINTENANCE_REQUEST: command('WORKPLACE_MAINTENANCE_REQUEST', {
    workplaceId: Uuid,
    staffMemberId: optional(Uuid),
    machineStateDetailId: optional(Code),
    comment: optional(Type.String({ maxLength: 2000 })),
    maintenanceRequestId: optional(Type.Integer()),
  }),
  DOMAIN_ATTRIBUTE_CHANGE: command('DOMAIN_ATTRIBUTE_CHANGE', {
    domain: Code,
    objectId: Code,
    attributeName: Code,
    attributeValue: Type.Optional(Type.Unknown()),
  }),
};

/** One command: the schema of its `type` (an unknown type is a 400 naming `type`). */
export const CommandBody = Type.Unsafe<CommandData>({
  // The object check comes first: the type is read only from an object.
  type: 'object',
  oneOf: COMMAND_TYPES.map((type) => COMMAND_BODIES[type]),
  discriminator: { propertyName: 'type' },
});

export const BulkCommandsBody = Type.Object(
  { commands: Type.Array(CommandBody, { minItems: 1, maxItems: BULK_MAX }) },
  { additionalProperties: false },
);

export const AsyncQuery = (byDefault: boolean) =>
  Type.Object(
    {
      async: Type.Optional(
        Type.Boolean({
          default: byDefault,
          description: 'true: stored and answered at once (202), executed in order afterwards',
        }),
      ),
    },
    { additionalProperties: false },
  );

export const CommandSchema = Resource(
  Type.Object({
    id: Uuid,
    data: Type.Object({ type: Type.Enum([...COMMAND_TYPES]) }, { additionalProperties: true }),
    resultCode: Nullable(Type.Enum([...RESULT_CODES])),
    resultDetail: Nullable(Type.Object({ code: Type.String() }, { additionalProperties: true })),
    timestamp: Nullable(Time),
    bookingTimestamp: Nullable(Time),
  }),
  'A command with its result (null while it waits to be executed)',
);

export const ActivityBody = Type.Object(
  {
    activityIdentifier: Type.Enum([...COMMAND_TYPES], { description: 'The command type to execute' }),
    relationType: optional(Type.Enum(['WORKPLACE', 'TERMINAL'])),
    relationIdentifier: optional(Uuid),
    data: Type.Optional(
      Type.Record(Type.String({ maxLength: 100 }), Type.String({ maxLength: 2000 }), { maxProperties: 50 }),
    ),
  },
  { additionalProperties: false },
);
