// Schemas of the summaries and the OEE report (docs/resources/reports.md).
import { Type } from 'typebox';
import { Nullable, OperatingStateProperty, PeriodFilters, Resource } from './common.ts';

const Ms = (description: string) => Type.Number({ description: `${description} (milliseconds)` });
const NullableMs = (description: string) => Nullable(Ms(description));

const WorkplaceReference = Nullable(
  Type.Object({
    id: Type.String(),
    number: Type.String(),
    description: Nullable(Type.String()),
    erpContextId: Nullable(Type.String({ description: 'Its ERP context, as stored on it' })),
  }),
);

const GroupReference = Nullable(
  Type.Object({
    id: Type.String(),
    number: Type.String(),
    description: Nullable(Type.String()),
    type: Type.String(),
    erpContextId: Nullable(Type.String({ description: 'Its ERP context, as stored on it' })),
  }),
);

export const SpecificationSchema = Resource(
  Type.Object({
    operationId: Type.String(),
    targetQuantity: Nullable(Type.Number()),
    quantityUnit: Nullable(Type.String()),
    targetTimePerUnit: NullableMs('Standard time per unit'),
    targetSetupTime: NullableMs('Standard setup time'),
    targetProcessingTime: NullableMs('targetQuantity x targetTimePerUnit'),
    targetTeardownTime: NullableMs('Standard teardown time'),
    targetWaitTime: NullableMs('Standard wait time'),
    targetMoveTime: NullableMs('Standard move time'),
    targetWorkplace: WorkplaceReference,
    targetCapacityGroup: GroupReference,
  }),
  "An operation's standard values",
);

const Quantities = Type.Object({
  yield: Type.Number(),
  scrap: Type.Number(),
  rework: Type.Number(),
  uncategorized: Type.Number(),
});

const PeriodProperties = {
  startDate: Type.Optional(Type.String({ format: 'date-time' })),
  endDate: Type.Optional(Type.String({ format: 'date-time' })),
};

export const QuantitySummarySchema = Resource(
  Type.Object({
    ...PeriodProperties,
    targetQuantity: Nullable(Type.Number()),
    totalQuantity: Type.Number({ description: 'yield + scrap + rework + uncategorized' }),
    remainingQuantity: Nullable(Type.Number({ description: 'targetQuantity - yield, at least 0' })),
    elements: Type.Array(
      Type.Object({
        workplaceId: Nullable(Type.String({ description: 'null in the first element: all workplaces' })),
        quantities: Quantities,
      }),
    ),
  }),
  'Output quantities booked: first all workplaces together, then per workplace',
);

export const OperatingStateSummarySchema = Resource(
  Type.Object({
    ...PeriodProperties,
    setupTime: Ms('Time in phases SETUP and TRAINING'),
    processingTime: Ms('Time in phase PROCESSING'),
    interruptionTime: Ms('Time in phase INTERRUPTED'),
    executionTime: Ms('Time in SETUP, TRAINING, PROCESSING and INTERRUPTED'),
    timePerUnit: NullableMs('processingTime per good unit; null before the first'),
    elements: Type.Array(
      Type.Object({ operatingState: OperatingStateProperty, duration: Ms('Time in the state') }),
    ),
  }),
  'Time by phase and by operating state',
);

const Factor = (description: string) => Nullable(Type.Number({ minimum: 0, maximum: 1, description }));

export const OeeSchema = Resource(
  Type.Object({
    startDate: Type.String({ format: 'date-time' }),
    endDate: Type.String({ format: 'date-time' }),
    workplaceId: Nullable(Type.String()),
    workplaceGroupId: Nullable(Type.String()),
    oee: Factor('availability x performance x quality'),
    availability: Factor('productionTime / plannedProductionTime'),
    performance: Factor('idealProductionTime / productionTime'),
    quality: Factor('yieldQuantity / totalQuantity'),
    qualityRate: Factor('the same as quality'),
    plannedProductionTime: Ms('Scheduled time minus planned stops'),
    productionTime: Ms('Scheduled time in PRODUCTION states'),
    downtime: Ms('plannedProductionTime - productionTime'),
    idealProductionTime: Ms('targetTimePerUnit x quantity over the bookings'),
    totalQuantity: Type.Number(),
    yieldQuantity: Type.Number(),
    scrapQuantity: Type.Number(),
  }),
  'Overall equipment efficiency of a workplace or a workplace group',
);

export const PeriodQuery = Type.Object(PeriodFilters, { additionalProperties: false });

export const OeeQuery = Type.Object(
  {
    workplaceId: Type.Optional(Type.String({ maxLength: 100 })),
    workplaceGroupId: Type.Optional(Type.String({ maxLength: 100 })),
    ...PeriodFilters,
  },
  { additionalProperties: false },
);
