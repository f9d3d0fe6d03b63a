-- The descriptions of workplaces, workplace groups, production orders, operations and tools as
-- literals (docs/resources/masterData.md, "Literals"): the real API links each description to
-- `/literals/{id}` and embeds it on request. A description is one text, written in the default
-- language (en-GB); its literal has that one translation and an id derived from table and row
-- (the presenters derive the same id), so no row stores it and rewriting a row keeps it. These
-- triggers keep each literal equal to its description, in the transaction that writes the row.
CREATE FUNCTION description_literal_id(source text, id uuid) RETURNS text AS $$
  SELECT upper(md5(source || '/' || id::text || '/description'))
$$ LANGUAGE sql IMMUTABLE;

CREATE FUNCTION description_translations(description text) RETURNS jsonb AS $$
  SELECT jsonb_build_array(jsonb_build_object('language', 'en-GB', 'translation', description))
$$ LANGUAGE sql IMMUTABLE;

-- Statement-level for inserts and deletes, so a bulk write is one statement on literals.
CREATE FUNCTION keep_description_literals() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO literals (id, translations)
    SELECT description_literal_id(TG_TABLE_NAME, n.id), description_translations(n.description)
    FROM new_rows n WHERE n.description IS NOT NULL
    ON CONFLICT (id) DO UPDATE SET translations = excluded.translations;
  ELSE
    DELETE FROM literals
    WHERE id IN (SELECT description_literal_id(TG_TABLE_NAME, o.id) FROM old_rows o WHERE o.description IS NOT NULL);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

-- Row-level for updates, fired only when the description changes: the frequent updates of other
-- columns (a workplace's operating state, an operation's phase) pay nothing.
CREATE FUNCTION keep_description_literal() RETURNS trigger AS $$
BEGIN
  IF NEW.description IS NULL THEN
    DELETE FROM literals WHERE id = description_literal_id(TG_TABLE_NAME, OLD.id);
  ELSE
    INSERT INTO literals (id, translations)
    VALUES (description_literal_id(TG_TABLE_NAME, NEW.id), description_translations(NEW.description))
    ON CONFLICT (id) DO UPDATE SET translations = excluded.translations;
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

DO $$
DECLARE
  source text;
BEGIN
  FOREACH source IN ARRAY ARRAY['workplaces', 'workplace_groups', 'production_orders', 'operations', 'tools'] LOOP
    EXECUTE format(
      'CREATE TRIGGER %1$s_description_literal_inserts AFTER INSERT ON %1$I
         REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION keep_description_literals()',
      source);
    EXECUTE format(
      'CREATE TRIGGER %1$s_description_literal_deletes AFTER DELETE ON %1$I
         REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION keep_description_literals()',
      source);
    EXECUTE format(
      'CREATE TRIGGER %1$s_description_literal_updates AFTER UPDATE OF description ON %1$I
         FOR EACH ROW WHEN (OLD.description IS DISTINCT FROM NEW.description)
         EXECUTE FUNCTION keep_description_literal()',
      source);
    -- The rows written before this migration.
    EXECUTE format(
      'INSERT INTO literals (id, translations)
       SELECT description_literal_id(%1$L, id), description_translations(description)
       FROM %1$I WHERE description IS NOT NULL
       ON CONFLICT (id) DO NOTHING',
      source);
  END LOOP;
END;
$$;
