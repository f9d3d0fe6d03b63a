// Every collection path of the API, relative to /api/v{n} (docs/api.md, "Addresses and versions").
// Routes register them and presenters link to them, so both take them from here.

export const PRODUCTION_ORDERS_PATH = '/productionOrders';
export const OPERATIONS_PATH = '/operations';
export const WORKPLACES_PATH = '/workplaces';
export const WORKPLACE_GROUPS_PATH = '/workplaceGroups';
export const STAFF_MEMBERS_PATH = '/staffMembers';
export const TOOLS_PATH = '/tools';
export const TOOL_ASSEMBLY_ORDERS_PATH = '/tools/assemblyOrders';
export const DOCUMENTS_PATH = '/documents';
export const DEVICES_PATH = '/devices';
export const CALLBACKS_PATH = '/callbacks';
export const EVENTS_PATH = '/events';
export const CONNECTORS_PATH = '/connectors';
/** OAuth clients, for clients with the admin scope (docs/resources/clients.md). */
export const CLIENTS_PATH = '/clients';
/** Computed reports (docs/resources/reports.md). */
export const REPORTS_PATH = '/reports';
export const EVENT_STREAM_PATH = '/events/stream';

export const OPERATION_PLANNING_SCENARIOS_PATH = '/operations/planningScenarios';
export const STAFF_MEMBER_PLANNING_SCENARIOS_PATH = '/staffMembers/planningScenarios';
export const MALFUNCTION_SCENARIOS_PATH = '/workplaces/predictedMalfunctionScenarios';

export const OPERATING_STATES_PATH = '/masterData/operatingStates';
export const WORKPLACE_STATES_PATH = '/masterData/workplaceStates';
export const OPERATION_PHASES_PATH = '/masterData/operationPhases';
export const TOOL_ASSEMBLY_ORDER_STATES_PATH = '/masterData/toolAssemblyOrderStates';

/** A workplace's shifts. */
export const shiftsPath = (workplaceId: string) => `${WORKPLACES_PATH}/${workplaceId}/shifts`;
/** A workplace's scheduled maintenance tasks. */
export const scheduledMaintenancesPath = (workplaceId: string) =>
  `${WORKPLACES_PATH}/${workplaceId}/scheduledMaintenances`;
/** A device's recorded samples. */
export const timeSeriesPath = (deviceId: string) => `${DEVICES_PATH}/${deviceId}/recordedTimeSeries`;
/** A tool's cutting edges. */
export const toolEdgesPath = (toolId: string) => `${TOOLS_PATH}/${toolId}/edges`;
/** A tool's location. */
export const toolLocationPath = (toolId: string) => `${TOOLS_PATH}/${toolId}/location`;
