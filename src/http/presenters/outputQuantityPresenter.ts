import type { RecordedOutputQuantity } from '../../domain/outputQuantities.ts';
import { type Link, link, type Resource, resource } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';
import { OPERATIONS_PATH, STAFF_MEMBERS_PATH, WORKPLACES_PATH } from '../paths.ts';

export function presentOutputQuantity(record: RecordedOutputQuantity, hrefs: Hrefs): Resource {
  const operation = `${OPERATIONS_PATH}/${record.operationId}`;
  const links: Record<string, Link> = {
    self: link(hrefs.api(`${operation}/recordedOutputQuantities/${record.id}`)),
    operation: link(hrefs.api(operation)),
  };
  if (record.workplaceId) links.workplace = link(hrefs.api(`${WORKPLACES_PATH}/${record.workplaceId}`));
  if (record.staffMemberId)
    links.staffMember = link(hrefs.api(`${STAFF_MEMBERS_PATH}/${record.staffMemberId}`));
  return resource(
    {
      id: record.id,
      operationId: record.operationId,
      quantity: record.quantity,
      quantityType: record.quantityType,
      timestamp: record.timestamp.toISOString(),
      workplaceId: record.workplaceId,
      staffMemberId: record.staffMemberId,
      qualityDetailId: record.qualityDetailId,
      remark: record.remark,
    },
    links,
  );
}
