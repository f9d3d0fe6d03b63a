// Manufacturing variant rules of a workplace group (docs/resources/manufacturing-variants.md).
import { listManufacturingVariantRules } from '../../db/repositories/manufacturingVariantRuleRepository.ts';
import { findWorkplaces } from '../../db/repositories/workplaceRepository.ts';
import type { ManufacturingVariantRule } from '../../domain/manufacturingVariants.ts';
import * as service from '../../services/manufacturingVariantService.ts';
import { getWorkplaceGroup } from '../../services/workplaceGroupService.ts';
import type { Api } from '../api.ts';
import { canWrite } from '../auth.ts';
import type { ServerDeps } from '../deps.ts';
import { manufacturingVariantRulesPath } from '../paths.ts';
import { presentManufacturingVariantRule } from '../presenters/manufacturingVariantPresenter.ts';
import { resourceRoutes } from '../resourceRoutes.ts';
import {
  CreateManufacturingVariantRuleBody,
  ManufacturingVariantRuleSchema,
  manufacturingVariantRuleInput,
  ReplaceManufacturingVariantRuleBody,
} from '../schemas/manufacturingVariantSchemas.ts';

const tags = ['workplace groups'];

export function registerManufacturingVariants(api: Api, { db }: ServerDeps): void {
  const rules = resourceRoutes(api, {
    tags,
    path: manufacturingVariantRulesPath(':id'),
    itemParam: 'manufacturingVariantRuleId',
    schema: ManufacturingVariantRuleSchema,
    // The workplaces of a page's rules in one read.
    presentPage: async (items: ManufacturingVariantRule[], request) => {
      const ids = [...new Set(items.flatMap((rule) => rule.workplaceIds))];
      const workplaces = new Map(
        (await findWorkplaces(db, ids)).map((workplace) => [workplace.id, workplace]),
      );
      const writable = canWrite(request);
      return items.map((rule) => presentManufacturingVariantRule(rule, request.hrefs, writable, workplaces));
    },
  });
  rules.list({
    summary: 'The manufacturing variant rules of a workplace group, oldest first (offset pagination)',
    owner: async (at) => (await getWorkplaceGroup(db, at.id)).id,
    load: (_filter, page, at) => listManufacturingVariantRules(db, at.owner, page),
  });
  rules.items(db, {
    input: manufacturingVariantRuleInput,
    get: { summary: 'One manufacturing variant rule', run: service.getManufacturingVariantRule },
    create: {
      summary: 'Create a manufacturing variant rule (emits MANUFACTURING_VARIANT_RULE_CREATED)',
      description:
        'workplaceIds must name existing workplaces; tools are kept as given; MATERIAL_CHARACTERISTICS ' +
        'conditions such as color==black;width=lt=40 (docs/resources/manufacturing-variants.md).',
      body: CreateManufacturingVariantRuleBody,
      run: service.createManufacturingVariantRule,
    },
    replace: {
      summary:
        'Replace a manufacturing variant rule (emits MANUFACTURING_VARIANT_RULE_UPDATED when something changes)',
      body: ReplaceManufacturingVariantRuleBody,
      run: service.replaceManufacturingVariantRule,
    },
    remove: {
      summary: 'Delete a manufacturing variant rule (emits MANUFACTURING_VARIANT_RULE_DELETED)',
      run: service.deleteManufacturingVariantRule,
    },
  });
}
