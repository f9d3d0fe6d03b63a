import type { WorkplaceGroup } from '../../domain/workplaces.ts';
import { link, type Resource, resource } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';

export const WORKPLACE_GROUPS_PATH = '/workplaceGroups';

export function presentWorkplaceGroup(group: WorkplaceGroup, hrefs: Hrefs): Resource {
  return resource(
    { id: group.id, number: group.number, description: group.description, type: group.type },
    {
      self: link(hrefs.api(`${WORKPLACE_GROUPS_PATH}/${group.id}`)),
      workplaces: link(hrefs.api('/workplaces', { workplaceGroupNumber: group.number })),
    },
  );
}
