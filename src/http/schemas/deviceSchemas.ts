// Devices and their recorded samples as the API shows and takes them (docs/resources/devices.md).
import { Type } from 'typebox';
import { type DeviceInput, MAX_SAMPLES_PER_CALL } from '../../domain/devices.ts';
import { absentAsNull, BodyId, Nullable, optionalList, optionalText, Resource, Uuid } from './common.ts';

const QuantityProperty = Type.Object({
  tag: Type.String(),
  name: Nullable(Type.String()),
  physicalQuantity: Nullable(Type.String()),
  unit: Nullable(Type.String()),
});
export const DeviceSchema = Resource(
  Type.Object({
    id: Uuid,
    name: Type.String(),
    description: Nullable(Type.String()),
    type: Type.String(),
    workplaceId: Uuid,
    recordedPhysicalQuantities: Type.Array(QuantityProperty),
  }),
  'Device connected to the platform (e.g. a machine controller), permanently at one workplace',
);
export const SampleSchema = Resource(
  Type.Object({
    id: Uuid,
    deviceId: Uuid,
    tag: Type.String(),
    timestamp: Type.String({ format: 'date-time' }),
    value: Type.Number(),
  }),
  'One sample of process or sensor data',
);
export const BatchSchema = Resource(
  Type.Object({ deviceId: Uuid, count: Type.Integer() }),
  'Samples stored by one call',
);

const QuantityBody = Type.Object(
  {
    tag: Type.String({ minLength: 1, maxLength: 100, description: 'Unique within the device' }),
    name: optionalText(200),
    physicalQuantity: Type.Optional(
      Nullable(Type.String({ maxLength: 100, description: 'e.g. TEMPERATURE' })),
    ),
    unit: optionalText(50),
  },
  { additionalProperties: false },
);
export const DeviceBody = Type.Object(
  {
    id: BodyId,
    name: Type.String({ minLength: 1, maxLength: 200 }),
    description: optionalText(2000),
    type: Type.String({ minLength: 1, maxLength: 100, description: 'e.g. PLC' }),
    workplaceId: Type.String({
      format: 'uuid',
      description: 'The workplace the device is permanently assigned to; a replace cannot change it',
    }),
    recordedPhysicalQuantities: optionalList(QuantityBody),
  },
  { additionalProperties: false },
);
export const SamplesBody = Type.Object(
  {
    elements: Type.Array(
      Type.Object(
        {
          tag: Type.String({ minLength: 1, maxLength: 100, description: 'A tag the device records' }),
          timestamp: Type.String({ format: 'date-time' }),
          value: Type.Number(),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: MAX_SAMPLES_PER_CALL },
    ),
  },
  { additionalProperties: false },
);
// 10,000 samples with 100-character tags are about 1.8 MB of JSON: more than the default limit.
export const SAMPLES_BODY_BYTES = MAX_SAMPLES_PER_CALL * 400;

export const DeviceFilters = {
  workplaceId: Type.Optional(Uuid),
  type: Type.Optional(Type.String({ maxLength: 100 })),
  name: Type.Optional(Type.String({ maxLength: 200 })),
};

export const SampleFilters = {
  tag: Type.Optional(Type.String({ maxLength: 100 })),
  startDate: Type.Optional(Type.String({ format: 'date-time' })),
  endDate: Type.Optional(Type.String({ format: 'date-time' })),
};

export const deviceInput = (body: {
  name: string;
  description?: string | null;
  type: string;
  workplaceId: string;
  recordedPhysicalQuantities?: {
    tag: string;
    name?: string | null;
    physicalQuantity?: string | null;
    unit?: string | null;
  }[];
}): DeviceInput => ({
  name: body.name,
  description: body.description ?? null,
  type: body.type,
  workplaceId: body.workplaceId,
  recordedPhysicalQuantities: (body.recordedPhysicalQuantities ?? []).map((quantity) =>
    absentAsNull(QuantityBody, quantity),
  ),
});
