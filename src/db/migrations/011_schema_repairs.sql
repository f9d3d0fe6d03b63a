-- Brings a database made by any earlier commit to today's schema. Before migrations were
-- immutable (their checksums are stored since this one), 002_callbacks.sql and
-- 003_production_orders.sql were edited after databases had applied them, and such a database
-- kept the older schema. Every step checks first, so it changes nothing on an up-to-date database
-- (docs/operations.md, "Upgrades and migrations").

-- 002 before d065590 had no after_event_sequence. Its callbacks got every event not yet fanned
-- out, which 0 keeps; new callbacks get the event log's position at registration (no default).
ALTER TABLE callbacks ADD COLUMN IF NOT EXISTS after_event_sequence bigint NOT NULL DEFAULT 0;
ALTER TABLE callbacks ALTER COLUMN after_event_sequence DROP DEFAULT;

-- 002 before 5983a3d had no index of claimed notifications.
CREATE INDEX IF NOT EXISTS notifications_claimed
  ON notifications (callback_id, locked_until) WHERE locked_until IS NOT NULL;

-- 003 before 22440a9 indexed operations by workplace_id alone; 003 of 22440a9 indexed phases by
-- (operation_phase_id, updated_at DESC, id DESC). An index is rebuilt only when it differs.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_indexes
      WHERE schemaname = current_schema() AND indexname = 'operations_by_workplace'
        AND indexdef LIKE '%(workplace_id, updated_at DESC, id DESC)') THEN
    DROP INDEX IF EXISTS operations_by_workplace;
    CREATE INDEX operations_by_workplace ON operations (workplace_id, updated_at DESC, id DESC);
  END IF;
  IF NOT EXISTS (SELECT 1 FROM pg_indexes
      WHERE schemaname = current_schema() AND indexname = 'operations_by_phase'
        AND indexdef LIKE '%(operation_phase_id)') THEN
    DROP INDEX IF EXISTS operations_by_phase;
    CREATE INDEX operations_by_phase ON operations (operation_phase_id);
  END IF;
END
$$;
