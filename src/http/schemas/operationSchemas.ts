// Operations as the API shows and takes them (docs/api.md, "Resources"), and how a body
// becomes the service's input (also for the operations sent with a new production order).
import { type Static, Type } from 'typebox';
import { AppError } from '../../domain/errors.ts';
import { OPERATION_PHASE_IDS } from '../../domain/operationPhases.ts';
import {
  checkScheduledDates,
  checkTargetProcessingTime,
  type ManufacturingVariant,
  NO_SCHEDULED_DATES,
  type RequiredSkills,
  SCHEDULED_DATE_NAMES,
  type ScheduledDates,
  type UserField,
} from '../../domain/operations.ts';
import { checkPeriod } from '../../domain/productionOrders.ts';
import type * as service from '../../services/operationService.ts';
import {
  absentAsNull,
  DateTime,
  Nullable,
  NumberedProperties,
  nullableDate,
  optional,
  optionalList,
  optionalText,
  Resource,
  Uuid,
} from './common.ts';

const Quantity = Type.Number({ minimum: 0, maximum: 1e12 });
const Duration = Type.Integer({ minimum: 0, description: 'Milliseconds' });
const Unit = Type.String({ maxLength: 20 });
const Description = Type.String({ maxLength: 2000 });

export const MaterialSchema = Type.Object(
  {
    number: Type.String({ minLength: 1, maxLength: 100 }),
    description: optional(Description),
    type: optionalText(100),
  },
  { additionalProperties: false },
);
/** A material of a body as the services take it: objects in a fixed key order (changes compare JSON text). */
export const materialInput = (material: Static<typeof MaterialSchema> | null | undefined) =>
  material ? absentAsNull(MaterialSchema, material) : null;
const ErpText = Type.String({ maxLength: 100 });
const ComponentSchema = Type.Object(
  {
    materialNumber: Type.String({ minLength: 1, maxLength: 100 }),
    description: optional(Description),
    quantity: optional(Quantity),
    quantityUnit: optional(Unit),
  },
  { additionalProperties: false },
);
const ToolSchema = Type.Object(
  {
    type: optionalText(100),
    identifier: Type.String({ minLength: 1, maxLength: 200 }),
    description: optional(Description),
    toolId: optional(Uuid),
    itemNumber: optional(ErpText),
    group: optional(ErpText),
    quantity: optional(Quantity),
    quantityUnit: optional(Unit),
  },
  { additionalProperties: false },
);
const CharacteristicSchema = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    identifier: optional(ErpText),
    value: optionalText(2000),
    unit: optional(Unit),
  },
  { additionalProperties: false },
);
const UserFieldSchema = Type.Object(
  {
    position: Type.Integer({ minimum: 1, maximum: 1000 }),
    value: optionalText(2000),
  },
  { additionalProperties: false },
);
const ToolDefinitionSchema = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 200, description: "The ERP's id of the tool definition" }),
    name: optionalText(200),
    description: optional(Description),
  },
  { additionalProperties: false },
);
const Factor = Type.Number({ minimum: 0, maximum: 1e6 });
const ForecastSchema = Type.Object(
  {
    delayFactor: optional(Factor),
    processAvailability: optional(Factor),
    performance: optional(Factor),
    qualityRate: optional(Factor),
    processingTime: optional(Duration),
    additionalSetupTime: optional(Duration),
    intermediateSetupTime: optional(Duration),
    staffCapacityFactor: optional(Factor),
    skillFactor: optional(Factor),
  },
  { additionalProperties: false },
);
const VariantSchema = Type.Object(
  {
    workplaceIds: Type.Optional(Type.Array(Uuid, { maxItems: 100, uniqueItems: true })),
    tools: Type.Optional(Type.Array(ToolDefinitionSchema, { maxItems: 100 })),
    additionalConditions: optionalText(2000),
    forecast: optional(ForecastSchema),
  },
  { additionalProperties: false },
);
const SkillSchema = Type.Object(
  {
    skillId: Type.String({ minLength: 1, maxLength: 200 }),
    minimumSkill: optional(Factor),
    capacity: optional(Factor),
  },
  { additionalProperties: false },
);
const RequiredSkillsSchema = Type.Object(
  {
    setup: Type.Optional(Type.Array(SkillSchema, { maxItems: 100 })),
    processing: Type.Optional(Type.Array(SkillSchema, { maxItems: 100 })),
  },
  { additionalProperties: false },
);
const variantInput = (variant: Static<typeof VariantSchema>): ManufacturingVariant => ({
  workplaceIds: variant.workplaceIds ?? [],
  tools: (variant.tools ?? []).map((tool) => absentAsNull(ToolDefinitionSchema, tool)),
  additionalConditions: variant.additionalConditions ?? null,
  forecast: variant.forecast ? absentAsNull(ForecastSchema, variant.forecast) : null,
});
const skillsInput = (skills: Static<typeof RequiredSkillsSchema> | null | undefined): RequiredSkills => ({
  setup: (skills?.setup ?? []).map((skill) => absentAsNull(SkillSchema, skill)),
  processing: (skills?.processing ?? []).map((skill) => absentAsNull(SkillSchema, skill)),
});
const scheduledDateFields = {
  earliestStartDate: optional(DateTime),
  latestStartDate: optional(DateTime),
  earliestEndDate: optional(DateTime),
  latestEndDate: optional(DateTime),
  scheduledStartDate: optional(DateTime),
  scheduledEndDate: optional(DateTime),
};
export const ScheduledDatesBody = Type.Object(scheduledDateFields, { additionalProperties: false });

