// Setup transition rules of a workplace group and the setup matrix they give
// (docs/resources/setup-transitions.md).
import { listSetupTransitionRules } from '../../db/repositories/setupTransitionRuleRepository.ts';
import * as service from '../../services/setupTransitionService.ts';
import type { Api } from '../api.ts';
import type { ServerDeps } from '../deps.ts';
import { pageOf, registerElementsRoute } from '../elementRoutes.ts';
import { link } from '../hal.ts';
import { setupTransitionRulesPath, WORKPLACE_GROUPS_PATH } from '../paths.ts';
import { iso } from '../presenters/properties.ts';
import { presentSetupTransitionRule } from '../presenters/setupTransitionPresenter.ts';
import {
  CreateSetupTransitionRuleBody,
  ReplaceSetupTransitionRuleBody,
  SetupMatrixEntrySchema,
  SetupMatrixProperties,
  SetupTransitionRuleSchema,
  setupTransitionRuleInput,
} from '../schemas/setupTransitionSchemas.ts';
import { registerGroupRules } from './workplaceGroupRoutes.ts';

export function registerSetupTransitions(api: Api, { db }: ServerDeps): void {
  registerGroupRules(api, db, {
    resource: {
      path: setupTransitionRulesPath(':id'),
      itemParam: 'setupTransitionRuleId',
      schema: SetupTransitionRuleSchema,
      present: presentSetupTransitionRule,
    },
    noun: 'setup transition rule',
    events: 'SETUP_TRANSITION_RULE',
    list: listSetupTransitionRules,
    input: setupTransitionRuleInput,
    rules: service.setupTransitionRules,
    create: {
      description:
        'MATERIAL_NUMBER rules give setupTime, MATERIAL_CHARACTERISTICS rules setupTimeIncrement and ' +
        'conditions such as color==black;width=lt=40 (docs/resources/setup-transitions.md).',
      body: CreateSetupTransitionRuleBody,
    },
    replaceBody: ReplaceSetupTransitionRuleBody,
  });

  registerElementsRoute(api, {
    tags: ['workplace groups'],
    path: `${WORKPLACE_GROUPS_PATH}/:id/setupTransitions`,
    operationId: 'getWorkplaceGroupSetupTransitions',
    summary: 'The setup matrix of a workplace group: the setup time between the materials made there',
    description:
      'Computed from the group\u2019s rules for the materials of the operations planned at the group or its ' +
      `workplaces (at most ${service.SETUP_MATRIX_MAX_MATERIALS}, the most recent); see docs/resources/setup-transitions.md.`,
    element: SetupMatrixEntrySchema,
    beside: SetupMatrixProperties,
    load: async (id, _filters, page) => {
      const matrix = await service.getSetupTransitions(db, id);
      return { ...pageOf(matrix.elements, page), beside: { creationDate: iso(matrix.creationDate) } };
    },
    present: (entry) => entry,
    links: (id, request) => ({ workplaceGroup: link(request.hrefs.api(`${WORKPLACE_GROUPS_PATH}/${id}`)) }),
  });
}
