// Staff members and their recorded activities as the API shows and takes them
// (docs/resources/staff-members.md).
import { Type } from 'typebox';
import { STAFF_ACTIVITIES, type StaffMemberInput } from '../../domain/staffMembers.ts';
import {
  absentAsNull,
  DateTime,
  Nullable,
  optional,
  optionalText,
  PeriodBody,
  ReplaceBody,
  Resource,
  Uuid,
} from './common.ts';

const AbsenceProperty = Type.Object({
  startDate: DateTime,
  endDate: DateTime,
  reason: Nullable(Type.String()),
});

export const StaffMemberSchema = Resource(
  Type.Object({
    id: Uuid,
    staffNumber: Type.String(),
    firstName: Type.String(),
    lastName: Type.String(),
    email: Nullable(Type.String()),
    erpContextId: Nullable(Type.String()),
    identificationNumber: Nullable(Type.String()),
    qualifications: Type.Array(Type.String()),
    assignedWorkplaceIds: Type.Array(Uuid),
    shiftId: Nullable(Type.String()),
    absences: Type.Array(AbsenceProperty),
  }),
  'Staff member (production personnel)',
  true,
);

export const RecordedActivitySchema = Resource(
  Type.Object({
    id: Uuid,
    staffMemberId: Uuid,
    operationId: Nullable(Uuid),
    workplaceId: Nullable(Uuid),
    activity: Type.Enum([...STAFF_ACTIVITIES], { description: 'STARTED while open, then how it ended' }),
    startDate: DateTime,
    endDate: Nullable(DateTime),
  }),
  'A period of work of a staff member on an operation',
);

// The workplace representation as the workplaces routes serve it (embeds aside).
export const WorkplaceItem = Resource(Type.Record(Type.String(), Type.Unknown()), 'Workplace');

const writable = {
  staffNumber: Type.String({ minLength: 1, maxLength: 100 }),
  firstName: Type.String({ minLength: 1, maxLength: 200 }),
  lastName: Type.String({ minLength: 1, maxLength: 200 }),
  email: optional(Type.String({ format: 'email', maxLength: 254 })),
  erpContextId: Type.Optional(
    Nullable(Type.String({ maxLength: 200, description: 'Context of the ERP system' })),
  ),
  identificationNumber: Type.Optional(
    Nullable(Type.String({ maxLength: 100, description: 'The badge or card number a terminal reads' })),
  ),
  qualifications: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
      maxItems: 100,
      uniqueItems: true,
      description: 'Skills, e.g. qualification codes',
    }),
  ),
  assignedWorkplaceIds: Type.Optional(Type.Array(Uuid, { maxItems: 100, uniqueItems: true })),
  shiftId: optionalText(100),
  absences: Type.Optional(
    Type.Array(
      Type.Object(
        {
          ...PeriodBody('Not before startDate'),
          reason: optionalText(200),
        },
        { additionalProperties: false },
      ),
      { maxItems: 100 },
    ),
  ),
};
export const CreateStaffMemberBody = Type.Object(writable, { additionalProperties: false });
export const ReplaceStaffMemberBody = ReplaceBody(writable);
type Body = Type.Static<typeof CreateStaffMemberBody>;

export const ActivityBody = Type.Object(
  {
    operationId: Type.String({ maxLength: 100 }),
    workplaceId: Type.Optional(
      Nullable(
        Type.String({
          maxLength: 100,
          description: 'Required for STARTED; when closing, must be the open activity’s workplace',
        }),
      ),
    ),
    activity: Type.Enum([...STAFF_ACTIVITIES]),
  },
  { additionalProperties: false },
);

export const StaffMemberFilters = {
  staffNumber: Type.Optional(Type.String({ maxLength: 100 })),
  workplaceId: Type.Optional(Type.String({ format: 'uuid', description: 'Assigned workplace' })),
  qualification: Type.Optional(Type.String({ maxLength: 100 })),
};

/** PUT is a full replacement: what is missing becomes null or empty. */
export const staffMemberInput = (body: Body): StaffMemberInput => ({
  ...absentAsNull(CreateStaffMemberBody, body),
  qualifications: body.qualifications ?? [],
  assignedWorkplaceIds: body.assignedWorkplaceIds ?? [],
  absences: (body.absences ?? []).map((absence) => ({
    startDate: new Date(absence.startDate),
    endDate: new Date(absence.endDate),
    reason: absence.reason ?? null,
  })),
});

const ShiftPeriod = Type.Object({
  startDate: DateTime,
  endDate: DateTime,
  duration: Type.Integer({ description: 'ms' }),
});

export const StaffMemberShiftSchema = Resource(
  Type.Object({
    id: Uuid,
    staffMemberId: Uuid,
    shift: Type.Object({
      timePeriod: ShiftPeriod,
      associatedDay: Type.String({ format: 'date', description: 'The UTC day of its start' }),
      breaks: Type.Array(Type.Object({ timePeriod: ShiftPeriod }), { description: 'Not kept: always empty' }),
    }),
    shiftTypeId: Nullable(Type.String()),
  }),
  "A shift a staff member works: one of their shift model's at an assigned workplace",
);