/** Scheduled dates from a body; `prefix` names them in 400 answers. */
export function scheduledDatesInput(
  body: Static<typeof ScheduledDatesBody> | null | undefined,
  prefix: string,
): ScheduledDates {
  if (!body) return NO_SCHEDULED_DATES;
  const dates = {} as Record<keyof ScheduledDates, Date | null>;
  for (const name of SCHEDULED_DATE_NAMES) dates[name] = nullableDate(body[name]);
  checkScheduledDates(dates, prefix);
  return dates;
}

/** Each user field position once: the position is the field's key. */
function checkUserFields(fields: readonly UserField[], prefix: string): void {
  const seen = new Set<number>();
  for (const [index, field] of fields.entries()) {
    if (seen.has(field.position)) {
      throw new AppError('VALIDATION_FAILED', {
        rule: 'value',
        field: `${prefix}userFields[${index}].position`,
        detail: 'each position may be given once',
      });
    }
    seen.add(field.position);
  }
}

/** Writable fields of an operation, also used for the operations sent with a new production order. */
export const operationFields = {
  number: Type.String({ minLength: 1, maxLength: 100 }),
  description: optional(Description),
  sequence: Type.Optional(
    Type.Integer({ minimum: 0, maximum: 2147483647, description: 'Position in the order; default: last' }),
  ),
  material: optional(MaterialSchema),
  workplaceId: optional(Uuid),
  workplaceGroupId: optional(Uuid),
  targetQuantity: optional(Quantity),
  quantityUnit: optional(Unit),
  targetTimePerUnit: optional(Duration),
  targetProcessingTime: optional(
    Type.Integer({
      minimum: 0,
      description: 'Derived: targetQuantity x targetTimePerUnit; another value is 400',
    }),
  ),
  targetSetupTime: optional(Duration),
  targetTeardownTime: optional(Duration),
  targetMoveTime: optional(Duration),
  targetWaitTime: optional(Duration),
  components: optionalList(ComponentSchema),
  productionResourcesAndTools: optionalList(ToolSchema),
  split: optional(ErpText),
  erpContextId: optional(ErpText),
  scheduledDates: optional(ScheduledDatesBody),
  alternativeWorkplaceIds: Type.Optional(Type.Array(Uuid, { maxItems: 1000, uniqueItems: true })),
  materialCharacteristics: optionalList(CharacteristicSchema),
  userFields: optionalList(UserFieldSchema),
  targetMachineCycleTime: optional(Duration),
  unitsPerMachineCycle: optional(Quantity),
  manufacturingVariants: Type.Optional(Type.Array(VariantSchema, { maxItems: 100 })),
  requiredTools: optionalList(ToolDefinitionSchema),
  requiredSkills: optional(RequiredSkillsSchema),
  startDate: optional(DateTime),
  endDate: optional(DateTime),
};
const OperationFieldsSchema = Type.Object(operationFields);
type OperationFields = Static<typeof OperationFieldsSchema>;

