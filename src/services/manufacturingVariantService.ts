import type { Queryable } from '../db/database.ts';
import * as rules from '../db/repositories/manufacturingVariantRuleRepository.ts';
import {
  checkManufacturingVariantRule,
  MANUFACTURING_VARIANT_RULE_CHARACTERISTICS,
  type ManufacturingVariantRule,
  type ManufacturingVariantRuleInput,
} from '../domain/manufacturingVariants.ts';
import { changedProperties } from '../domain/workplaces.ts';
import { checkReference } from './referenceService.ts';
import { groupRules } from './workplaceGroupService.ts';

const eventData = (rule: ManufacturingVariantRule) => ({
  manufacturingVariantRuleId: rule.id,
  workplaceGroupId: rule.workplaceGroupId,
  origin: rule.origin,
  criterion: rule.criterion,
  conditions: rule.conditions,
  workplaceIds: rule.workplaceIds,
  tools: rule.tools,
  additionalConditions: rule.additionalConditions,
  forecastedDelays: rule.forecastedDelays,
});

/** Lists and objects as JSON text, so `changedProperties` compares them with `!==`. */
const comparable = (rule: ManufacturingVariantRule) => ({
  ...eventData(rule),
  workplaceIds: JSON.stringify(rule.workplaceIds),
  tools: JSON.stringify(rule.tools),
  forecastedDelays: JSON.stringify(rule.forecastedDelays),
});

/** Every workplace the rule names exists (kept so until commit). */
async function checkWorkplaces(tx: Queryable, input: ManufacturingVariantRuleInput): Promise<void> {
  for (const [index, workplaceId] of input.workplaceIds.entries())
    await checkReference(tx, `workplaceIds[${index}]`, workplaceId, 'workplaces');
}

/** The group's rules (docs/events.md, "Catalogue": MANUFACTURING_VARIANT_RULE_* about the group). */
export const manufacturingVariantRules = groupRules<ManufacturingVariantRuleInput>(
  'manufacturingVariantRule',
  'MANUFACTURING_VARIANT_RULE',
  {
    find: rules.findManufacturingVariantRule,
    rows: rules.manufacturingVariantRuleWrites,
    eventData,
    checkInput: checkManufacturingVariantRule,
    checkReferences: checkWorkplaces,
    changed: (before, after) =>
      changedProperties(comparable(before), comparable(after), MANUFACTURING_VARIANT_RULE_CHARACTERISTICS),
  },
);
