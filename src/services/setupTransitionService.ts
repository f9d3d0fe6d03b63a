import type { Database } from '../db/database.ts';
import * as rules from '../db/repositories/setupTransitionRuleRepository.ts';
import {
  checkSetupTransitionRule,
  SETUP_TRANSITION_RULE_CHARACTERISTICS,
  type SetupMatrixEntry,
  type SetupTransitionRule,
  type SetupTransitionRuleInput,
  setupMatrix,
} from '../domain/setupTransitions.ts';
import { changedProperties } from '../domain/workplaces.ts';
import { getWorkplaceGroup, groupRules } from './workplaceGroupService.ts';

/** The materials a setup matrix covers at most (the most recently planned in the group). */
export const SETUP_MATRIX_MAX_MATERIALS = 500;

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

/** The group's rules (docs/events.md, "Catalogue": SETUP_TRANSITION_RULE_* about the group). */
export const setupTransitionRules = groupRules<SetupTransitionRuleInput>(
  'setupTransitionRule',
  'SETUP_TRANSITION_RULE',
  {
    find: rules.findSetupTransitionRule,
    rows: rules.setupTransitionRuleWrites,
    eventData,
    checkInput: checkSetupTransitionRule,
    changed: (before, after) =>
      changedProperties(eventData(before), eventData(after), SETUP_TRANSITION_RULE_CHARACTERISTICS),
  },
);

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