/** The service input from a body; `prefix` names the operation in bulk bodies (`operations[2].`). */
export function operationInput(
  body: OperationFields,
  productionOrderId: string,
  prefix = '',
): service.NewOperation {
  const input: service.NewOperation = {
    productionOrderId,
    number: body.number,
    description: body.description ?? null,
    sequence: body.sequence,
    // Objects are built in a fixed key order: changes are detected on their JSON text.
    material: materialInput(body.material),
    workplaceId: body.workplaceId ?? null,
    workplaceGroupId: body.workplaceGroupId ?? null,
    targetQuantity: body.targetQuantity ?? null,
    quantityUnit: body.quantityUnit ?? null,
    targetTimePerUnit: body.targetTimePerUnit ?? null,
    targetSetupTime: body.targetSetupTime ?? null,
    targetTeardownTime: body.targetTeardownTime ?? null,
    targetMoveTime: body.targetMoveTime ?? null,
    targetWaitTime: body.targetWaitTime ?? null,
    components: (body.components ?? []).map((component) => absentAsNull(ComponentSchema, component)),
    productionResourcesAndTools: (body.productionResourcesAndTools ?? []).map((tool) =>
      absentAsNull(ToolSchema, tool),
    ),
    split: body.split ?? null,
    erpContextId: body.erpContextId ?? null,
    scheduledDates: scheduledDatesInput(body.scheduledDates, `${prefix}scheduledDates.`),
    alternativeWorkplaceIds: body.alternativeWorkplaceIds ?? [],
    materialCharacteristics: (body.materialCharacteristics ?? []).map((characteristic) =>
      absentAsNull(CharacteristicSchema, characteristic),
    ),
    userFields: (body.userFields ?? []).map((field) => absentAsNull(UserFieldSchema, field)),
    targetMachineCycleTime: body.targetMachineCycleTime ?? null,
    unitsPerMachineCycle: body.unitsPerMachineCycle ?? null,
    manufacturingVariants: (body.manufacturingVariants ?? []).map(variantInput),
    requiredTools: (body.requiredTools ?? []).map((tool) => absentAsNull(ToolDefinitionSchema, tool)),
    requiredSkills: skillsInput(body.requiredSkills),
    startDate: nullableDate(body.startDate),
    endDate: nullableDate(body.endDate),
  };
  checkTargetProcessingTime(input, body.targetProcessingTime, `${prefix}targetProcessingTime`);
  checkPeriod(input.startDate, input.endDate, `${prefix}endDate`);
  checkUserFields(input.userFields, prefix);
  return input;
}

