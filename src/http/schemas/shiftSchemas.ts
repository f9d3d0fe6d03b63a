// Shifts of a workplace as the API shows and takes them (docs/resources/shifts-and-maintenance.md).
import { type Static, Type } from 'typebox';
import {
  DateTime,
  inputWithPeriod,
  Nullable,
  optionalText,
  PeriodBody,
  ReplaceBody,
  Resource,
  Uuid,
} from './common.ts';

export const ShiftSchema = Resource(
  Type.Object({
    id: Uuid,
    workplaceId: Uuid,
    name: Nullable(Type.String()),
    shiftModelId: Nullable(Type.String()),
    shiftTypeId: Nullable(Type.String()),
    startDate: DateTime,
    endDate: DateTime,
  }),
  'A shift of a workplace: the period [startDate, endDate)',
);

const writable = {
  name: optionalText(200),
  shiftModelId: Type.Optional(
    Nullable(Type.String({ maxLength: 100, description: 'Shift model of the planning system' })),
  ),
  shiftTypeId: Type.Optional(
    Nullable(Type.String({ maxLength: 100, description: 'An entry of /masterData/shiftTypes' })),
  ),
  ...PeriodBody('After startDate (exclusive end)'),
};
export const CreateShiftBody = Type.Object(writable, { additionalProperties: false });
export const ReplaceShiftBody = ReplaceBody(writable);
export const ShiftPlanBody = Type.Object(
  {
    ...PeriodBody('End of the period (exclusive)'),
    shifts: Type.Array(CreateShiftBody, {
      maxItems: 1000,
      description: 'The shifts starting within the period, in any order',
    }),
  },
  { additionalProperties: false },
);
export const shiftInput = (body: Static<typeof CreateShiftBody>) => inputWithPeriod(CreateShiftBody, body);

const ShiftPeriod = Type.Object({
  startDate: DateTime,
  endDate: DateTime,
  duration: Type.Integer({ description: 'ms' }),
});
const WorkplaceShiftPeriod = {
  timePeriod: ShiftPeriod,
  associatedDay: Type.String({ format: 'date', description: 'The UTC day of its start' }),
  breaks: Type.Array(Type.Object({ timePeriod: ShiftPeriod }), { description: 'Not kept: always empty' }),
};

export const WorkplaceShiftSchema = Resource(
  Type.Object({
    id: Uuid,
    workplaceId: Uuid,
    shift: Type.Object(WorkplaceShiftPeriod, { description: 'The period again, as one SDK form nests it' }),
    ...WorkplaceShiftPeriod,
    shiftTypeId: Nullable(Type.String()),
    isWorkingShift: Nullable(Type.Boolean({ description: "Its shift type's; null without one" })),
    name: Nullable(Type.String()),
    shiftModelId: Nullable(Type.String()),
  }),
  'A shift of a workplace in the SDK form',
);
