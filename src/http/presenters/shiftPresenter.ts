import type { Shift } from '../../domain/shifts.ts';
import { link, type Resource, resource } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';
import { shiftsPath, WORKPLACES_PATH } from '../paths.ts';
import { ShiftSchema } from '../schemas/shiftSchemas.ts';
import { propertiesOf } from './properties.ts';

export function presentShift(shift: Shift, hrefs: Hrefs): Resource {
  return resource(propertiesOf(ShiftSchema, shift), {
    self: link(hrefs.api(`${shiftsPath(shift.workplaceId)}/${shift.id}`)),
    workplace: link(hrefs.api(`${WORKPLACES_PATH}/${shift.workplaceId}`)),
  });
}
