-- Production orders and their operations (spec 3, contract 4). Both are timestamp-mode
-- collections: newest first by updated_at, ties by id.
CREATE TABLE production_orders (
  id                   uuid PRIMARY KEY,
  number               text NOT NULL UNIQUE,
  description          text,
  material_number      text,
  material_description text,
  target_quantity      double precision,
  quantity_unit        text,
  basic_start_date     timestamptz,
  basic_end_date       timestamptz,
  delivery_date        timestamptz,
  created_at           timestamptz NOT NULL,
  updated_at           timestamptz NOT NULL
);
CREATE INDEX production_orders_timeline ON production_orders (updated_at DESC, id DESC);
CREATE INDEX production_orders_material ON production_orders (material_number);
CREATE INDEX production_orders_dates ON production_orders (basic_start_date, basic_end_date);

-- No cascade from production_orders: the service deletes operations one by one so each
-- emits OPERATION_DELETED.
CREATE TABLE operations (
  id                             uuid PRIMARY KEY,
  production_order_id            uuid NOT NULL REFERENCES production_orders (id),
  -- Position within the order; embed=operations lists them in this order.
  sequence                       integer NOT NULL,
  number                         text NOT NULL,
  description                    text,
  material_number                text,
  material_description           text,
  -- Phases are master data defined in code (src/domain/operationPhases.ts).
  operation_phase_id             text NOT NULL,
  workplace_id                   uuid NULL REFERENCES workplaces (id),
  workplace_group_id             uuid NULL REFERENCES workplace_groups (id),
  target_quantity                double precision,
  quantity_unit                  text,
  -- Durations in milliseconds.
  target_time_per_unit           bigint,
  target_setup_time              bigint,
  target_teardown_time           bigint,
  target_move_time               bigint,
  target_wait_time               bigint,
  components                     jsonb NOT NULL DEFAULT '[]',
  production_resources_and_tools jsonb NOT NULL DEFAULT '[]',
  start_date                     timestamptz,
  end_date                       timestamptz,
  created_at                     timestamptz NOT NULL,
  updated_at                     timestamptz NOT NULL,
  UNIQUE (production_order_id, number)
);
CREATE INDEX operations_timeline ON operations (updated_at DESC, id DESC);
CREATE INDEX operations_by_order ON operations (production_order_id, sequence, id);
-- A workplace's page walks this in keyset order (bench/operationsScale.ts: 3.5 -> 0.2 ms at 1M).
CREATE INDEX operations_by_workplace ON operations (workplace_id, updated_at DESC, id DESC);
CREATE INDEX operations_by_workplace_group ON operations (workplace_group_id);
-- Single column on purpose: with eight values it deduplicates to a small index, which keeps the
-- count behind `total` fast (a (phase, updated_at, id) index made it 3 ms -> 20 ms at 1M).
CREATE INDEX operations_by_phase ON operations (operation_phase_id);
CREATE INDEX operations_dates ON operations (start_date, end_date);

-- History of operation phases; the open record (end_date NULL) is the current one.
CREATE TABLE recorded_operation_phases (
  id                 uuid PRIMARY KEY,
  operation_id       uuid NOT NULL REFERENCES operations (id) ON DELETE CASCADE,
  operation_phase_id text NOT NULL,
  -- History keeps who and where; a deleted workplace leaves the record without it.
  workplace_id       uuid REFERENCES workplaces (id) ON DELETE SET NULL,
  staff_member_id    uuid,
  start_date         timestamptz NOT NULL,
  end_date           timestamptz
);
CREATE INDEX recorded_operation_phases_timeline
  ON recorded_operation_phases (operation_id, start_date DESC, id DESC);
CREATE INDEX recorded_operation_phases_workplace ON recorded_operation_phases (workplace_id);
