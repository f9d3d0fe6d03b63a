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
/** The file repository (docs/resources/fileRepository.md): its entry, folders and documents. */
export const FILE_REPOSITORY_PATH = '/fileRepository';
export const DOCUMENT_FOLDERS_PATH = '/fileRepository/folders';
export const REPOSITORY_DOCUMENTS_PATH = '/fileRepository/documents';
export const DEVICES_PATH = '/devices';
export const CALLBACKS_PATH = '/callbacks';
export const EVENTS_PATH = '/events';
export const CONNECTORS_PATH = '/connectors';
export const TICKETS_PATH = '/tickets';
/** A machine workplace's machine, by the workplace's id (docs/resources/machines.md). */
export const MACHINES_PATH = '/machines';
/** OAuth clients, for clients with the admin scope (docs/resources/clients.md). */
export const CLIENTS_PATH = '/clients';
/** Computed reports (docs/resources/reports.md). */
export const REPORTS_PATH = '/reports';
export const EVENT_STREAM_PATH = '/events/stream';
/** Commands and their results (docs/resources/commands.md). */
export const COMMANDS_PATH = '/commands';
export const ACTIVITIES_PATH = '/activities';

export const OPERATION_PLANNING_SCENARIOS_PATH = '/operations/planningScenarios';
export const STAFF_MEMBER_PLANNING_SCENARIOS_PATH = '/staffMembers/planningScenarios';
export const MALFUNCTION_SCENARIOS_PATH = '/workplaces/predictedMalfunctionScenarios';

/** The master data entry point; each kind's collection is below it (`masterDataPath`). */
export const MASTER_DATA_PATH = '/masterData';
/** A master data kind's collection, e.g. `/masterData/shiftTypes`. */
export const masterDataPath = (kind: string) => `${MASTER_DATA_PATH}/${kind}`;
export const LITERALS_PATH = '/literals';
export const ERP_CONTEXTS_PATH = '/erpContexts';
export const MATERIALS_PATH = '/materials';

export const OPERATING_STATES_PATH = '/masterData/operatingStates';
export const WORKPLACE_STATES_PATH = '/masterData/workplaceStates';
export const OPERATION_PHASES_PATH = '/masterData/operationPhases';
export const TOOL_ASSEMBLY_ORDER_STATES_PATH = '/masterData/toolAssemblyOrderStates';
export const DOCUMENT_STATES_PATH = '/masterData/documentStates';
export const MACHINE_STATES_PATH = '/masterData/machineStates';

/**
 * The collections the entry point links, by link relation and in its order (every top-level
 * collection a client reads with GET); events link the objects they refer to through it.
 */
export const COLLECTIONS = {
  productionOrders: PRODUCTION_ORDERS_PATH,
  operations: OPERATIONS_PATH,
  workplaces: WORKPLACES_PATH,
  workplaceGroups: WORKPLACE_GROUPS_PATH,
  staffMembers: STAFF_MEMBERS_PATH,
  tools: TOOLS_PATH,
  toolAssemblyOrders: TOOL_ASSEMBLY_ORDERS_PATH,
  documents: DOCUMENTS_PATH,
  fileRepository: FILE_REPOSITORY_PATH,
  devices: DEVICES_PATH,
  operationPlanningScenarios: OPERATION_PLANNING_SCENARIOS_PATH,
  staffMemberPlanningScenarios: STAFF_MEMBER_PLANNING_SCENARIOS_PATH,
  predictedMalfunctionScenarios: MALFUNCTION_SCENARIOS_PATH,
  masterData: MASTER_DATA_PATH,
  literals: LITERALS_PATH,
  erpContexts: ERP_CONTEXTS_PATH,
  materials: MATERIALS_PATH,
  operatingStates: OPERATING_STATES_PATH,
  workplaceStates: WORKPLACE_STATES_PATH,
  operationPhases: OPERATION_PHASES_PATH,
  toolAssemblyOrderStates: TOOL_ASSEMBLY_ORDER_STATES_PATH,
  callbacks: CALLBACKS_PATH,
  events: EVENTS_PATH,
  connectors: CONNECTORS_PATH,
  tickets: TICKETS_PATH,
} as const;

/** A workplace's location. */
export const workplaceLocationPath = (workplaceId: string) => `${WORKPLACES_PATH}/${workplaceId}/location`;
/** A workplace's shifts. */
export const shiftsPath = (workplaceId: string) => `${WORKPLACES_PATH}/${workplaceId}/shifts`;
/** A workplace's scheduled maintenance tasks. */
export const scheduledMaintenancesPath = (workplaceId: string) =>
  `${WORKPLACES_PATH}/${workplaceId}/scheduledMaintenances`;
/** A device's recorded samples. */
export const timeSeriesPath = (deviceId: string) => `${DEVICES_PATH}/${deviceId}/recordedTimeSeries`;
/** A document's versions. */
export const documentVersionsPath = (documentId: string) => `${DOCUMENTS_PATH}/${documentId}/versions`;
/** A ticket's activities. */
export const ticketActivitiesPath = (ticketId: string) => `${TICKETS_PATH}/${ticketId}/activities`;
/** The attachments of a ticket (activityId null) or of one of its activities. */
export const ticketAttachmentsPath = (ticketId: string, activityId: string | null) =>
  `${activityId === null ? `${TICKETS_PATH}/${ticketId}` : `${ticketActivitiesPath(ticketId)}/${activityId}`}/attachments`;
/** The remarks on an activity of a ticket. */
export const ticketActivityRemarksPath = (ticketId: string, activityId: string) =>
  `${ticketActivitiesPath(ticketId)}/${activityId}/remarks`;
/** A tool's cutting edges. */
export const toolEdgesPath = (toolId: string) => `${TOOLS_PATH}/${toolId}/edges`;
/** A tool's location. */
export const toolLocationPath = (toolId: string) => `${TOOLS_PATH}/${toolId}/location`;
/** A workplace group's setup transition rules. */
export const setupTransitionRulesPath = (groupId: string) =>
  `${WORKPLACE_GROUPS_PATH}/${groupId}/setupTransitionRules`;
/** A workplace group's manufacturing variant rules. */
export const manufacturingVariantRulesPath = (groupId: string) =>
  `${WORKPLACE_GROUPS_PATH}/${groupId}/manufacturingVariantRules`;
