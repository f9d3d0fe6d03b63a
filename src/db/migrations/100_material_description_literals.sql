-- A material's description as a literal (docs/resources/masterData.md, "Materials"): the real API
-- links a material's description to `/literals/{id}` as it does for the plant's other items.
-- A material is the number production orders and operations name, so its literal has an id
-- derived from that number and its text is picked from them: a production order's where one
-- names the material, otherwise an operation's; one with a description before one without; the
-- most recently changed among several. The literal is the one place that text is kept: the
-- materials and the reports read it, so every answer shows the same description. No text
-- picked, or nothing names the number any longer: no literal.
CREATE FUNCTION material_literal_id(number text) RETURNS text AS $$
  SELECT upper(md5('materials/' || number || '/description'))
$$ LANGUAGE sql IMMUTABLE;

-- One statement: the texts picked for the numbers, the literals of numbers without one deleted
-- and the others written (the two sets are disjoint); an unchanged text is not rewritten.
CREATE FUNCTION refresh_material_literals(numbers text[]) RETURNS void AS $$
  WITH picked AS (
    SELECT DISTINCT ON (number) number, description FROM (
      SELECT material_number AS number, material_description AS description, 0 AS source, updated_at
        FROM production_orders WHERE material_number = ANY(numbers)
      UNION ALL
      SELECT material_number, material_description, 1, updated_at
        FROM operations WHERE material_number = ANY(numbers)
    ) named
    ORDER BY number, source, description IS NULL, updated_at DESC
  ), removed AS (
    DELETE FROM literals
    WHERE id IN (
      SELECT material_literal_id(n) FROM unnest(numbers) n
      WHERE NOT EXISTS (SELECT 1 FROM picked p WHERE p.number = n AND p.description IS NOT NULL)
    )
  )
  INSERT INTO literals (id, translations)
  SELECT material_literal_id(number), description_translations(description)
  FROM picked WHERE description IS NOT NULL
  ON CONFLICT (id) DO UPDATE SET translations = excluded.translations
  WHERE literals.translations IS DISTINCT FROM excluded.translations
$$ LANGUAGE sql;

-- Statement-level for inserts and deletes: a bulk write refreshes its numbers once.
CREATE FUNCTION keep_material_literals() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM refresh_material_literals(
      ARRAY(SELECT DISTINCT material_number FROM new_rows WHERE material_number IS NOT NULL));
  ELSE
    PERFORM refresh_material_literals(
      ARRAY(SELECT DISTINCT material_number FROM old_rows WHERE material_number IS NOT NULL));
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

-- Row-level for updates, fired only when a material or its description changes: the frequent
-- updates of other columns (an operation's phase, an order's dates) pay nothing.
CREATE FUNCTION keep_material_literal() RETURNS trigger AS $$
BEGIN
  PERFORM refresh_material_literals(
    ARRAY(SELECT DISTINCT n FROM unnest(ARRAY[OLD.material_number, NEW.material_number]) n WHERE n IS NOT NULL));
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

DO $$
DECLARE
  source text;
BEGIN
  FOREACH source IN ARRAY ARRAY['production_orders', 'operations'] LOOP
    EXECUTE format(
      'CREATE TRIGGER %1$s_material_literal_inserts AFTER INSERT ON %1$I
         REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION keep_material_literals()',
      source);
    EXECUTE format(
      'CREATE TRIGGER %1$s_material_literal_deletes AFTER DELETE ON %1$I
         REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION keep_material_literals()',
      source);
    EXECUTE format(
      'CREATE TRIGGER %1$s_material_literal_updates AFTER UPDATE OF material_number, material_description ON %1$I
         FOR EACH ROW WHEN (OLD.material_number IS DISTINCT FROM NEW.material_number
           OR OLD.material_description IS DISTINCT FROM NEW.material_description)
         EXECUTE FUNCTION keep_material_literal()',
      source);
  END LOOP;
END;
$$;

-- The materials named before this migration.
SELECT refresh_material_literals(ARRAY(
  SELECT material_number FROM production_orders WHERE material_number IS NOT NULL
  UNION
  SELECT material_number FROM operations WHERE material_number IS NOT NULL));
