-- The v3 fields of operations and production orders that a plant's ERP sends and the bridge
-- keeps as given (docs/resources/production-orders.md, docs/resources/production-orders.md): the split,
-- the ERP context, the material's type, the results of lead-time scheduling, and the operation's alternative
-- workplaces, material characteristics and user fields. Older rows get null or empty lists.
ALTER TABLE operations ADD COLUMN IF NOT EXISTS split text;
ALTER TABLE operations ADD COLUMN IF NOT EXISTS material_type text;
ALTER TABLE operations ADD COLUMN IF NOT EXISTS erp_context_id text;
-- {"earliestStartDate": ..., "latestStartDate": ..., "earliestEndDate": ..., "latestEndDate": ...,
--  "scheduledStartDate": ..., "scheduledEndDate": ...}, ISO texts or null.
ALTER TABLE operations ADD COLUMN IF NOT EXISTS scheduled_dates jsonb NOT NULL DEFAULT '{}';
-- Workplace ids; a deleted workplace drops out when read (no foreign key into a json array).
ALTER TABLE operations ADD COLUMN IF NOT EXISTS alternative_workplace_ids jsonb NOT NULL DEFAULT '[]';
-- [{"name", "identifier", "value", "unit"}]
ALTER TABLE operations ADD COLUMN IF NOT EXISTS material_characteristics jsonb NOT NULL DEFAULT '[]';
-- [{"position", "value"}]
ALTER TABLE operations ADD COLUMN IF NOT EXISTS user_fields jsonb NOT NULL DEFAULT '[]';

ALTER TABLE production_orders ADD COLUMN IF NOT EXISTS split text;
ALTER TABLE production_orders ADD COLUMN IF NOT EXISTS material_type text;
ALTER TABLE production_orders ADD COLUMN IF NOT EXISTS erp_context_id text;
ALTER TABLE production_orders ADD COLUMN IF NOT EXISTS scheduled_start_date timestamptz;
ALTER TABLE production_orders ADD COLUMN IF NOT EXISTS scheduled_end_date timestamptz;

-- A workplace's histories in timestamp pages (GET /workplaces/{id}/recordedOperationPhases and
-- /recordedOutputQuantities walk these newest first).
CREATE INDEX IF NOT EXISTS recorded_operation_phases_by_workplace
  ON recorded_operation_phases (workplace_id, start_date DESC, id DESC);
CREATE INDEX IF NOT EXISTS recorded_output_quantities_by_workplace
  ON recorded_output_quantities (workplace_id, "timestamp" DESC, id DESC);
