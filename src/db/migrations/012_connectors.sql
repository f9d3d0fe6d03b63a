-- Output quantities booked on an operation (yield, scrap, rework), by the API or by a
-- connector's piece counter. Read in timestamp mode by their own time, newest first.
CREATE TABLE recorded_output_quantities (
  id              uuid PRIMARY KEY,
  operation_id    uuid NOT NULL REFERENCES operations (id) ON DELETE CASCADE,
  quantity        double precision NOT NULL CHECK (quantity > 0),
  quantity_type   text NOT NULL,
  "timestamp"     timestamptz NOT NULL,
  -- Kept as history: a deleted workplace or staff member leaves the booking without it.
  workplace_id    uuid REFERENCES workplaces (id) ON DELETE SET NULL,
  staff_member_id uuid REFERENCES staff_members (id) ON DELETE SET NULL,
  recorded_at     timestamptz NOT NULL
);
CREATE INDEX recorded_output_quantities_timeline
  ON recorded_output_quantities (operation_id, "timestamp" DESC, id DESC);
CREATE INDEX recorded_output_quantities_workplace ON recorded_output_quantities (workplace_id);
CREATE INDEX recorded_output_quantities_staff ON recorded_output_quantities (staff_member_id);

-- Connectors: the bridge reads machines itself (OPC UA, MQTT, Sparkplug B). The configuration,
-- the status its running instance reports, and the lease saying which instance runs it.
CREATE TABLE connectors (
  id                uuid PRIMARY KEY,
  name              text NOT NULL,
  type              text NOT NULL,
  url               text NOT NULL,
  username          text,
  -- Needed to connect, so kept; never shown by the API nor written to logs.
  password          text,
  security_mode     text NOT NULL,
  enabled           boolean NOT NULL,
  -- [{source, target}], checked by the service against devices, tags, workplaces and states.
  mappings          jsonb NOT NULL,
  -- Raised by every change of the configuration: the owning instance reconnects with the new one.
  revision          integer NOT NULL,
  state             text NOT NULL,
  state_since       timestamptz NOT NULL,
  last_error        text,
  last_message_at   timestamptz,
  messages_received bigint NOT NULL DEFAULT 0,
  values_applied    bigint NOT NULL DEFAULT 0,
  values_rejected   bigint NOT NULL DEFAULT 0,
  -- The lease: the instance running the connector, until lease_expires_at unless it renews.
  lease_owner       text,
  lease_expires_at  timestamptz,
  created_at        timestamptz NOT NULL,
  updated_at        timestamptz NOT NULL
);
CREATE INDEX connectors_by_name ON connectors (name, id);
