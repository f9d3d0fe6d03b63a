// Manufacturing variant rules as the API shows and takes them
// (docs/resources/manufacturing-variants.md).
import { type Static, Type } from 'typebox';
import { MANUFACTURING_VARIANT_CRITERIA } from '../../domain/manufacturingVariants.ts';
import { absentAsNull, Nullable, optional, optionalText, ReplaceBody, Resource, Uuid } from './common.ts';
import { Milliseconds, Origin } from './setupTransitionSchemas.ts';

const Criterion = Type.Enum([...MANUFACTURING_VARIANT_CRITERIA], {
  description: 'What a material must meet: its number, or conditions on its characteristics',
});
const Rate = (description: string, maximum = 1) => Type.Number({ exclusiveMinimum: 0, maximum, description });
const Factor = (description: string) => Nullable(Type.Number({ minimum: 0, maximum: 1000, description }));

const Tool = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 100 }),
    name: optionalText(200),
    description: optionalText(2000),
  },
  { additionalProperties: false },
);

const delayProperties = {
  processAvailability: Rate('Predicted process availability of the workplace during the operation'),
  performance: Rate('Predicted performance rate during the operation', 10),
  qualityRate: Rate('Predicted quality rate during the operation'),
  additionalSetupTime: Milliseconds('Setup time the variant\u2019s special tools add, ms'),
  intermediateSetupInterval: Nullable(
    Type.Number({ minimum: 0, description: 'Output quantity after which the workplace is set up again' }),
  ),
  intermediateSetupTime: Milliseconds('The time of each intermediate setup, ms'),
  staffCapacityFactor: Factor('An additional delay factor caused by understaffing'),
  skillFactor: Factor('An additional delay factor caused by poorly qualified staff members'),
};

export const ManufacturingVariantRuleSchema = Resource(
  Type.Object({
    id: Uuid,
    origin: Origin,
    criterion: Criterion,
    conditions: Type.String(),
    workplaces: Type.Array(
      Type.Object({
        id: Uuid,
        number: Type.String(),
        description: Nullable(Type.String()),
        erpContextId: Nullable(Type.String()),
      }),
    ),
    tools: Type.Array(
      Type.Object({ id: Type.String(), name: Nullable(Type.String()), description: Nullable(Type.String()) }),
    ),
    additionalConditions: Nullable(Type.String()),
    forecastedDelays: Nullable(
      Type.Object({
        delayFactor: Type.Number({ description: '1/(processAvailability * performance * qualityRate)' }),
        ...delayProperties,
      }),
    ),
  }),
  'A manufacturing variant of a workplace group: the workplaces and tools for the materials meeting its conditions',
);

const ForecastedDelaysBody = Type.Object(
  {
    // A GET shows it, so a client sends it back: derived, ignored when sent.
    delayFactor: Type.Optional(Type.Number({ description: 'Derived from the rates: ignored when sent' })),
    ...delayProperties,
    additionalSetupTime: Type.Optional(delayProperties.additionalSetupTime),
    intermediateSetupInterval: Type.Optional(delayProperties.intermediateSetupInterval),
    intermediateSetupTime: Type.Optional(delayProperties.intermediateSetupTime),
    staffCapacityFactor: Type.Optional(delayProperties.staffCapacityFactor),
    skillFactor: Type.Optional(delayProperties.skillFactor),
  },
  { additionalProperties: false },
);

const writable = {
  origin: Origin,
  criterion: Criterion,
  conditions: Type.String({
    minLength: 1,
    maxLength: 2000,
    description:
      "MATERIAL_NUMBER: the material's number; MATERIAL_CHARACTERISTICS: conditions on its characteristics (color==black;width=lt=40)",
  }),
  workplaceIds: Type.Optional(Type.Array(Uuid, { maxItems: 100, uniqueItems: true })),
  tools: Type.Optional(Type.Array(Tool, { maxItems: 100 })),
  additionalConditions: Type.Optional(
    Nullable(Type.String({ maxLength: 2000, description: 'Passed on as given, never evaluated' })),
  ),
  forecastedDelays: optional(ForecastedDelaysBody),
};
export const CreateManufacturingVariantRuleBody = Type.Object(writable, { additionalProperties: false });
export const ReplaceManufacturingVariantRuleBody = ReplaceBody(writable);

export const manufacturingVariantRuleInput = (body: Static<typeof CreateManufacturingVariantRuleBody>) => {
  const given = absentAsNull(CreateManufacturingVariantRuleBody, body);
  const delays = body.forecastedDelays;
  return {
    ...given,
    workplaceIds: body.workplaceIds ?? [],
    tools: (body.tools ?? []).map((tool) => absentAsNull(Tool, tool)),
    forecastedDelays: delays === undefined || delays === null ? null : delaysInput(delays),
  };
};

/** The delays as the service takes them: what is absent null, the derived delayFactor left out. */
function delaysInput(delays: Static<typeof ForecastedDelaysBody>) {
  const { delayFactor: _derived, ...given } = absentAsNull(ForecastedDelaysBody, delays);
  return given;
}
