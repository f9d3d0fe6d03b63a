import type { StoredEvent } from '../../db/repositories/eventRepository.ts';
import type { ObjectType } from '../../domain/events.ts';
import { isUuid } from '../../domain/ids.ts';
import { link, type Resource, resource } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';
import {
  CONNECTORS_PATH,
  DEVICES_PATH,
  DOCUMENTS_PATH,
  EVENTS_PATH,
  MALFUNCTION_SCENARIOS_PATH,
  OPERATION_PLANNING_SCENARIOS_PATH,
  OPERATIONS_PATH,
  PRODUCTION_ORDERS_PATH,
  STAFF_MEMBER_PLANNING_SCENARIOS_PATH,
  STAFF_MEMBERS_PATH,
  TICKETS_PATH,
  TOOL_ASSEMBLY_ORDERS_PATH,
  TOOLS_PATH,
  WORKPLACE_GROUPS_PATH,
  WORKPLACES_PATH,
} from '../paths.ts';

// Where the object an event refers to lives, so a client can follow `object` from an event.
// Shifts and what hangs below a ticket are left out: their address needs the owner as well.
const OBJECT_COLLECTIONS: Partial<Record<ObjectType, string>> = {
  OPERATION: OPERATIONS_PATH,
  PRODUCTION_ORDER: PRODUCTION_ORDERS_PATH,
  WORKPLACE: WORKPLACES_PATH,
  WORKPLACE_GROUP: WORKPLACE_GROUPS_PATH,
  STAFF_MEMBER: STAFF_MEMBERS_PATH,
  TOOL: TOOLS_PATH,
  TOOL_ASSEMBLY_ORDER: TOOL_ASSEMBLY_ORDERS_PATH,
  DOCUMENT: DOCUMENTS_PATH,
  DEVICE: DEVICES_PATH,
  OPERATION_PLANNING_SCENARIO: OPERATION_PLANNING_SCENARIOS_PATH,
  STAFF_MEMBER_PLANNING_SCENARIO: STAFF_MEMBER_PLANNING_SCENARIOS_PATH,
  PREDICTED_MALFUNCTION_SCENARIO: MALFUNCTION_SCENARIOS_PATH,
  CONNECTOR: CONNECTORS_PATH,
  TICKET: TICKETS_PATH,
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
