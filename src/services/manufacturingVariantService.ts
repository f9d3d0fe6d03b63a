import type { Database, Queryable } from '../db/database.ts';
import * as rules from '../db/repositories/manufacturingVariantRuleRepository.ts';
import { catalogueEvent } from '../domain/events.ts';
import {
  checkManufacturingVariantRule,
  MANUFACTURING_VARIANT_RULE_CHARACTERISTICS,
  type ManufacturingVariantRule,
  type ManufacturingVariantRuleInput,
} from '../domain/manufacturingVariants.ts';
import { changedProperties } from '../domain/workplaces.ts';
import { lifecycle, newItem, withChanged } from './lifecycle.ts';
import { checkReference } from './referenceService.ts';
import { getWorkplaceGroup, lockWorkplaceGroupBelow } from './workplaceGroupService.ts';
import { gettingBelow, lockingBelow } from './writes.ts';

const lockRule = lockingBelow(
  'manufacturingVariantRule',
  lockWorkplaceGroupBelow,
  rules.findManufacturingVariantRule,
);

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

const RULES = lifecycle<ManufacturingVariantRule>('manufacturingVariantRule', {
  rows: rules.manufacturingVariantRuleWrites,
  // MANUFACTURING_VARIANT_RULE_* about the group (docs/events.md, "Catalogue").
  events: (change, rule, changed) => [
    catalogueEvent(
      `MANUFACTURING_VARIANT_RULE_${change}`,
      rule.workplaceGroupId,
      withChanged(eventData(rule), changed),
    ),
  ],
});

/** Every workplace the rule names exists (kept so until commit). */
async function checkWorkplaces(tx: Queryable, input: ManufacturingVariantRuleInput): Promise<void> {
  for (const [index, workplaceId] of input.workplaceIds.entries())
    await checkReference(tx, `workplaceIds[${index}]`, workplaceId, 'workplaces');
}

/** A rule of the group: 404 when there is no such group, or no such rule of it. */
export const getManufacturingVariantRule = gettingBelow(
  'manufacturingVariantRule',
  getWorkplaceGroup,
  rules.findManufacturingVariantRule,
);

export async function createManufacturingVariantRule(
  db: Database,
  groupId: string,
  input: ManufacturingVariantRuleInput,
): Promise<ManufacturingVariantRule> {
  checkManufacturingVariantRule(input);
  return db.transaction(async (tx) => {
    await lockWorkplaceGroupBelow(tx, groupId);
    await checkWorkplaces(tx, input);
    return RULES.insert(tx, newItem({ ...input, workplaceGroupId: groupId }, new Date()));
  });
}

export async function replaceManufacturingVariantRule(
  db: Database,
  groupId: string,
  id: string,
  input: ManufacturingVariantRuleInput,
): Promise<ManufacturingVariantRule> {
  checkManufacturingVariantRule(input);
  return RULES.replace(db, lockRule(groupId, id), async (tx, before) => {
    await checkWorkplaces(tx, input);
    const after: ManufacturingVariantRule = { ...before, ...input };
    return {
      after,
      changed: changedProperties(
        comparable(before),
        comparable(after),
        MANUFACTURING_VARIANT_RULE_CHARACTERISTICS,
      ),
    };
  });
}

export async function deleteManufacturingVariantRule(
  db: Database,
  groupId: string,
  id: string,
): Promise<void> {
  await RULES.delete(db, lockRule(groupId, id));
}
