// Schemas of the summaries and the OEE report (docs/resources/reports.md).
import { Type } from 'typebox';
import { OffsetPagination } from '../elementRoutes.ts';
import { DateTime, LinkSchema, Nullable, OperatingStateProperty, PeriodFilters, Resource } from './common.ts';

export const Rate = (description: string) => Nullable(Type.Number({ minimum: 0, maximum: 1, description }));
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
    targetMachineCycleTime: NullableMs('Standard time of one machine cycle'),
    unitsPerMachineCycle: Type.Union([Type.Number(), Type.Null()], {
      description: 'Units one machine cycle makes',
    }),
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

/** The OEE's performance and quality, which the OPE shares. */
export const PerformanceAndQuality = {
  performance: Rate('idealProductionTime / productionTime'),
  quality: Rate('yieldQuantity / totalQuantity'),
};

/** The period a report or summary covers. */
export const Window = {
  startDate: DateTime,
  endDate: DateTime,
};

const PeriodProperties = {
  startDate: Type.Optional(Type.String({ format: 'date-time' })),
  endDate: Type.Optional(Type.String({ format: 'date-time' })),
};

/** A summary or report resource with its page of elements, all in one page as an element page. */
export const Paged = <P extends Type.TSchema>(properties: P, description: string) =>
  Type.Object(
    {
      properties,
      pagination: OffsetPagination,
      _links: Type.Record(Type.String(), LinkSchema),
      _embedded: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    },
    { description },
  );

const quantityProperties = {
  ...PeriodProperties,
  targetQuantity: Nullable(Type.Number()),
  totalQuantity: Type.Number({ description: 'yield + scrap + rework + uncategorized' }),
  remainingQuantity: Nullable(Type.Number({ description: 'targetQuantity - yield, at least 0' })),
  elements: Type.Array(
    Type.Object({
      workplaceId: Nullable(Type.String({ description: 'null in the first element: all workplaces' })),
      quantities: Quantities,
      unconfirmedQuantities: Nullable(Quantities),
      totalQuantity: Type.Number(),
    }),
  ),
};

export const OperationQuantitySummarySchema = Paged(
  Type.Object({
    ...quantityProperties,
    performance: Rate('idealProductionTime / productionTime'),
    qualityRate: Rate('yield / totalQuantity'),
    material: Nullable(
      Type.Object({ number: Type.String(), description: Nullable(Type.String()), type: Type.Null() }),
    ),
    quantityUnit: Nullable(Type.String()),
    targetTimePerUnit: NullableMs('Standard time per unit'),
    timePerUnit: NullableMs('processingTime per good unit'),
    productionTime: Ms('Time in PRODUCTION states while the operation was in PROCESSING'),
  }),
  'Output quantities booked on the operation: first all workplaces together, then per workplace',
);

export const WorkplaceQuantitySummarySchema = Paged(
  Type.Object({
    ...quantityProperties,
    performance: Rate('idealProductionTime / productionTime, as the OEE'),
    quantityBasedQualityRate: Rate('yield / totalQuantity'),
    timeBasedQualityRate: Rate('ideal time of the yield / ideal time of all pieces'),
  }),
  'Output quantities booked at the workplace in its scheduled time: first the total, then the workplace',
);

const stateProperties = {
  setupTime: Ms('Time in phases SETUP and TRAINING'),
  processingTime: Ms('Time in phase PROCESSING'),
  interruptionTime: Ms('Time in phase INTERRUPTED'),
  executionTime: Ms('Time in SETUP, TRAINING, PROCESSING and INTERRUPTED'),
  setupReduction: Rate('1 - setupTime / executionTime'),
  processAvailability: Rate('time in PRODUCTION states during PROCESSING / processingTime'),
  timePerUnit: NullableMs('processingTime per good unit; null before the first'),
  elements: Type.Array(
    Type.Object({
      operatingState: OperatingStateProperty,
      duration: Ms('Time in the state'),
      frequency: Type.Integer({ description: 'How many recorded periods of the state count' }),
    }),
  ),
};

export const OperationStateSummarySchema = Paged(
  Type.Object({
    ...stateProperties,
    productionTime: Ms('Time in PRODUCTION states while the operation was in PROCESSING'),
  }),
  'Time of the operation by phase and by operating state',
);

export const WorkplaceStateSummarySchema = Paged(
  Type.Object({
    ...PeriodProperties,
    ...stateProperties,
    scheduledOperatingTime: Ms('Shifts in the period, or the whole period without shifts'),
    occupancyTime: Ms('Execution time of the operations at the workplace'),
    productionTime: Ms('Time in PRODUCTION states'),
    occupancyRate: Rate('occupancyTime / scheduledOperatingTime'),
    availability: Rate('productionTime / plannedProductionTime, as the OEE'),
  }),
  'Time at the workplace by phase and by operating state, in its scheduled time',
);

export const OeeSchema = Resource(
  Type.Object({
    ...Window,
    workplaceId: Nullable(Type.String()),
    workplaceGroupId: Nullable(Type.String()),
    oee: Rate('availability x performance x quality'),
    availability: Rate('productionTime / plannedProductionTime'),
    ...PerformanceAndQuality,
    qualityRate: Rate('the same as quality'),
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

const Id = Type.Optional(Type.String({ maxLength: 100 }));

/** The workplace or workplace group a report is about, by id or number. */
export const WorkplaceFilters = {
  workplaceId: Id,
  workplaceNumber: Id,
  workplaceGroupId: Id,
  workplaceGroupNumber: Id,
};

export const OeeQuery = Type.Object(
  { ...WorkplaceFilters, ...PeriodFilters },
  { additionalProperties: false },
);
