// The event catalogue and the objectType of each type (docs/events.md, "Catalogue").

export const OBJECT_TYPES = [
  'OPERATION',
  'PRODUCTION_ORDER',
  'WORKPLACE',
  'WORKPLACE_GROUP',
  'STAFF_MEMBER',
  'TOOL',
  'TOOL_ASSEMBLY_ORDER',
  'DOCUMENT',
  'DOCUMENT_FOLDER',
  'DEVICE',
  'WORKPLACE_SHIFT',
  'OPERATION_PLANNING_SCENARIO',
  'STAFF_MEMBER_PLANNING_SCENARIO',
  'PREDICTED_MALFUNCTION_SCENARIO',
  'CONNECTOR',
  'TICKET',
  'TICKET_ACTIVITY',
  'TICKET_ATTACHMENT',
  'TICKET_ACTIVITY_ATTACHMENT',
  'TICKET_ACTIVITY_REMARK',
  'NONE',
] as const;
export type ObjectType = (typeof OBJECT_TYPES)[number];

/** `<prefix>_CREATED`, `_UPDATED` and `_DELETED` of `objectType`; one argument: the objectType is the prefix. */
function crud(objectType: ObjectType): Record<string, ObjectType>;
function crud(prefix: string, objectType: ObjectType): Record<string, ObjectType>;
function crud(prefix: string, objectType = prefix as ObjectType): Record<string, ObjectType> {
  return Object.fromEntries(
    ['CREATED', 'UPDATED', 'DELETED'].map((change) => [`${prefix}_${change}`, objectType]),
  );
}

/** Every platform event type with the objectType its events carry. */
export const EVENT_OBJECT_TYPES: Record<string, ObjectType> = {
  OBSOLETE_PREDICTED_MALFUNCTION_SCENARIOS: 'NONE',
  OBSOLETE_OPERATION_PLANNING_SCENARIOS: 'NONE',
  OBSOLETE_OPERATION_FORECAST_RESULTS: 'OPERATION',
  // RESOURCES_UPDATED carries the objectType of the resource that changed.
  RESOURCES_UPDATED: 'NONE',
  // COMMAND carries the objectType of the command's object and the command type as eventName.
  COMMAND: 'NONE',
  WORKPLACE_SHIFTS_UPDATED: 'WORKPLACE',
  ...crud('SCHEDULED_MAINTENANCE', 'WORKPLACE'),
  ...crud('SETUP_TRANSITION_RULE', 'WORKPLACE_GROUP'),
  ...crud('MANUFACTURING_VARIANT_RULE', 'WORKPLACE_GROUP'),
  ...crud('OPERATION_PLANNING_RESULT', 'OPERATION'),
  ...crud('OPERATION_FORECAST_RESULT', 'OPERATION'),
  ...crud('STAFF_MEMBER_PLANNING_RESULT', 'STAFF_MEMBER'),
  OPERATION_PLANNING_SCENARIO_CREATED: 'OPERATION_PLANNING_SCENARIO',
  STAFF_MEMBER_PLANNING_SCENARIO_CREATED: 'STAFF_MEMBER_PLANNING_SCENARIO',
  PREDICTED_MALFUNCTION_SCENARIO_CREATED: 'WORKPLACE',
  OPERATION_PHASE_CHANGED: 'OPERATION',
  OPERATION_OUTPUT_QUANTITY_RECORDED: 'OPERATION',
  CONNECTOR_STATE_CHANGED: 'CONNECTOR',
  CONNECTOR_VALUES_STALE: 'CONNECTOR',
  WORKPLACE_OUTPUT_QUANTITY_RECORDED: 'WORKPLACE',
  WORKPLACE_OPERATING_STATE_CHANGED: 'WORKPLACE',
  WORKPLACE_RECORDED_OPERATING_STATES_CORRECTED: 'WORKPLACE',
  STAFF_MEMBER_ACTIVITY_CHANGED: 'STAFF_MEMBER',
  TOOL_ASSEMBLY_ORDER_STATE_CHANGED: 'TOOL_ASSEMBLY_ORDER',
  WORKPLACE_SHIFT_CHANGED: 'WORKPLACE_SHIFT',
  ...crud('OPERATION'),
  ...crud('PRODUCTION_ORDER'),
  ...crud('WORKPLACE'),
  ...crud('STAFF_MEMBER'),
  ...crud('TOOL'),
  ...crud('DOCUMENT'),
  ...crud('TICKET'),
  TICKET_STATE_CHANGED: 'TICKET',
  ...crud('TICKET_ATTACHMENT'),
  ...crud('TICKET_ACTIVITY'),
  TICKET_ACTIVITY_STATE_CHANGED: 'TICKET_ACTIVITY',
  ...crud('TICKET_ACTIVITY_ATTACHMENT'),
  // No operation changes a remark, so TICKET_ACTIVITY_REMARK_UPDATED is never emitted.
  TICKET_ACTIVITY_REMARK_CREATED: 'TICKET_ACTIVITY_REMARK',
  TICKET_ACTIVITY_REMARK_DELETED: 'TICKET_ACTIVITY_REMARK',
};

/** Published by applications through POST /events. */
export const EXTERNAL_EVENT_TYPE = 'EXTERNAL';
/** The objectTypes an EXTERNAL event may name (docs/events.md, "The event log"); none given is NONE. */
export const PUBLISHABLE_OBJECT_TYPES = [
  'OPERATION',
  'PRODUCTION_ORDER',
  'WORKPLACE',
  'STAFF_MEMBER',
  'TOOL',
] as const satisfies readonly ObjectType[];
/** Reserved for the platform itself: never published nor subscribed to by applications. */
export const RESERVED_EVENT_TYPES = ['SHOP_FLOOR_TERMINAL', 'INTERNAL'] as const;

export type ChangeType = 'CREATED' | 'UPDATED' | 'DELETED';

/** An event as a service hands it to the event log, before it gets its id and time. */
export interface NewEvent {
  eventType: string;
  objectType: ObjectType;
  objectId: string | null;
  data: Record<string, unknown>;
  /** Names the kind of event within its type (a COMMAND's command type); null for most. */
  eventName?: string;
}

/** An event of a type the catalogue lists about `objectId`, with the objectType the catalogue gives the type. */
export function catalogueEvent(
  eventType: string,
  objectId: string | null,
  data: Record<string, unknown>,
): NewEvent {
  const objectType = EVENT_OBJECT_TYPES[eventType];
  if (objectType === undefined) throw new Error(`${eventType} is no event type of the catalogue`);
  return { eventType, objectType, objectId, data };
}

/** RESOURCES_UPDATED: the condensed event of a primary resource's create, update or delete. */
export function resourcesUpdated(objectType: ObjectType, change: ChangeType, objectId: string): NewEvent {
  return { eventType: 'RESOURCES_UPDATED', objectType, objectId, data: { changeType: change } };
}

/** The detail event `<objectType>_<change>` of a primary resource plus the RESOURCES_UPDATED beside it. */
export function lifecycleEvents(
  objectType: ObjectType,
  change: ChangeType,
  objectId: string,
  data: Record<string, unknown>,
): NewEvent[] {
  return [
    { eventType: `${objectType}_${change}`, objectType, objectId, data },
    resourcesUpdated(objectType, change, objectId),
  ];
}

/** COMMAND: an executed command about `objectId`; its data is the command as sent. */
export function commandEvent(
  commandType: string,
  objectType: ObjectType,
  objectId: string | null,
  data: Record<string, unknown>,
): NewEvent {
  return { eventType: 'COMMAND', eventName: commandType, objectType, objectId, data };
}
