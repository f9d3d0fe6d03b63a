import type { Shift } from '../../domain/shifts.ts';
import { link, type Resource, resource } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';

// Literal '/workplaces' rather than the workplaces presenter's constant: that presenter links here.
/** Path of a workplace's shifts collection (for links from the workplace too). */
export const shiftsPath = (workplaceId: string) => `/workplaces/${workplaceId}/shifts`;

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
      workplace: link(hrefs.api(`/workplaces/${shift.workplaceId}`)),
    },
  );
}
