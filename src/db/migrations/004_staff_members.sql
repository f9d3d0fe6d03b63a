-- Staff members (contract 4): an offset-mode collection ordered by staff number.
CREATE TABLE staff_members (
  id             uuid PRIMARY KEY,
  staff_number   text NOT NULL UNIQUE,
  first_name     text NOT NULL,
  last_name      text NOT NULL,
  email          text,
  qualifications text[] NOT NULL DEFAULT '{}',
  shift_id       text,
  -- [{startDate, endDate, reason}], validated and normalised by the service.
  absences       jsonb NOT NULL DEFAULT '[]',
  created_at     timestamptz NOT NULL,
  updated_at     timestamptz NOT NULL
);
CREATE INDEX staff_members_qualifications ON staff_members USING gin (qualifications);

-- Assignments as rows, not an array: deleting a workplace removes it from every staff member
-- (cascade), so no staff member keeps a dangling workplace id.
CREATE TABLE staff_member_workplaces (
  staff_member_id uuid NOT NULL REFERENCES staff_members (id) ON DELETE CASCADE,
  workplace_id    uuid NOT NULL REFERENCES workplaces (id) ON DELETE CASCADE,
  -- Order of assignedWorkplaceIds as given by the client.
  position        integer NOT NULL,
  PRIMARY KEY (staff_member_id, workplace_id)
);
CREATE INDEX staff_member_workplaces_by_workplace ON staff_member_workplaces (workplace_id);

-- Activities of staff members on operations: STARTED opens a record, INTERRUPTED or FINISHED
-- closes it (end_activity). History keeps the record when the operation or the workplace is
-- deleted, only without that reference.
CREATE TABLE recorded_staff_activities (
  id              uuid PRIMARY KEY,
  staff_member_id uuid NOT NULL REFERENCES staff_members (id) ON DELETE CASCADE,
  operation_id    uuid REFERENCES operations (id) ON DELETE SET NULL,
  workplace_id    uuid REFERENCES workplaces (id) ON DELETE SET NULL,
  start_date      timestamptz NOT NULL,
  end_date        timestamptz,
  end_activity    text CHECK (end_activity IN ('INTERRUPTED', 'FINISHED')),
  CHECK ((end_date IS NULL) = (end_activity IS NULL))
);
CREATE INDEX recorded_staff_activities_timeline
  ON recorded_staff_activities (staff_member_id, start_date DESC, id DESC);
-- At most one open activity per staff member and operation, even under concurrent requests.
CREATE UNIQUE INDEX recorded_staff_activities_open
  ON recorded_staff_activities (staff_member_id, operation_id) WHERE end_date IS NULL;
CREATE INDEX recorded_staff_activities_operation ON recorded_staff_activities (operation_id);
CREATE INDEX recorded_staff_activities_workplace ON recorded_staff_activities (workplace_id);
