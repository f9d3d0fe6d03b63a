// Manufacturing variant rules of a workplace group (docs/resources/manufacturing-variants.md).
import { listManufacturingVariantRules } from '../../db/repositories/manufacturingVariantRuleRepository.ts';
import { findWorkplaces } from '../../db/repositories/workplaceRepository.ts';
import type { ManufacturingVariantRule } from '../../domain/manufacturingVariants.ts';
import * as service from '../../services/manufacturingVariantService.ts';
import type { Api } from '../api.ts';
import { canWrite } from '../auth.ts';
import type { ServerDeps } from '../deps.ts';
import { manufacturingVariantRulesPath } from '../paths.ts';
import { presentManufacturingVariantRule } from '../presenters/manufacturingVariantPresenter.ts';
import {
  CreateManufacturingVariantRuleBody,
  ManufacturingVariantRuleSchema,
  manufacturingVariantRuleInput,
  ReplaceManufacturingVariantRuleBody,
} from '../schemas/manufacturingVariantSchemas.ts';
import { registerGroupRules } from './workplaceGroupRoutes.ts';

export function registerManufacturingVariants(api: Api, { db }: ServerDeps): void {
  registerGroupRules(api, db, {
    resource: {
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
        return items.map((rule) =>
          presentManufacturingVariantRule(rule, request.hrefs, writable, workplaces),
        );
      },
    },
    noun: 'manufacturing variant rule',
    events: 'MANUFACTURING_VARIANT_RULE',
    list: listManufacturingVariantRules,
    input: manufacturingVariantRuleInput,
    rules: service.manufacturingVariantRules,
    create: {
      description:
        'workplaceIds must name existing workplaces; tools are kept as given; MATERIAL_CHARACTERISTICS ' +
        'conditions such as color==black;width=lt=40 (docs/resources/manufacturing-variants.md).',
      body: CreateManufacturingVariantRuleBody,
    },
    replaceBody: ReplaceManufacturingVariantRuleBody,
  });
}
