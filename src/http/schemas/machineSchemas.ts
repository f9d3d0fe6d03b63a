// Machines, their commands and the corrections of the operating-state history as the API shows
// and takes them (docs/resources/machines.md, docs/resources/workplaces.md "Corrections").
import { Type } from 'typebox';
import { Nullable, NumberedProperties, nullableDate, Resource, Uuid } from './common.ts';

const DateTime = Type.String({ format: 'date-time', maxLength: 64 });
const MasterDataId = Type.String({ minLength: 1, maxLength: 100 });
const Remark = Type.String({ maxLength: 2000 });

export const MachineSchema = Resource(
  Type.Object({
    ...NumberedProperties,
    workplaceId: Uuid,
    machineStateId: Nullable(Type.String()),
  }),
  "A machine workplace's machine; its id is the workplace's",
);

export const MachineFilters = {
  machineNumber: Type.Optional(Type.String({ maxLength: 100 })),
  workplaceNumber: Type.Optional(Type.String({ maxLength: 100 })),
};

export const MachineStateBody = Type.Object(
  {
    machineStateDetailIds: Type.Optional(
      Type.Array(MasterDataId, { maxItems: 20, description: 'Reasons: ids of machine state details' }),
    ),
    remark: Type.Optional(Remark),
  },
  { additionalProperties: false },
);

export const CountBody = Type.Object(
  { count: Type.Integer({ minimum: 1, maximum: 1e9 }) },
  { additionalProperties: false },
);

export const StrokesBody = Type.Object(
  { strokes: Type.Integer({ minimum: 1, maximum: 1e9 }) },
  { additionalProperties: false },
);

export const MachineQuantityBody = Type.Object(
  {
    quantity: Type.Number({ exclusiveMinimum: 0, maximum: 1e12 }),
    qualityDetailId: MasterDataId,
  },
  { additionalProperties: false },
);

export const OperationQualityDetailBody = Type.Object(
  {
    quantity: Type.Number({ exclusiveMinimum: 0, maximum: 1e12 }),
    qualityDetailId: MasterDataId,
    workplaceId: Type.Optional(
      Type.String({ format: 'uuid', description: "Default: the operation's workplace" }),
    ),
    staffMemberId: Type.Optional(Uuid),
    remark: Type.Optional(Remark),
  },
  { additionalProperties: false },
);

const period = {
  startDate: DateTime,
  endDate: Type.Optional(
    Nullable({ ...DateTime, description: 'Default: where the next record starts, or on when none does' }),
  ),
};

/** A correction body with its dates read: what the correction services take. */
export const correctionOf = <Body extends { startDate: string; endDate?: string | null | undefined }>(
  body: Body,
) => ({
  ...body,
  startDate: new Date(body.startDate),
  endDate: nullableDate(body.endDate),
});

export const OperatingStateCorrectionBody = Type.Object(
  {
    ...period,
    operatingStateId: Type.String({
      minLength: 1,
      maxLength: 100,
      description: 'An operating state id or code',
    }),
    remark: Type.Optional(Remark),
  },
  { additionalProperties: false },
);

export const MachineStateDetailCorrectionBody = Type.Object(
  {
    ...period,
    machineStateDetailIds: Type.Array(MasterDataId, { minItems: 1, maxItems: 20 }),
    remark: Type.Optional(Remark),
  },
  { additionalProperties: false },
);

const TimePeriod = Type.Object({
  startDate: Type.String(),
  endDate: Nullable(Type.String()),
  /** Milliseconds; up to now while the record is open. */
  duration: Type.Number(),
});

export const RecordedMachineStateDetailSchema = Resource(
  Type.Object({
    id: Uuid,
    code: Type.String(),
    description: Type.String(),
    workplaceStateId: Type.String(),
    operatingStateId: Uuid,
    machineStateDetailIds: Type.Array(Type.String()),
    remark: Nullable(Type.String()),
    timePeriod: TimePeriod,
  }),
  'A period of the workplace history with the machine state details it was set with',
);
