// Shifts of a workplace as the API shows and takes them (docs/resources/shifts-and-maintenance.md).
import { type Static, Type } from 'typebox';
import { DateTime, inputWithPeriod, Nullable, PeriodBody, ReplaceBody, Resource, Uuid } from './common.ts';

export const ShiftSchema = Resource(
  Type.Object({
    id: Uuid,
    workplaceId: Uuid,
    name: Nullable(Type.String()),
    shiftModelId: Nullable(Type.String()),
    startDate: DateTime,
    endDate: DateTime,
  }),
  'A shift of a workplace: the period [startDate, endDate)',
);

const writable = {
  name: Type.Optional(Nullable(Type.String({ maxLength: 200 }))),
  shiftModelId: Type.Optional(
    Nullable(Type.String({ maxLength: 100, description: 'Shift model of the planning system' })),
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
