import type { Shift } from '../../domain/shifts.ts';
import { link, type Resource, resource } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';
import { shiftsPath, WORKPLACES_PATH } from '../paths.ts';

export function presentShift(shift: Shift, hrefs: Hrefs): Resource {
  return resource(
    {
      id: shift.id,
      workplaceId: shift.workplaceId,
      name: shift.name,
      shiftModelId: shift.shiftModelId,
      startDate: shift.startDate.toISOString(),
      endDate: shift.endDate.toISOString(),
    },
    {
      self: link(hrefs.api(`${shiftsPath(shift.workplaceId)}/${shift.id}`)),
      workplace: link(hrefs.api(`${WORKPLACES_PATH}/${shift.workplaceId}`)),
    },
  );
}