const MaterialProperty = Nullable(
  Type.Object({ number: Type.String(), description: Nullable(Type.String()), type: Nullable(Type.String()) }),
);
const DateProperty = Nullable(DateTime);
const NullableNumber = Nullable(Type.Number());
const NullableInteger = Nullable(Type.Integer());
/** A tool definition as the ERP names it. */
export const ToolDefinitionProperty = Type.Object({
  id: Type.String(),
  name: Nullable(Type.String()),
  description: Nullable(Type.String()),
});
export const ForecastProperty = Nullable(
  Type.Object({
    delayFactor: NullableNumber,
    processAvailability: NullableNumber,
    performance: NullableNumber,
    qualityRate: NullableNumber,
    processingTime: NullableInteger,
    additionalSetupTime: NullableInteger,
    intermediateSetupTime: NullableInteger,
    staffCapacityFactor: NullableNumber,
    skillFactor: NullableNumber,
  }),
);
const ManufacturingVariantProperty = Type.Object({
  workplaceIds: Type.Array(Uuid),
  tools: Type.Array(ToolDefinitionProperty),
  additionalConditions: Nullable(Type.String()),
  forecast: ForecastProperty,
});
const RequiredSkillProperty = Type.Object({
  skillId: Type.String(),
  minimumSkill: NullableNumber,
  capacity: NullableNumber,
});
export const RequiredSkillsProperty = Type.Object({
  setup: Type.Array(RequiredSkillProperty),
  processing: Type.Array(RequiredSkillProperty),
});
export const ScheduledDatesProperties = Type.Object({
  earliestStartDate: DateProperty,
  latestStartDate: DateProperty,
  earliestEndDate: DateProperty,
  latestEndDate: DateProperty,
  scheduledStartDate: DateProperty,
  scheduledEndDate: DateProperty,
});
/** A workplace as other resources name it (the SDK's workplace reference). */
export const WorkplaceReference = Type.Object(NumberedProperties);
/** A production order as its operations name it: the first properties of the order itself. */
export const productionOrderReference = {
  id: Uuid,
  number: Type.String(),
  split: Nullable(Type.String()),
  description: Nullable(Type.String()),
  material: MaterialProperty,
  erpContextId: Nullable(Type.String()),
};
const Properties = Type.Object({
  id: Uuid,
  number: Type.String(),
  description: Nullable(Type.String()),
  productionOrderId: Uuid,
  productionOrder: Nullable(Type.Object(productionOrderReference)),
  split: Nullable(Type.String()),
  sequence: Type.Integer(),
  sequenceNumber: Type.Integer({ description: 'The position in the order (as sequence)' }),
  erpContextId: Nullable(Type.String()),
  currentWorkplace: Nullable(WorkplaceReference),
  material: MaterialProperty,
  operationPhaseId: Type.Enum([...OPERATION_PHASE_IDS]),
  workplaceId: Nullable(Uuid),
  workplaceGroupId: Nullable(Uuid),
  targetQuantity: NullableNumber,
  quantityUnit: Nullable(Type.String()),
  targetTimePerUnit: NullableInteger,
  targetProcessingTime: Nullable(Type.Number({ description: 'targetQuantity x targetTimePerUnit, ms' })),
  targetSetupTime: NullableInteger,
  targetTeardownTime: NullableInteger,
  targetMoveTime: NullableInteger,
  targetWaitTime: NullableInteger,
  components: Type.Array(
    Type.Object({
      materialNumber: Type.String(),
      description: Nullable(Type.String()),
      quantity: NullableNumber,
      quantityUnit: Nullable(Type.String()),
    }),
  ),
  productionResourcesAndTools: Type.Array(
    Type.Object({
      type: Nullable(Type.String()),
      identifier: Type.String(),
      description: Nullable(Type.String()),
      toolId: Nullable(Uuid),
      itemNumber: Nullable(Type.String()),
      group: Nullable(Type.String()),
      quantity: NullableNumber,
      quantityUnit: Nullable(Type.String()),
    }),
  ),
  scheduledDates: ScheduledDatesProperties,
  alternativeWorkplaceIds: Type.Array(Uuid),
  materialCharacteristics: Type.Array(
    Type.Object({
      name: Type.String(),
      identifier: Nullable(Type.String()),
      value: Nullable(Type.String()),
      unit: Nullable(Type.String()),
    }),
  ),
  userFields: Type.Array(Type.Object({ position: Type.Integer(), value: Nullable(Type.String()) })),
  targetMachineCycleTime: Nullable(Type.Integer({ description: 'Milliseconds per machine cycle' })),
  unitsPerMachineCycle: NullableNumber,
  manufacturingVariants: Type.Array(ManufacturingVariantProperty),
  requiredTools: Type.Array(ToolDefinitionProperty),
  requiredSkills: RequiredSkillsProperty,
  startDate: Nullable(DateTime),
  endDate: Nullable(DateTime),
});
export const OperationSchema = Resource(
  Properties,
  'Operation: one step of a production order. Action links changeOperationPhaseTo<PHASE> (POST) for each phase allowed next',
);
export const RecordedOperationPhaseSchema = Resource(
  Type.Object({
    id: Uuid,
    operationId: Uuid,
    operationPhaseId: Type.Enum([...OPERATION_PHASE_IDS]),
    workplaceId: Nullable(Uuid),
    staffMemberId: Nullable(Uuid),
    startDate: DateTime,
    endDate: Nullable(DateTime),
  }),
  'A period in one operation phase',
);

const PhaseIdSchema = Type.Enum([...OPERATION_PHASE_IDS]);
export const OperationFilters = {
  productionOrderId: Type.Optional(Uuid),
  workplaceId: Type.Optional(Uuid),
  operationPhaseId: Type.Optional(PhaseIdSchema),
  isInProgress: Type.Optional(
    Type.Boolean({ description: 'true: phase SETUP, TRAINING, PROCESSING or INTERRUPTED; false: any other' }),
  ),
  startDate: Type.Optional(DateTime),
  endDate: Type.Optional(DateTime),
};
export const OperationSearchBody = Type.Object(
  {
    productionOrderNumbers: optionalList(Type.String({ maxLength: 100 })),
    productionOrderIds: optionalList(Uuid),
    operationPhaseIds: optionalList(PhaseIdSchema),
    workplaceIds: optionalList(Uuid),
    materialNumbers: optionalList(Type.String({ maxLength: 100 })),
    startDate: Type.Optional(DateTime),
    endDate: Type.Optional(DateTime),
  },
  { additionalProperties: false, description: 'Each list matches any of its values; lists combine with AND' },
);
export const CreateOperationBody = Type.Object(
  { productionOrderId: Uuid, ...operationFields },
  { additionalProperties: false },
);
export const ReplaceOperationBody = Type.Object(
  {
    id: Type.Optional(Type.String({ maxLength: 100, description: 'Must equal the path id when sent' })),
    productionOrderId: Uuid,
    ...operationFields,
  },
  { additionalProperties: false },
);
export const PhaseBody = Type.Object(
  { workplaceId: Type.Optional(Uuid), staffMemberId: Type.Optional(Uuid) },
  { additionalProperties: false },
);
