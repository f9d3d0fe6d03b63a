// Schemas of the reports beside the OEE (docs/resources/reports.md): OPE, total quantity, hit
// lists of operating states and quality details.
import { Type } from 'typebox';
import { EmbedQuery, Nullable, OffsetQuery, PeriodFilters, Resource } from './common.ts';
import { Paged, PerformanceAndQuality, Rate, Window, WorkplaceFilters } from './summarySchemas.ts';

const Id = Type.Optional(Type.String({ maxLength: 100 }));
const Share = (description: string) => Type.Number({ minimum: 0, maximum: 1, description });

const materialFilters = {
  materialId: Type.Optional(Type.String({ maxLength: 100, description: "The material's number" })),
  materialNumber: Id,
};
const listQuery = { ...PeriodFilters, ...OffsetQuery, embed: EmbedQuery };

export const WorkplaceReportQuery = Type.Object(
  { ...WorkplaceFilters, ...listQuery },
  { additionalProperties: false },
);
export const MaterialReportQuery = Type.Object(
  { ...materialFilters, ...listQuery },
  { additionalProperties: false },
);
export const QualityDetailsWorkplaceQuery = Type.Object(
  { ...WorkplaceFilters, ...materialFilters, ...listQuery },
  { additionalProperties: false },
);
export const OpeQuery = Type.Object(
  { productionOrderId: Id, ...materialFilters, ...PeriodFilters },
  { additionalProperties: false },
);

export const OpeSchema = Resource(
  Type.Object({
    ...Window,
    productionOrderId: Nullable(Type.String()),
    materialId: Nullable(Type.String()),
    ope: Rate('setupReduction x processAvailability x performance x quality'),
    setupReduction: Rate('1 - setupTime / executionTime'),
    processAvailability: Rate('productionTime / processingTime'),
    ...PerformanceAndQuality,
    productionProcessRatio: Rate('productionTime / throughputTime'),
    schedulingEfficiency: Rate('executionTime / throughputTime'),
    executionTime: Type.Number(),
    setupTime: Type.Number(),
    processingTime: Type.Number(),
    productionTime: Type.Number(),
    throughputTime: Type.Number(),
    idealProductionTime: Type.Number(),
    totalQuantity: Type.Number(),
    yieldQuantity: Type.Number(),
  }),
  'Overall process efficiency of a production order or a material',
);

/** A report of the window whose elements have the `element` properties. */
const ElementsReport = (element: Type.TProperties, description: string) =>
  Paged(Type.Object({ ...Window, elements: Type.Array(Type.Object(element)) }), description);

/** A report in its two forms: elements per workplace and per material, each with the `entry` properties. */
const PerWorkplaceAndMaterial = (
  entry: Type.TProperties,
  descriptions: { workplace: string; material: string },
) => ({
  workplace: ElementsReport({ workplaceId: Type.String(), ...entry }, descriptions.workplace),
  material: ElementsReport({ materialId: Type.String(), ...entry }, descriptions.material),
});

const hitLists = PerWorkplaceAndMaterial(
  {
    operatingStateId: Type.String(),
    duration: Type.Number({ description: 'milliseconds' }),
    durationPercentage: Share('duration / the time of the same workplace or material'),
    absoluteDurationPercentage: Share('duration / the time of all elements'),
    frequency: Share("the element's periods / the periods of all elements"),
  },
  {
    workplace: 'Time per workplace and operating state in the scheduled time',
    material: 'Time per material and operating state while operations of the material ran',
  },
);
export const HitListWorkplaceSchema = hitLists.workplace;
export const HitListMaterialSchema = hitLists.material;

export const TotalQuantitySchema = ElementsReport(
  {
    workplaceId: Type.String(),
    materialId: Nullable(Type.String()),
    operationId: Nullable(Type.String()),
    startDate: Type.String({ format: 'date-time', description: 'The first booking' }),
    endDate: Type.String({ format: 'date-time', description: 'The last booking' }),
    targetQuantity: Nullable(Type.Number()),
    yieldQuantity: Type.Number(),
    scrapQuantity: Type.Number(),
    reworkQuantity: Type.Number(),
    totalQuantity: Type.Number(),
  },
  'Quantities per workplace and operation in the scheduled time',
);

const qualityDetails = PerWorkplaceAndMaterial(
  {
    qualityTypeId: Type.Enum(['YIELD', 'SCRAP', 'REWORK']),
    qualityDetailId: Nullable(Type.String({ description: 'null: booked without a quality detail' })),
    quantity: Type.Number(),
  },
  {
    workplace: 'Quantity per workplace, quality type and quality detail',
    material: 'Quantity per material, quality type and quality detail',
  },
);
export const QualityDetailsWorkplaceSchema = qualityDetails.workplace;
export const QualityDetailsMaterialSchema = qualityDetails.material;
