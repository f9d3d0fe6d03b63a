// Manufacturing variant rules of a workplace group (docs/resources/manufacturing-variants.md):
// which workplaces and tools make the materials that meet the rule's conditions, and the delays
// forecast for that variant. Conditions are those of setup transition rules.
import { AppError } from './errors.ts';
import { parseConditions, SETUP_TRANSITION_CRITERIA, SETUP_TRANSITION_ORIGINS } from './setupTransitions.ts';
import type { Stored } from './stored.ts';

const MANUFACTURING_VARIANT_ORIGINS = SETUP_TRANSITION_ORIGINS;
export const MANUFACTURING_VARIANT_CRITERIA = SETUP_TRANSITION_CRITERIA;

/** A tool of the variant as the client names it (not checked against /tools). */
export interface VariantTool {
  id: string;
  name: string | null;
  description: string | null;
}

/** The forecast of the variant; the delay factor is derived from the first three. */
export interface ForecastedDelays {
  processAvailability: number;
  performance: number;
  qualityRate: number;
  /** ms */
  additionalSetupTime: number | null;
  /** The output quantity after which the workplace is set up again. */
  intermediateSetupInterval: number | null;
  /** ms */
  intermediateSetupTime: number | null;
  staffCapacityFactor: number | null;
  skillFactor: number | null;
}

export interface ManufacturingVariantRuleInput {
  origin: (typeof MANUFACTURING_VARIANT_ORIGINS)[number];
  criterion: (typeof MANUFACTURING_VARIANT_CRITERIA)[number];
  /** MATERIAL_NUMBER: the material's number; else conditions on its characteristics. */
  conditions: string;
  /** In the order given. */
  workplaceIds: string[];
  tools: VariantTool[];
  /** Passed on, never evaluated. */
  additionalConditions: string | null;
  forecastedDelays: ForecastedDelays | null;
}

export interface ManufacturingVariantRule extends ManufacturingVariantRuleInput, Stored {
  workplaceGroupId: string;
}

/** Changes of these emit MANUFACTURING_VARIANT_RULE_UPDATED. */
export const MANUFACTURING_VARIANT_RULE_CHARACTERISTICS = [
  'origin',
  'criterion',
  'conditions',
  'workplaceIds',
  'tools',
  'additionalConditions',
  'forecastedDelays',
] as const;

/** A characteristics rule's conditions parse; tool ids are not repeated. */
export function checkManufacturingVariantRule(input: ManufacturingVariantRuleInput): void {
  if (input.criterion === 'MATERIAL_CHARACTERISTICS') parseConditions(input.conditions, 'conditions');
  const seen = new Set<string>();
  input.tools.forEach((tool, index) => {
    if (seen.has(tool.id))
      throw new AppError('VALIDATION_FAILED', {
        rule: 'value',
        field: `tools[${index}].id`,
        detail: 'names a tool already listed',
      });
    seen.add(tool.id);
  });
}

/** 1 / (processAvailability * performance * qualityRate): how much longer the variant takes. */
export const delayFactor = (delays: ForecastedDelays): number =>
  1 / (delays.processAvailability * delays.performance * delays.qualityRate);
