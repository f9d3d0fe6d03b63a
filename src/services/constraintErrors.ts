// The one mapping of constraint violations to client errors. Every foreign key of the schema
// (src/db/migrations/*.sql), named by its constraint, with what a violation means to a client. The services check references before they write (checkReference,
// the parent's row lock), so a violation only gets through when the referenced row is deleted
// concurrently, between the check and the write. It then gets the answer the same requests get
// one after the other: the write refers to something that no longer exists (400
// INVALID_REFERENCE naming the field, or 404 when the path names it), or the delete finds the row
// still referenced (400 RESOURCE_IN_USE). src/http/errors.ts applies it to whatever a request threw.
import { isUniqueViolation } from '../db/database.ts';
import { AppError } from '../domain/errors.ts';

interface ForeignKey {
  /** The referenced resource, as messages name it. */
  resource: string;
  /** The referencing resource (for RESOURCE_IN_USE's "by"). */
  by: string;
  /** The body field that carries the reference; undefined when the path names the referenced row. */
  field?: string;
}

const key = (resource: string, by: string, field?: string): ForeignKey =>
  field === undefined ? { resource, by } : { resource, by, field };

export const FOREIGN_KEYS: Record<string, ForeignKey> = {
  callbacks_client_id_fkey: key('client', 'callbacks'),
  commands_client_id_fkey: key('client', 'commands'),
  connector_counters_connector_id_fkey: key('connector', 'piece counter readings'),
  delivery_attempts_callback_id_fkey: key('callback', 'delivery attempts'),
  devices_workplace_id_fkey: key('workplace', 'devices', 'workplaceId'),
  master_data_entries_description_literal_id_fkey: key('literal', 'master data entries'),
  master_data_entries_short_description_literal_id_fkey: key('literal', 'master data entries'),
  idempotency_keys_client_id_fkey: key('client', 'stored answers to Idempotency-Keys'),
  document_folders_parent_id_fkey: key('documentFolder', 'document folders', 'parentFolderId'),
  document_folders_workplace_id_fkey: key('workplace', 'document folders', 'workplaceId'),
  document_versions_document_id_fkey: key('document', 'document versions'),
  documents_folder_id_fkey: key('documentFolder', 'documents'),
  manufacturing_variant_rule_workplaces_rule_id_fkey: key('manufacturingVariantRule', 'workplaces of a rule'),
  manufacturing_variant_rule_workplaces_workplace_id_fkey: key(
    'workplace',
    'manufacturing variant rules',
    'workplaceIds',
  ),
  manufacturing_variant_rules_workplace_group_id_fkey: key('workplaceGroup', 'manufacturing variant rules'),
  notifications_callback_id_fkey: key('callback', 'notifications'),
  notifications_event_id_fkey: key('event', 'notifications'),
  operation_forecast_results_operation_id_fkey: key('operation', 'forecast results', 'operationId'),
  operation_forecast_results_workplace_id_fkey: key('workplace', 'forecast results', 'workplaceId'),
  operation_planning_results_operation_id_fkey: key('operation', 'planning results', 'operationId'),
  operation_planning_results_workplace_id_fkey: key('workplace', 'planning results', 'workplaceId'),
  operations_production_order_id_fkey: key('productionOrder', 'operations', 'productionOrderId'),
  operations_workplace_group_id_fkey: key('workplaceGroup', 'operations', 'workplaceGroupId'),
  operations_workplace_id_fkey: key('workplace', 'operations', 'workplaceId'),
  predicted_malfunction_scenarios_workplace_id_fkey: key(
    'workplace',
    'predicted malfunctions',
    'workplaceId',
  ),
  recorded_operating_states_workplace_id_fkey: key('workplace', 'recorded operating states'),
  recorded_operation_phases_operation_id_fkey: key('operation', 'recorded operation phases'),
  recorded_operation_phases_workplace_id_fkey: key('workplace', 'recorded operation phases', 'workplaceId'),
  recorded_output_quantities_operation_id_fkey: key('operation', 'recorded output quantities'),
  recorded_output_quantities_staff_member_id_fkey: key(
    'staffMember',
    'recorded output quantities',
    'staffMemberId',
  ),
  recorded_output_quantities_workplace_id_fkey: key('workplace', 'recorded output quantities', 'workplaceId'),
  recorded_staff_activities_operation_id_fkey: key('operation', 'recorded activities', 'operationId'),
  recorded_staff_activities_staff_member_id_fkey: key('staffMember', 'recorded activities'),
  recorded_staff_activities_workplace_id_fkey: key('workplace', 'recorded activities', 'workplaceId'),
  recorded_time_series_device_id_fkey: key('device', 'recorded time series'),
  recorded_workplace_output_quantities_connector_id_fkey: key('connector', 'workplace output quantities'),
  recorded_workplace_output_quantities_workplace_id_fkey: key(
    'workplace',
    'workplace output quantities',
    'workplaceId',
  ),
  refresh_tokens_client_id_fkey: key('client', 'refresh tokens'),
  scheduled_maintenances_workplace_id_fkey: key('workplace', 'scheduled maintenances'),
  setup_transition_rules_workplace_group_id_fkey: key('workplaceGroup', 'setup transition rules'),
  shifts_workplace_id_fkey: key('workplace', 'shifts'),
  staff_member_planning_results_staff_member_id_fkey: key('staffMember', 'planning results', 'staffMemberId'),
  staff_member_planning_results_workplace_id_fkey: key('workplace', 'planning results', 'workplaceId'),
  staff_member_workplaces_staff_member_id_fkey: key('staffMember', 'workplace assignments'),
  staff_member_workplaces_workplace_id_fkey: key('workplace', 'staff members', 'assignedWorkplaceIds'),
  tool_assembly_orders_operation_id_fkey: key('operation', 'tool assembly orders', 'operationId'),
  tool_assembly_orders_target_workplace_id_fkey: key(
    'workplace',
    'tool assembly orders',
    'targetWorkplaceId',
  ),
  tool_assembly_orders_tool_id_fkey: key('tool', 'tool assembly orders', 'toolId'),
  tools_workplace_id_fkey: key('workplace', 'tools', 'workplaceId'),
  tickets_workplace_id_fkey: key('workplace', 'tickets', 'workplaceId'),
  tickets_operation_id_fkey: key('operation', 'tickets', 'operationId'),
  tickets_shift_id_fkey: key('shift', 'tickets', 'shiftId'),
  ticket_activities_ticket_id_fkey: key('ticket', 'ticket activities'),
  ticket_activity_remarks_activity_id_fkey: key('ticketActivity', 'ticket activity remarks'),
  ticket_attachments_ticket_id_fkey: key('ticket', 'ticket attachments'),
  ticket_attachments_activity_id_fkey: key('ticketActivity', 'ticket attachments'),
  tool_characteristics_edge_id_fkey: key('toolEdge', 'characteristics'),
  tool_characteristics_tool_id_fkey: key('tool', 'characteristics'),
  tool_edges_tool_id_fkey: key('tool', 'edges'),
  workplaces_capacity_group_id_fkey: key('workplaceGroup', 'workplaces', 'capacityGroupId'),
  workplaces_production_line_id_fkey: key('workplaceGroup', 'workplaces', 'productionLineId'),
};

