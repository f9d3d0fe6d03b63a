-- Fields and filters the real FORCE Bridge clients read (docs/resources/workplaces.md,
-- docs/resources/production-orders.md, docs/resources/staff-members.md).

-- Workplace type, kept consistent with is_manual_workplace by the service; existing rows get the
-- type their flag says.
ALTER TABLE workplaces ADD COLUMN workplace_type text;
UPDATE workplaces
  SET workplace_type = CASE WHEN is_manual_workplace THEN 'MANUAL_WORKPLACE' ELSE 'MACHINE_WORKPLACE' END;
ALTER TABLE workplaces ALTER COLUMN workplace_type SET NOT NULL;
ALTER TABLE workplaces ADD CONSTRAINT workplaces_workplace_type
  CHECK (workplace_type IN ('MACHINE_WORKPLACE', 'MANUAL_WORKPLACE', 'MANUAL_MACHINE_WORKPLACE'));
ALTER TABLE workplaces ADD COLUMN erp_context_id text;
CREATE INDEX workplaces_erp_context ON workplaces (erp_context_id);

ALTER TABLE workplace_groups ADD COLUMN erp_context_id text;
ALTER TABLE staff_members ADD COLUMN erp_context_id text;

-- isInProgress: the operations in a running phase, per workplace and in paging order. Partial, so
-- it stays as small as the work in progress while the collection holds millions of finished ones.
CREATE INDEX operations_in_progress ON operations (workplace_id, updated_at DESC, id DESC)
  WHERE operation_phase_id IN ('SETUP', 'TRAINING', 'PROCESSING', 'INTERRUPTED');
CREATE INDEX operations_in_progress_timeline ON operations (updated_at DESC, id DESC)
  WHERE operation_phase_id IN ('SETUP', 'TRAINING', 'PROCESSING', 'INTERRUPTED');

-- currentStaffMembers: the open activities at a workplace.
CREATE INDEX recorded_staff_activities_open_at_workplace
  ON recorded_staff_activities (workplace_id) WHERE end_date IS NULL;
