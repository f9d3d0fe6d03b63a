import type { StoredEvent } from '../../db/repositories/eventRepository.ts';
import type { ObjectType } from '../../domain/events.ts';
import { isUuid } from '../../domain/ids.ts';
import { link, type Resource, resource } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';
import { COLLECTIONS, EVENTS_PATH } from '../paths.ts';

// The entry point's collection of the object an event refers to, so a client can follow `object`
// from an event. Shifts and what hangs below a ticket are left out: their address needs the owner as well.
const OBJECT_COLLECTIONS: Partial<Record<ObjectType, keyof typeof COLLECTIONS>> = {
  OPERATION: 'operations',
  PRODUCTION_ORDER: 'productionOrders',
  WORKPLACE: 'workplaces',
  WORKPLACE_GROUP: 'workplaceGroups',
  STAFF_MEMBER: 'staffMembers',
  TOOL: 'tools',
  TOOL_ASSEMBLY_ORDER: 'toolAssemblyOrders',
  DOCUMENT: 'documents',
  DEVICE: 'devices',
  OPERATION_PLANNING_SCENARIO: 'operationPlanningScenarios',
  STAFF_MEMBER_PLANNING_SCENARIO: 'staffMemberPlanningScenarios',
  PREDICTED_MALFUNCTION_SCENARIO: 'predictedMalfunctionScenarios',
  CONNECTOR: 'connectors',
  TICKET: 'tickets',
};

export function presentEvent(event: StoredEvent, hrefs: Hrefs): Resource {
  const rel = OBJECT_COLLECTIONS[event.objectType];
  const collection = rel && COLLECTIONS[rel];
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
