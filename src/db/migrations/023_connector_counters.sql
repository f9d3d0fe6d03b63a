-- Connectors you can trust at the edge (docs/resources/connectors.md, "Piece counters").

-- The last reading of each piece counter a connector maps, by its source. Written in the same
-- transaction as the booking the reading led to (or as the first reading, the baseline), so
-- whichever instance runs the connector next continues from it: nothing is booked twice, and
-- what the machine counted while no instance listened is booked as the difference.
CREATE TABLE connector_counters (
  connector_id uuid NOT NULL REFERENCES connectors (id) ON DELETE CASCADE,
  -- The mapping's source as canonical JSON (a node id, a topic and pointer, a Sparkplug metric).
  counter_key  text NOT NULL,
  reading      double precision NOT NULL,
  updated_at   timestamptz NOT NULL,
  PRIMARY KEY (connector_id, counter_key)
);

-- Pieces a connector counted at a workplace while no operation was in PROCESSING there (a machine
-- running between orders or during setup): booked on the workplace itself, so that its quantity
-- summary and OEE count them.
CREATE TABLE recorded_workplace_output_quantities (
  id            uuid PRIMARY KEY,
  workplace_id  uuid NOT NULL REFERENCES workplaces (id) ON DELETE CASCADE,
  quantity      double precision NOT NULL CHECK (quantity > 0),
  quantity_type text NOT NULL,
  "timestamp"   timestamptz NOT NULL,
  -- Kept as history: a deleted connector leaves its bookings without it.
  connector_id  uuid REFERENCES connectors (id) ON DELETE SET NULL,
  recorded_at   timestamptz NOT NULL
);
CREATE INDEX recorded_workplace_output_quantities_timeline
  ON recorded_workplace_output_quantities (workplace_id, "timestamp");

-- The connector status keeps its last problems (newest first, bounded by the service), not only
-- the one last_error shows.
ALTER TABLE connectors ADD COLUMN recent_errors jsonb NOT NULL DEFAULT '[]';
