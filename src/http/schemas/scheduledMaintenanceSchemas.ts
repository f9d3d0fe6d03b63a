// Scheduled maintenance of a workplace as the API shows and takes it
// (docs/resources/shifts-and-maintenance.md).
import { type Static, Type } from 'typebox';
import { DateTime, inputWithPeriod, Nullable, PeriodBody, ReplaceBody, Resource, Uuid } from './common.ts';

export const ScheduledMaintenanceSchema = Resource(
  Type.Object({
    id: Uuid,
    workplaceId: Uuid,
    description: Type.String(),
    maintenanceType: Nullable(Type.String()),
    startDate: DateTime,
    endDate: DateTime,
  }),
  'A maintenance task planned for a workplace',
);

const writable = {
  description: Type.String({ minLength: 1, maxLength: 2000 }),
  maintenanceType: Type.Optional(
    Nullable(Type.String({ maxLength: 100, description: 'Free text of the planning system' })),
  ),
  ...PeriodBody('After startDate'),
};
export const CreateScheduledMaintenanceBody = Type.Object(writable, { additionalProperties: false });
export const ReplaceScheduledMaintenanceBody = ReplaceBody(writable);
export const scheduledMaintenanceInput = (body: Static<typeof CreateScheduledMaintenanceBody>) =>
  inputWithPeriod(CreateScheduledMaintenanceBody, body);
