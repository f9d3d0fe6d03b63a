// Scheduled maintenance of a workplace as the API shows and takes it
// (docs/resources/shifts-and-maintenance.md).
import { type Static, Type } from 'typebox';
import { absentAsNull, DateTime, Nullable, ReplaceBody, Resource, Uuid, withDates } from './common.ts';

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
  startDate: DateTime,
  endDate: Type.String({ format: 'date-time', description: 'After startDate' }),
};
export const CreateScheduledMaintenanceBody = Type.Object(writable, { additionalProperties: false });
export const ReplaceScheduledMaintenanceBody = ReplaceBody(writable);
export const scheduledMaintenanceInput = (body: Static<typeof CreateScheduledMaintenanceBody>) =>
  withDates(absentAsNull(CreateScheduledMaintenanceBody, body), 'startDate', 'endDate');
