import type { WorkplaceGroup } from '../../domain/workplaces.ts';
import { link, type Resource, resource } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';
import { WORKPLACE_GROUPS_PATH, WORKPLACES_PATH } from '../paths.ts';
import { WorkplaceGroupSchema } from '../schemas/workplaceSchemas.ts';
import { propertiesOf } from './properties.ts';
import { textLinks } from './texts.ts';

/** A group as a workplace shows it beside its id (docs/resources/workplaces.md): its own properties. */
export const groupProperty = (group: WorkplaceGroup | undefined) =>
  group === undefined ? null : propertiesOf(WorkplaceGroupSchema, group);

/** A group; `workplaces`: its workplaces presented, when they are to be embedded. */
export function presentWorkplaceGroup(
  group: WorkplaceGroup,
  hrefs: Hrefs,
  workplaces?: Resource[],
): Resource {
  return resource(
    propertiesOf(WorkplaceGroupSchema, group),
    {
      self: link(hrefs.api(`${WORKPLACE_GROUPS_PATH}/${group.id}`)),
      ...textLinks(hrefs, 'workplace_groups', group),
      assignedWorkplaces: link(hrefs.api(`${WORKPLACE_GROUPS_PATH}/${group.id}/assignedWorkplaces`)),
      workplaces: link(hrefs.api(WORKPLACES_PATH, { workplaceGroupNumber: group.number }), {
        embeddable: true,
      }),
    },
    workplaces ? { workplaces } : {},
  );
}