/**
 * How RESOURCE_IN_USE names the users of a resource that several tables refer to, whichever key
 * the delete ran into (the others name the referencing table of the key).
 */
const IN_USE_BY: Record<string, string> = {
  operation: 'other resources',
  tool: 'other resources',
  workplace: 'other resources',
  workplaceGroup: 'workplaces',
};

interface PgError {
  code?: unknown;
  constraint?: unknown;
  detail?: unknown;
}

/**
 * The AppError a foreign-key violation (SQLSTATE 23503) stands for, or undefined for any other
 * error. `deleting` says whether the request deletes (then the row is still referenced) or
 * writes a reference (then the row it names is gone); `pathId` is the id the path names, and
 * `pathResource` (when the caller knows it) what it is, for keys the map does not list yet.
 */
export function foreignKeyError(
  error: unknown,
  deleting: boolean,
  pathId?: string,
  pathResource?: string,
): AppError | undefined {
  if (typeof error !== 'object' || error === null || (error as PgError).code !== '23503') return undefined;
  const { constraint, detail } = error as PgError;
  const foreignKey = FOREIGN_KEYS[String(constraint)];
  // "Key (capacity_group_id)=(0190...) is not present in table ..." names the value.
  const id = /\)=\(([^)]*)\)/.exec(String(detail ?? ''))?.[1] ?? pathId ?? '';
  if (!foreignKey) {
    // A key added to the schema but not here yet: still the client's conflict, not a fault.
    return deleting
      ? new AppError('RESOURCE_IN_USE', {
          resource: pathResource ?? 'resource',
          id: pathId ?? id,
          by: (pathResource && IN_USE_BY[pathResource]) ?? 'other resources',
        })
      : new AppError('INVALID_REFERENCE', { field: 'id', id, expected: 'resource' });
  }
  if (deleting) {
    return new AppError('RESOURCE_IN_USE', {
      resource: foreignKey.resource,
      id: pathId ?? id,
      by: IN_USE_BY[foreignKey.resource] ?? foreignKey.by,
    });
  }
  if (foreignKey.field === undefined) return new AppError('NOT_FOUND', { resource: foreignKey.resource, id });
  return new AppError('INVALID_REFERENCE', { field: foreignKey.field, id, expected: foreignKey.resource });
}

/**
 * A `.catch` handler for deletes of the `resource` row `id` inside a larger write (a production order's
 * operations) or named by the path: a row still referenced becomes RESOURCE_IN_USE, by the map above.
 */
export const rethrowInUse = (resource: string, id: string) => (error: unknown) => {
  throw foreignKeyError(error, true, id, resource) ?? error;
};

/**
 * A `.catch` handler for inserts and updates: a unique violation becomes 400 ALREADY_EXISTS naming
 * the field and the value that collided (as the body gave them); any other error passes through.
 */
export const rethrowDuplicate = (field: string, value: string) => (error: unknown) => {
  if (isUniqueViolation(error)) throw new AppError('ALREADY_EXISTS', { field, value });
  throw error;
};
