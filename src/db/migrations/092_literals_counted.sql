-- A maintained count of literals (docs/decisions/0008-maintained-counts.md): since migration 091
-- every description of the plant's items is a literal, so `GET /literals` pages a table as large
-- as the operations, and its `total` reads the count instead of counting them all.
CREATE TRIGGER literals_counted_inserts AFTER INSERT ON literals
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION count_changed_rows();
CREATE TRIGGER literals_counted_deletes AFTER DELETE ON literals
  REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION count_changed_rows();
CREATE TRIGGER literals_counted_truncates AFTER TRUNCATE ON literals
  FOR EACH STATEMENT EXECUTE FUNCTION count_changed_rows();

-- What is already stored, in shard 0; writers waited for the triggers above.
INSERT INTO row_counts (table_name, scope, shard, n)
SELECT 'literals', '', 0, count(*) FROM literals;
