// Output quantities of an operation as the API shows and takes them
// (docs/resources/production-orders.md, "Output quantities").
import { Type } from 'typebox';
import { QUANTITY_TYPES } from '../../domain/outputQuantities.ts';
import { Nullable, Resource } from './common.ts';

const Uuid = Type.String({ format: 'uuid' });
const DateTime = Type.String({ format: 'date-time' });

export const RecordedOutputQuantitySchema = Resource(
  Type.Object({
    id: Uuid,
    operationId: Uuid,
    quantity: Type.Number(),
    quantityType: Type.Enum([...QUANTITY_TYPES]),
    timestamp: DateTime,
    workplaceId: Nullable(Uuid),
    staffMemberId: Nullable(Uuid),
    qualityDetailId: Nullable(Type.String({ description: 'The quality detail it was booked with' })),
    remark: Nullable(Type.String()),
  }),
  'A quantity produced (yield, scrap, rework) booked on an operation',
);

export const OutputQuantityBody = Type.Object(
  {
    quantity: Type.Number({ exclusiveMinimum: 0, maximum: 1e12 }),
    quantityType: Type.Enum([...QUANTITY_TYPES]),
    timestamp: Type.Optional(DateTime),
    workplaceId: Type.Optional(
      Type.String({ format: 'uuid', description: "Default: the operation's workplace" }),
    ),
    staffMemberId: Type.Optional(Uuid),
  },
  { additionalProperties: false },
);
