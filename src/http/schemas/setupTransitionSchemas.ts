// Setup transition rules and the setup matrix as the API shows and takes them
// (docs/resources/setup-transitions.md).
import { type Static, Type } from 'typebox';
import { SETUP_TRANSITION_CRITERIA, SETUP_TRANSITION_ORIGINS } from '../../domain/setupTransitions.ts';
import { absentAsNull, DateTime, Nullable, ReplaceBody, Resource, Uuid } from './common.ts';

/** Who made a rule of a workplace group (manufacturing variant rules share it). */
export const Origin = Type.Enum([...SETUP_TRANSITION_ORIGINS], {
  description: 'Who made the rule: manual data maintenance or an evaluation system',
});
const Criterion = Type.Enum([...SETUP_TRANSITION_CRITERIA], {
  description: 'What the setup time depends on: the material numbers or the materials\u2019 characteristics',
});
/** A rule's time in ms, at most a year, or null. */
export const Milliseconds = (description: string) =>
  Nullable(Type.Integer({ minimum: 0, maximum: 31_536_000_000, description }));

export const SetupTransitionRuleSchema = Resource(
  Type.Object({
    id: Uuid,
    origin: Origin,
    criterion: Criterion,
    predecessorConditions: Type.String(),
    successorConditions: Type.String(),
    setupTimeIncrement: Milliseconds(
      'MATERIAL_CHARACTERISTICS: ms added when both materials meet the conditions',
    ),
    setupTime: Milliseconds('MATERIAL_NUMBER: the setup time of the transition, ms'),
  }),
  'A rule for the setup time between two materials at a workplace group',
);

const Conditions = (which: string) =>
  Type.String({
    minLength: 1,
    maxLength: 2000,
    description: `MATERIAL_NUMBER: the ${which} material's number; MATERIAL_CHARACTERISTICS: conditions on its characteristics (color==black;width=lt=40)`,
  });

const writable = {
  origin: Origin,
  criterion: Criterion,
  predecessorConditions: Conditions('predecessor'),
  successorConditions: Conditions('successor'),
  setupTimeIncrement: Type.Optional(Milliseconds('MATERIAL_CHARACTERISTICS only')),
  setupTime: Type.Optional(Milliseconds('MATERIAL_NUMBER only')),
};
export const CreateSetupTransitionRuleBody = Type.Object(writable, { additionalProperties: false });
export const ReplaceSetupTransitionRuleBody = ReplaceBody(writable);
export const setupTransitionRuleInput = (body: Static<typeof CreateSetupTransitionRuleBody>) =>
  absentAsNull(CreateSetupTransitionRuleBody, body);

export const SetupMatrixEntrySchema = Type.Object({
  predecessorMaterial: Type.Object({ number: Type.String() }),
  successorMaterial: Type.Object({ number: Type.String() }),
  setupTime: Type.Integer({ description: 'ms' }),
});

/** Beside the matrix's elements: when its newest rule was made or changed. */
export const SetupMatrixProperties = { creationDate: Nullable(DateTime) };
