import type { RecordedOutputQuantity } from '../../domain/outputQuantities.ts';
import { link, type Resource, resource } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';
import { OPERATIONS_PATH, STAFF_MEMBERS_PATH, WORKPLACES_PATH } from '../paths.ts';
import { RecordedOutputQuantitySchema } from '../schemas/outputQuantitySchemas.ts';
import { linkTo, propertiesOf } from './properties.ts';

export function presentOutputQuantity(record: RecordedOutputQuantity, hrefs: Hrefs): Resource {
  const operation = `${OPERATIONS_PATH}/${record.operationId}`;
  return resource(propertiesOf(RecordedOutputQuantitySchema, record), {
    self: link(hrefs.api(`${operation}/recordedOutputQuantities/${record.id}`)),
    operation: link(hrefs.api(operation)),
    workplace: linkTo(hrefs, WORKPLACES_PATH, record.workplaceId),
    staffMember: linkTo(hrefs, STAFF_MEMBERS_PATH, record.staffMemberId),
  });
}
