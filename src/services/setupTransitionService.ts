import type { Database } from '../db/database.ts';
import * as rules from '../db/repositories/setupTransitionRuleRepository.ts';
import { catalogueEvent } from '../domain/events.ts';
import {
  checkSetupTransitionRule,
  SETUP_TRANSITION_RULE_CHARACTERISTICS,
  type SetupMatrixEntry,
  type SetupTransitionRule,
  type SetupTransitionRuleInput,
  setupMatrix,
} from '../domain/setupTransitions.ts';
import { changedProperties } from '../domain/workplaces.ts';
import { lifecycle, newItem, withChanged } from './lifecycle.ts';
import { getWorkplaceGroup, lockWorkplaceGroupBelow } from './workplaceGroupService.ts';
import { gettingBelow, lockingBelow } from './writes.ts';

/** The materials a setup matrix covers at most (the most recently planned in the group). */
export const SETUP_MATRIX_MAX_MATERIALS = 500;

const lockRule = lockingBelow('setupTransitionRule', lockWorkplaceGroupBelow, rules.findSetupTransitionRule);

const eventData = (rule: SetupTransitionRule) => ({
  setupTransitionRuleId: rule.id,
  workplaceGroupId: rule.workplaceGroupId,
  origin: rule.origin,
  criterion: rule.criterion,
  predecessorConditions: rule.predecessorConditions,
  successorConditions: rule.successorConditions,
  setupTimeIncrement: rule.setupTimeIncrement,
  setupTime: rule.setupTime,
});

const RULES = lifecycle<SetupTransitionRule>('setupTransitionRule', {
  rows: rules.setupTransitionRuleWrites,
  // SETUP_TRANSITION_RULE_* about the group (docs/events.md, "Catalogue").
  events: (change, rule, changed) => [
    catalogueEvent(
      `SETUP_TRANSITION_RULE_${change}`,
      rule.workplaceGroupId,
      withChanged(eventData(rule), changed),
    ),
  ],
});

/** A rule of the group: 404 when there is no such group, or no such rule of it. */
export const getSetupTransitionRule = gettingBelow(
  'setupTransitionRule',
  getWorkplaceGroup,
  rules.findSetupTransitionRule,
);

export async function createSetupTransitionRule(
  db: Database,
  groupId: string,
  input: SetupTransitionRuleInput,
): Promise<SetupTransitionRule> {
  checkSetupTransitionRule(input);
  return db.transaction(async (tx) => {
    await lockWorkplaceGroupBelow(tx, groupId);
    return RULES.insert(tx, newItem({ ...input, workplaceGroupId: groupId }, new Date()));
  });
}

export async function replaceSetupTransitionRule(
  db: Database,
  groupId: string,
  id: string,
  input: SetupTransitionRuleInput,
): Promise<SetupTransitionRule> {
  checkSetupTransitionRule(input);
  return RULES.replace(db, lockRule(groupId, id), (_tx, before) => {
    const after: SetupTransitionRule = { ...before, ...input };
    return {
      after,
      changed: changedProperties(eventData(before), eventData(after), SETUP_TRANSITION_RULE_CHARACTERISTICS),
    };
  });
}

export async function deleteSetupTransitionRule(db: Database, groupId: string, id: string): Promise<void> {
  await RULES.delete(db, lockRule(groupId, id));
}

/** The group's setup matrix, as its rules give it now (domain/setupTransitions.ts, `setupMatrix`). */
export async function getSetupTransitions(
  db: Database,
  groupId: string,
): Promise<{ creationDate: Date | null; elements: SetupMatrixEntry[] }> {
  const group = await getWorkplaceGroup(db, groupId);
  const [all, materials] = await Promise.all([
    rules.allSetupTransitionRules(db, group.id),
    rules.materialsOfGroup(db, group.id, SETUP_MATRIX_MAX_MATERIALS),
  ]);
  // The matrix is as new as the newest rule it comes from.
  const creationDate = all.reduce<Date | null>(
    (newest, rule) => (newest === null || rule.updatedAt > newest ? rule.updatedAt : newest),
    null,
  );
  return { creationDate, elements: setupMatrix(all, materials) };
}
