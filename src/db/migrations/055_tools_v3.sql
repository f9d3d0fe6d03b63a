-- Tools as FORCE Bridge v3 shows them (docs/resources/tools.md): created directly as well as
-- through an assembly order, with names and identifiers, a group and class, the SDK's service
-- life counters, a state of their own once no order is in progress, a location in a workplace's
-- magazine, cutting edges, and characteristics of the tool and of each edge.
ALTER TABLE tools
  ADD COLUMN IF NOT EXISTS name text,
  ADD COLUMN IF NOT EXISTS identifier2 text,
  ADD COLUMN IF NOT EXISTS identifier3 text,
  ADD COLUMN IF NOT EXISTS document_url text,
  ADD COLUMN IF NOT EXISTS group_name text,
  ADD COLUMN IF NOT EXISTS group_identifier text,
  ADD COLUMN IF NOT EXISTS class_name text,
  ADD COLUMN IF NOT EXISTS class_identifier text,
  -- The SDK's lifeTime in the plant's own unit, as written: used life, warning limit, maximum.
  ADD COLUMN IF NOT EXISTS life_time_current bigint,
  ADD COLUMN IF NOT EXISTS life_time_warning_limit bigint,
  ADD COLUMN IF NOT EXISTS life_time_maximum bigint,
  -- Set by the tool state command; null until then (an order's state stands in for it).
  ADD COLUMN IF NOT EXISTS state text,
  -- The location: the workplace is workplace_id, these say where in its magazine.
  ADD COLUMN IF NOT EXISTS magazine_number integer,
  ADD COLUMN IF NOT EXISTS magazine_place integer,
  ADD COLUMN IF NOT EXISTS geo_coordinates jsonb;

CREATE INDEX IF NOT EXISTS tools_identifiers ON tools (identifier2, identifier3);

CREATE TABLE IF NOT EXISTS tool_edges (
  id                      uuid PRIMARY KEY,
  tool_id                 uuid NOT NULL REFERENCES tools (id) ON DELETE CASCADE,
  identifier              text NOT NULL,
  life_time_current       bigint,
  life_time_warning_limit bigint,
  life_time_maximum       bigint,
  created_at              timestamptz NOT NULL,
  updated_at              timestamptz NOT NULL,
  CONSTRAINT tool_edges_identifier_key UNIQUE (tool_id, identifier)
);

-- The characteristics of a tool (edge_id null) or of one of its edges, in the order written.
CREATE TABLE IF NOT EXISTS tool_characteristics (
  tool_id    uuid NOT NULL REFERENCES tools (id) ON DELETE CASCADE,
  edge_id    uuid REFERENCES tool_edges (id) ON DELETE CASCADE,
  position   integer NOT NULL,
  name       text NOT NULL,
  identifier text NOT NULL,
  value      text NOT NULL,
  unit       text
);
CREATE INDEX IF NOT EXISTS tool_characteristics_owner ON tool_characteristics (tool_id, edge_id, position);
CREATE INDEX IF NOT EXISTS tool_characteristics_edge ON tool_characteristics (edge_id);
