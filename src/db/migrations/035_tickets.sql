-- Tickets (docs/resources/tickets.md): issues raised at the plant (andon, maintenance, quality),
-- with their activities, the remarks on an activity, and files attached to a ticket or to one of
-- its activities. Deleting a ticket deletes everything below it (the service records the events).
CREATE TABLE tickets (
  id uuid PRIMARY KEY,
  -- The plant's running number, shown as text like the SDK's.
  number bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  title text NOT NULL,
  description text,
  root_cause text,
  priority text NOT NULL CHECK (priority IN ('LOW', 'MEDIUM', 'HIGH', 'VERY_HIGH')),
  editor text,
  -- master_data_entries of kind ticketStates / ticketClasses (checked by the service).
  ticket_state_id text NOT NULL,
  ticket_class_id text,
  workplace_id uuid REFERENCES workplaces (id),
  operation_id uuid REFERENCES operations (id),
  -- A shift plan may be replaced: a ticket then no longer names the shift.
  shift_id uuid REFERENCES shifts (id) ON DELETE SET NULL,
  -- A material known from an order or operation when the ticket was written.
  material_number text,
  material_description text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX tickets_timeline ON tickets (created_at DESC, id DESC);
CREATE INDEX tickets_workplace ON tickets (workplace_id, created_at DESC);
CREATE INDEX tickets_operation ON tickets (operation_id);
CREATE INDEX tickets_shift ON tickets (shift_id);
CREATE INDEX tickets_state ON tickets (ticket_state_id);

CREATE TABLE ticket_activities (
  id uuid PRIMARY KEY,
  ticket_id uuid NOT NULL REFERENCES tickets (id) ON DELETE CASCADE,
  title text NOT NULL,
  description text,
  editor text,
  ticket_activity_state_id text NOT NULL,
  due_date timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX ticket_activities_timeline ON ticket_activities (ticket_id, created_at DESC, id DESC);

CREATE TABLE ticket_activity_remarks (
  id uuid PRIMARY KEY,
  activity_id uuid NOT NULL REFERENCES ticket_activities (id) ON DELETE CASCADE,
  remark text NOT NULL,
  editor text,
  created_at timestamptz NOT NULL
);
CREATE INDEX ticket_activity_remarks_timeline ON ticket_activity_remarks (activity_id, created_at DESC, id DESC);

-- One table for both: an attachment of the ticket itself has no activity.
CREATE TABLE ticket_attachments (
  id uuid PRIMARY KEY,
  ticket_id uuid NOT NULL REFERENCES tickets (id) ON DELETE CASCADE,
  activity_id uuid REFERENCES ticket_activities (id) ON DELETE CASCADE,
  -- The uploaded file's name and type; null until the first upload.
  name text,
  description text NOT NULL,
  editor text,
  mime_type text,
  size integer NOT NULL DEFAULT 0,
  content bytea NOT NULL DEFAULT ''::bytea,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX ticket_attachments_timeline ON ticket_attachments (ticket_id, activity_id, created_at DESC, id DESC);
CREATE INDEX ticket_attachments_activity ON ticket_attachments (activity_id);

-- Ticket master data with the values of the recorded FORCE Bridge responses. States the
-- recordings do not show (CONFIRMED, REOPENED) have their SDK name and no colour.
INSERT INTO literals (id, translations) VALUES
  ('FDF4D554C0E748C5B2F62FF39A067BE0', '[{"language": "en-GB", "translation": "New"}, {"language": "en-US", "translation": "New"}]'),
  ('ACF88633DFD445D5895804910F423616', '[{"language": "en-GB", "translation": "In progress"}, {"language": "en-US", "translation": "In progress"}]'),
  ('373D76362A5B4C8DA4CE092B1D4B2714', '[{"language": "en-GB", "translation": "Done"}, {"language": "en-US", "translation": "Done"}]'),
  ('TICKET_STATE_CONFIRMED', '[{"language": "en-GB", "translation": "Confirmed"}, {"language": "en-US", "translation": "Confirmed"}]'),
  ('TICKET_STATE_REOPENED', '[{"language": "en-GB", "translation": "Reopened"}, {"language": "en-US", "translation": "Reopened"}]'),
  ('7460F3A6789B4520BD0737328674FD2C', '[{"language": "de-DE", "translation": "Bemerkung"}, {"language": "en-US", "translation": "Comment"}, {"language": "en-GB", "translation": "Comment"}]'),
  ('7460F3A6789B4520BD0737328674FD21', '[{"language": "de-DE", "translation": "Bemerkung"}, {"language": "en-US", "translation": "Comment"}, {"language": "en-GB", "translation": "Comment"}]')
ON CONFLICT (id) DO NOTHING;

-- ticketStates: the name is the description literal; position is the SDK's state code.
INSERT INTO master_data_entries (kind, id, position, code, color, description_literal_id, attributes) VALUES
  ('ticketStates', 'NEW', 10, NULL, '#ff0000', 'FDF4D554C0E748C5B2F62FF39A067BE0', '{}'),
  ('ticketStates', 'IN_PROGRESS', 20, NULL, '#00ffff', 'ACF88633DFD445D5895804910F423616', '{}'),
  ('ticketStates', 'DONE', 30, NULL, '#00ff00', '373D76362A5B4C8DA4CE092B1D4B2714', '{}'),
  ('ticketStates', 'CONFIRMED', 40, NULL, NULL, 'TICKET_STATE_CONFIRMED', '{}'),
  ('ticketStates', 'REOPENED', 50, NULL, NULL, 'TICKET_STATE_REOPENED', '{}'),
  ('ticketActivityStates', 'NEW', 10, NULL, NULL, NULL, '{}'),
  ('ticketActivityStates', 'IN_PROGRESS', 20, NULL, NULL, NULL, '{}'),
  ('ticketActivityStates', 'DONE', 30, NULL, NULL, NULL, '{}')
ON CONFLICT (kind, id) DO NOTHING;

INSERT INTO master_data_entries
  (kind, id, position, code, color, description_literal_id, short_description_literal_id, attributes)
VALUES
  ('ticketClasses', '29EC6B9804B744ABAAAF3E13D86E1E63', 0, '1', NULL,
   '7460F3A6789B4520BD0737328674FD2C', '7460F3A6789B4520BD0737328674FD21', '{"sequence": 0}')
ON CONFLICT (kind, id) DO NOTHING;
