import type { SetupTransitionRule } from '../../domain/setupTransitions.ts';
import { link, type Resource, resource } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';
import { setupTransitionRulesPath, WORKPLACE_GROUPS_PATH } from '../paths.ts';
import { SetupTransitionRuleSchema } from '../schemas/setupTransitionSchemas.ts';
import { propertiesOf } from './properties.ts';

export function presentSetupTransitionRule(
  rule: SetupTransitionRule,
  hrefs: Hrefs,
  writable: boolean,
): Resource {
  const self = hrefs.api(`${setupTransitionRulesPath(rule.workplaceGroupId)}/${rule.id}`);
  return resource(propertiesOf(SetupTransitionRuleSchema, rule), {
    self: link(self),
    workplaceGroup: link(hrefs.api(`${WORKPLACE_GROUPS_PATH}/${rule.workplaceGroupId}`)),
    updateSetupTransitionRule: writable ? link(self, { method: 'PUT' }) : undefined,
    deleteSetupTransitionRule: writable ? link(self, { method: 'DELETE' }) : undefined,
  });
}
