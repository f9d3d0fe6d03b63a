import type { WorkplaceGroup } from '../../domain/workplaces.ts';
import { link, type Resource, resource } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';
import { WORKPLACE_GROUPS_PATH, WORKPLACES_PATH } from '../paths.ts';

export function presentWorkplaceGroup(group: WorkplaceGroup, hrefs: Hrefs): Resource {
  return resource(
    { id: group.id, number: group.number, description: group.description, type: group.type },
    {
      self: link(hrefs.api(`${WORKPLACE_GROUPS_PATH}/${group.id}`)),
      workplaces: link(hrefs.api(WORKPLACES_PATH, { workplaceGroupNumber: group.number })),
    },
  );
}
