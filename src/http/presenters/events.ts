import type { StoredEvent } from '../../db/repositories/events.ts';
import type { ObjectType } from '../../domain/events.ts';
import { isUuid } from '../../domain/ids.ts';
import { link, type Resource, resource } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';

export const EVENTS_PATH = '/events';

// Where the object an event refers to lives, so a client can follow `object` from an event.
// Shifts are left out: their address needs the workplace as well.
const OBJECT_COLLECTIONS: Partial<Record<ObjectType, string>> = {
  OPERATION: '/operations',
  PRODUCTION_ORDER: '/productionOrders',
  WORKPLACE: '/workplaces',
  WORKPLACE_GROUP: '/workplaceGroups',
  STAFF_MEMBER: '/staffMembers',
  TOOL: '/tools',
  TOOL_ASSEMBLY_ORDER: '/tools/assemblyOrders',
  DOCUMENT: '/documents',
  DEVICE: '/devices',
  OPERATION_PLANNING_SCENARIO: '/operations/planningScenarios',
  STAFF_MEMBER_PLANNING_SCENARIO: '/staffMembers/planningScenarios',
};

export function presentEvent(event: StoredEvent, hrefs: Hrefs): Resource {
  const collection = OBJECT_COLLECTIONS[event.objectType];
  return resource(
    {
      id: event.id,
      eventType: event.eventType,
      eventName: event.eventName,
      objectType: event.objectType,
      objectId: event.objectId,
      data: event.data,
      timestamp: event.timestamp.toISOString(),
      recordedAt: event.recordedAt.toISOString(),
    },
    {
      self: link(hrefs.api(`${EVENTS_PATH}/${event.id}`)),
      object:
        collection && event.objectId !== null && isUuid(event.objectId)
          ? link(hrefs.api(`${collection}/${event.objectId}`))
          : undefined,
    },
  );
}
