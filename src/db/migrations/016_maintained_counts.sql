-- Row counts kept by the writing transactions, so a page's `total` reads a few rows however large
-- the table grows (docs/architecture.md, "Maintained counts"). A count is the sum of its shards.
-- Each database connection adds to a shard of its own (its backend pid), so concurrent writers never
-- wait for one hot row and never lock two shared rows in opposite orders. `scope` is '' for the
-- whole table, or a value of the table's owner column (a device's samples); owner columns never
-- change after insert, so inserts and deletes are all that move a count. Shards of connections
-- that have closed are folded into shard 0 now and then (src/db/repositories/rowCounts.ts).
CREATE TABLE row_counts (
  table_name text NOT NULL,
  scope      text NOT NULL,
  shard      integer NOT NULL,
  n          bigint NOT NULL,
  PRIMARY KEY (table_name, scope, shard)
);

-- Statement-level: one upsert per statement, whatever number of rows it wrote (a bulk load too).
-- TG_ARGV[0], when given, names the owner column counted per value.
CREATE FUNCTION count_changed_rows() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM row_counts WHERE table_name = TG_TABLE_NAME;
    RETURN NULL;
  END IF;
  INSERT INTO row_counts AS r (table_name, scope, shard, n)
  SELECT TG_TABLE_NAME, s.scope, pg_backend_pid(),
    CASE WHEN TG_OP = 'INSERT' THEN count(*) ELSE -count(*) END
  FROM (SELECT '' AS scope FROM changed
        UNION ALL
        SELECT to_jsonb(changed) ->> TG_ARGV[0] FROM changed WHERE TG_NARGS > 0) s
  GROUP BY s.scope
  ON CONFLICT (table_name, scope, shard) DO UPDATE SET n = r.n + excluded.n;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

-- The triggers come before the counts below: from here on a writer waits for this migration to
-- commit, and every row committed before is in the count.
CREATE TRIGGER events_counted_inserts AFTER INSERT ON events
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION count_changed_rows();
CREATE TRIGGER events_counted_deletes AFTER DELETE ON events
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION count_changed_rows();
CREATE TRIGGER events_counted_truncates AFTER TRUNCATE ON events
  FOR EACH STATEMENT EXECUTE FUNCTION count_changed_rows();

CREATE TRIGGER production_orders_counted_inserts AFTER INSERT ON production_orders
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION count_changed_rows();
CREATE TRIGGER production_orders_counted_deletes AFTER DELETE ON production_orders
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION count_changed_rows();
CREATE TRIGGER production_orders_counted_truncates AFTER TRUNCATE ON production_orders
  FOR EACH STATEMENT EXECUTE FUNCTION count_changed_rows();

CREATE TRIGGER operations_counted_inserts AFTER INSERT ON operations
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION count_changed_rows();
CREATE TRIGGER operations_counted_deletes AFTER DELETE ON operations
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION count_changed_rows();
CREATE TRIGGER operations_counted_truncates AFTER TRUNCATE ON operations
  FOR EACH STATEMENT EXECUTE FUNCTION count_changed_rows();

CREATE TRIGGER recorded_time_series_counted_inserts AFTER INSERT ON recorded_time_series
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION count_changed_rows('device_id');
CREATE TRIGGER recorded_time_series_counted_deletes AFTER DELETE ON recorded_time_series
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION count_changed_rows('device_id');
CREATE TRIGGER recorded_time_series_counted_truncates AFTER TRUNCATE ON recorded_time_series
  FOR EACH STATEMENT EXECUTE FUNCTION count_changed_rows();

CREATE TRIGGER recorded_output_quantities_counted_inserts AFTER INSERT ON recorded_output_quantities
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION count_changed_rows('operation_id');
CREATE TRIGGER recorded_output_quantities_counted_deletes AFTER DELETE ON recorded_output_quantities
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION count_changed_rows('operation_id');
CREATE TRIGGER recorded_output_quantities_counted_truncates AFTER TRUNCATE ON recorded_output_quantities
  FOR EACH STATEMENT EXECUTE FUNCTION count_changed_rows();

CREATE TRIGGER recorded_operating_states_counted_inserts AFTER INSERT ON recorded_operating_states
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION count_changed_rows('workplace_id');
CREATE TRIGGER recorded_operating_states_counted_deletes AFTER DELETE ON recorded_operating_states
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION count_changed_rows('workplace_id');
CREATE TRIGGER recorded_operating_states_counted_truncates AFTER TRUNCATE ON recorded_operating_states
  FOR EACH STATEMENT EXECUTE FUNCTION count_changed_rows();

CREATE TRIGGER recorded_operation_phases_counted_inserts AFTER INSERT ON recorded_operation_phases
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION count_changed_rows('operation_id');
CREATE TRIGGER recorded_operation_phases_counted_deletes AFTER DELETE ON recorded_operation_phases
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION count_changed_rows('operation_id');
CREATE TRIGGER recorded_operation_phases_counted_truncates AFTER TRUNCATE ON recorded_operation_phases
  FOR EACH STATEMENT EXECUTE FUNCTION count_changed_rows();

CREATE TRIGGER recorded_staff_activities_counted_inserts AFTER INSERT ON recorded_staff_activities
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION count_changed_rows('staff_member_id');
CREATE TRIGGER recorded_staff_activities_counted_deletes AFTER DELETE ON recorded_staff_activities
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION count_changed_rows('staff_member_id');
CREATE TRIGGER recorded_staff_activities_counted_truncates AFTER TRUNCATE ON recorded_staff_activities
  FOR EACH STATEMENT EXECUTE FUNCTION count_changed_rows();

-- What is already stored, in shard 0.
INSERT INTO row_counts (table_name, scope, shard, n)
SELECT 'events', '', 0, count(*) FROM events
UNION ALL SELECT 'production_orders', '', 0, count(*) FROM production_orders
UNION ALL SELECT 'operations', '', 0, count(*) FROM operations
UNION ALL SELECT 'recorded_time_series', '', 0, count(*) FROM recorded_time_series
UNION ALL SELECT 'recorded_time_series', device_id::text, 0, count(*) FROM recorded_time_series GROUP BY device_id
UNION ALL SELECT 'recorded_output_quantities', '', 0, count(*) FROM recorded_output_quantities
UNION ALL SELECT 'recorded_output_quantities', operation_id::text, 0, count(*) FROM recorded_output_quantities GROUP BY operation_id
UNION ALL SELECT 'recorded_operating_states', '', 0, count(*) FROM recorded_operating_states
UNION ALL SELECT 'recorded_operating_states', workplace_id::text, 0, count(*) FROM recorded_operating_states GROUP BY workplace_id
UNION ALL SELECT 'recorded_operation_phases', '', 0, count(*) FROM recorded_operation_phases
UNION ALL SELECT 'recorded_operation_phases', operation_id::text, 0, count(*) FROM recorded_operation_phases GROUP BY operation_id
UNION ALL SELECT 'recorded_staff_activities', '', 0, count(*) FROM recorded_staff_activities
UNION ALL SELECT 'recorded_staff_activities', staff_member_id::text, 0, count(*) FROM recorded_staff_activities GROUP BY staff_member_id;
