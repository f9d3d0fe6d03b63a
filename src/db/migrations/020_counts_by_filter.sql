-- Maintained counts for the common filters of the operations (docs/architecture.md, "Maintained
-- counts"): by phase and by workplace. Both change with the operation, so updates move counts
-- too. The scope of such a count is `column=value` ('operation_phase_id=PROCESSING'); the whole
-- table stays ''. Rows whose value is NULL are in no such count, as `column = $1` matches none.
CREATE FUNCTION count_rows_by() RETURNS trigger AS $$
BEGIN
  -- Each branch reads only the transition tables its operation declares.
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM row_counts WHERE table_name = TG_TABLE_NAME;
  ELSIF TG_OP = 'INSERT' THEN
    INSERT INTO row_counts AS r (table_name, scope, shard, n)
    SELECT TG_TABLE_NAME, s.scope, pg_backend_pid(), count(*)
    FROM (SELECT '' AS scope FROM new_rows
          UNION ALL
          SELECT c || '=' || (to_jsonb(new_rows) ->> c) FROM new_rows, unnest(TG_ARGV) c) s
    WHERE s.scope IS NOT NULL GROUP BY s.scope
    ON CONFLICT (table_name, scope, shard) DO UPDATE SET n = r.n + excluded.n;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO row_counts AS r (table_name, scope, shard, n)
    SELECT TG_TABLE_NAME, s.scope, pg_backend_pid(), -count(*)
    FROM (SELECT '' AS scope FROM old_rows
          UNION ALL
          SELECT c || '=' || (to_jsonb(old_rows) ->> c) FROM old_rows, unnest(TG_ARGV) c) s
    WHERE s.scope IS NOT NULL GROUP BY s.scope
    ON CONFLICT (table_name, scope, shard) DO UPDATE SET n = r.n + excluded.n;
  ELSE
    -- An update moves a row between the counts of its old and new values.
    INSERT INTO row_counts AS r (table_name, scope, shard, n)
    SELECT TG_TABLE_NAME, s.scope, pg_backend_pid(), sum(s.n)
    FROM (SELECT c || '=' || (to_jsonb(new_rows) ->> c) AS scope, 1 AS n FROM new_rows, unnest(TG_ARGV) c
          UNION ALL
          SELECT c || '=' || (to_jsonb(old_rows) ->> c), -1 FROM old_rows, unnest(TG_ARGV) c) s
    WHERE s.scope IS NOT NULL GROUP BY s.scope HAVING sum(s.n) <> 0
    ON CONFLICT (table_name, scope, shard) DO UPDATE SET n = r.n + excluded.n;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

DROP TRIGGER operations_counted_inserts ON operations;
DROP TRIGGER operations_counted_deletes ON operations;
DROP TRIGGER operations_counted_truncates ON operations;
CREATE TRIGGER operations_counted_inserts AFTER INSERT ON operations
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION count_rows_by('operation_phase_id', 'workplace_id');
CREATE TRIGGER operations_counted_updates AFTER UPDATE ON operations
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
  EXECUTE FUNCTION count_rows_by('operation_phase_id', 'workplace_id');
CREATE TRIGGER operations_counted_deletes AFTER DELETE ON operations
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT
  EXECUTE FUNCTION count_rows_by('operation_phase_id', 'workplace_id');
CREATE TRIGGER operations_counted_truncates AFTER TRUNCATE ON operations
  FOR EACH STATEMENT EXECUTE FUNCTION count_rows_by();

-- What is already stored, in shard 0 (the whole-table count is there since 016).
INSERT INTO row_counts (table_name, scope, shard, n)
SELECT 'operations', 'operation_phase_id=' || operation_phase_id, 0, count(*) FROM operations GROUP BY operation_phase_id
UNION ALL
SELECT 'operations', 'workplace_id=' || workplace_id::text, 0, count(*) FROM operations
WHERE workplace_id IS NOT NULL GROUP BY workplace_id
ON CONFLICT (table_name, scope, shard) DO UPDATE SET n = row_counts.n + excluded.n;
