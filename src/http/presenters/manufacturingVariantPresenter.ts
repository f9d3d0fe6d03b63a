import { delayFactor, type ManufacturingVariantRule } from '../../domain/manufacturingVariants.ts';
import type { Workplace } from '../../domain/workplaces.ts';
import { link, type Resource, resource } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';
import { manufacturingVariantRulesPath, WORKPLACE_GROUPS_PATH } from '../paths.ts';

/** A rule with its workplaces as they are now (`workplaces`: those of the page, by id). */
export function presentManufacturingVariantRule(
  rule: ManufacturingVariantRule,
  hrefs: Hrefs,
  writable: boolean,
  workplaces: ReadonlyMap<string, Workplace>,
): Resource {
  const self = hrefs.api(`${manufacturingVariantRulesPath(rule.workplaceGroupId)}/${rule.id}`);
  const delays = rule.forecastedDelays;
  return resource(
    {
      id: rule.id,
      origin: rule.origin,
      criterion: rule.criterion,
      conditions: rule.conditions,
      workplaces: rule.workplaceIds.flatMap((id) => {
        const workplace = workplaces.get(id);
        return workplace
          ? [
              {
                id: workplace.id,
                number: workplace.number,
                description: workplace.description,
                erpContextId: workplace.erpContextId,
              },
            ]
          : [];
      }),
      tools: rule.tools,
      additionalConditions: rule.additionalConditions,
      forecastedDelays: delays === null ? null : { delayFactor: delayFactor(delays), ...delays },
    },
    {
      self: link(self),
      workplaceGroup: link(hrefs.api(`${WORKPLACE_GROUPS_PATH}/${rule.workplaceGroupId}`)),
      updateManufacturingVariantRule: writable ? link(self, { method: 'PUT' }) : undefined,
      deleteManufacturingVariantRule: writable ? link(self, { method: 'DELETE' }) : undefined,
    },
  );
}
