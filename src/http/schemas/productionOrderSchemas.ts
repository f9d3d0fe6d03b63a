// Production orders as the API shows and takes them (docs/resources/production-orders.md).
import { type Static, Type } from 'typebox';
import { checkPeriod, type ProductionOrderInput } from '../../domain/productionOrders.ts';
import {
  absentAsNull,
  DateTime,
  Nullable,
  optional,
  optionalList,
  optionalText,
  Resource,
  Uuid,
  withDates,
} from './common.ts';
import {
  MaterialSchema,
  materialInput,
  operationFields,
  productionOrderReference,
} from './operationSchemas.ts';

export const ProductionOrderSchema = Resource(
  Type.Object({
    ...productionOrderReference,
    targetQuantity: Nullable(Type.Number()),
    quantityUnit: Nullable(Type.String()),
    basicStartDate: Nullable(DateTime),
    basicEndDate: Nullable(DateTime),
    deliveryDate: Nullable(DateTime),
  }),
  'Production order; embed=operations embeds its operations in sequence order',
);

const writable = {
  number: Type.String({ minLength: 1, maxLength: 100 }),
  description: optionalText(2000),
  material: optional(MaterialSchema),
  targetQuantity: optional(Type.Number({ minimum: 0, maximum: 1e12 })),
  quantityUnit: optionalText(20),
  basicStartDate: optional(DateTime),
  basicEndDate: optional(DateTime),
  deliveryDate: optional(DateTime),
  split: optionalText(100),
  erpContextId: optionalText(100),
};
export const CreateProductionOrderBody = Type.Object(
  {
    ...writable,
    operations: Type.Optional(
      Type.Array(Type.Object(operationFields, { additionalProperties: false }), {
        maxItems: 1000,
        description: 'Operations created with the order, in one transaction',
      }),
    ),
  },
  { additionalProperties: false },
);
const OrderFields = Type.Object(writable);
export const ReplaceProductionOrderBody = Type.Object(
  {
    id: Type.Optional(Type.String({ maxLength: 100, description: 'Must equal the path id when sent' })),
    ...writable,
  },
  { additionalProperties: false },
);
export const ProductionOrderFilters = {
  startDate: Type.Optional(DateTime),
  endDate: Type.Optional(DateTime),
  productionOrderNumber: Type.Optional(Type.String({ maxLength: 100 })),
  materialNumber: Type.Optional(Type.String({ maxLength: 100 })),
};
export const ProductionOrderSearchBody = Type.Object(
  {
    productionOrderNumbers: optionalList(Type.String({ maxLength: 100 })),
    productionOrderIds: optionalList(Uuid),
    materialNumbers: optionalList(Type.String({ maxLength: 100 })),
    startDate: Type.Optional(DateTime),
    endDate: Type.Optional(DateTime),
  },
  { additionalProperties: false, description: 'Each list matches any of its values; lists combine with AND' },
);

/** The service input from a body (the order's own fields). */
export function orderInput(body: Static<typeof ReplaceProductionOrderBody>): ProductionOrderInput {
  const input: ProductionOrderInput = withDates(
    { ...absentAsNull(OrderFields, body), material: materialInput(body.material) },
    'basicStartDate',
    'basicEndDate',
    'deliveryDate',
  );
  checkPeriod(input.basicStartDate, input.basicEndDate ?? input.deliveryDate, 'basicEndDate');
  return input;
}
