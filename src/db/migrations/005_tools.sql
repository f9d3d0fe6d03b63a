-- Tools (created only through their assembly order) and tool assembly orders.
-- A tool's state is derived from its order's state, so it is not stored.
CREATE TABLE tools (
  id                     uuid PRIMARY KEY,
  -- Optional, but unique when given.
  number                 text UNIQUE,
  description            text,
  storage_location       text,
  -- Current site of operation; a workplace in use by a tool cannot be deleted.
  workplace_id           uuid REFERENCES workplaces (id),
  -- Lifespan in milliseconds.
  lifespan_remaining     bigint,
  lifespan_maximum       bigint,
  lifespan_warning_limit bigint,
  created_at             timestamptz NOT NULL,
  updated_at             timestamptz NOT NULL
);
CREATE INDEX tools_workplace ON tools (workplace_id);

CREATE TABLE tool_assembly_orders (
  id                  uuid PRIMARY KEY,
  -- One order per tool; the order outlives a deleted tool as history.
  tool_id             uuid UNIQUE REFERENCES tools (id) ON DELETE SET NULL,
  tool_description    text NOT NULL,
  target_workplace_id uuid REFERENCES workplaces (id),
  operation_id        uuid REFERENCES operations (id) ON DELETE SET NULL,
  state               text NOT NULL
    CHECK (state IN ('REQUESTED', 'INITIATED', 'ASSEMBLED', 'PRESETTING', 'AVAILABLE', 'UNAVAILABLE')),
  created_at          timestamptz NOT NULL,
  updated_at          timestamptz NOT NULL
);
CREATE INDEX tool_assembly_orders_listing ON tool_assembly_orders (created_at, id);
CREATE INDEX tool_assembly_orders_state ON tool_assembly_orders (state, created_at, id);
CREATE INDEX tool_assembly_orders_target_workplace ON tool_assembly_orders (target_workplace_id);
CREATE INDEX tool_assembly_orders_operation ON tool_assembly_orders (operation_id);
