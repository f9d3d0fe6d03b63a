-- The descriptions of an operation's production resources and tools as literals
-- (docs/resources/masterData.md, "Literals"): the real API links each item's description to
-- `/literals/{id}` and embeds it on request, as it does for the operation's own description. The
-- items are the operation's list, kept in its row; an item has no id of its own, so its literal's
-- id is derived from the operation and the item's place in the list (1 for the first), and the
-- presenter derives the same. These triggers keep the literals equal to the list's descriptions,
-- in the transaction that writes the row.
CREATE FUNCTION production_resource_literal_id(operation_id uuid, place bigint) RETURNS text AS $$
  SELECT upper(md5('operations/' || operation_id::text || '/productionResourcesAndTools/' || place || '/description'))
$$ LANGUAGE sql IMMUTABLE;

-- The literal ids and texts of the described items of one list.
CREATE FUNCTION production_resource_descriptions(operation_id uuid, items jsonb)
RETURNS TABLE (id text, description text) AS $$
  SELECT production_resource_literal_id(operation_id, item.place), item.value ->> 'description'
  FROM jsonb_array_elements(items) WITH ORDINALITY AS item(value, place)
  WHERE jsonb_typeof(item.value -> 'description') = 'string'
$$ LANGUAGE sql IMMUTABLE;

-- Statement-level for inserts and deletes, so a bulk write is one statement on literals.
CREATE FUNCTION keep_production_resource_literals() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO literals (id, translations)
    SELECT d.id, description_translations(d.description)
    FROM new_rows n, production_resource_descriptions(n.id, n.production_resources_and_tools) d
    ON CONFLICT (id) DO UPDATE SET translations = excluded.translations;
  ELSE
    DELETE FROM literals WHERE id IN (
      SELECT d.id FROM old_rows o, production_resource_descriptions(o.id, o.production_resources_and_tools) d);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

-- Row-level for updates, fired only when the list changes: the literals of places no longer
-- described go, the others are written where their text changed.
CREATE FUNCTION keep_production_resource_literal() RETURNS trigger AS $$
BEGIN
  DELETE FROM literals WHERE id IN (
    SELECT id FROM production_resource_descriptions(OLD.id, OLD.production_resources_and_tools)
    EXCEPT
    SELECT id FROM production_resource_descriptions(NEW.id, NEW.production_resources_and_tools));
  INSERT INTO literals (id, translations)
  SELECT d.id, description_translations(d.description)
  FROM production_resource_descriptions(NEW.id, NEW.production_resources_and_tools) d
  ON CONFLICT (id) DO UPDATE SET translations = excluded.translations
  WHERE literals.translations IS DISTINCT FROM excluded.translations;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER operations_production_resource_literal_inserts AFTER INSERT ON operations
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION keep_production_resource_literals();
CREATE TRIGGER operations_production_resource_literal_deletes AFTER DELETE ON operations
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION keep_production_resource_literals();
CREATE TRIGGER operations_production_resource_literal_updates AFTER UPDATE OF production_resources_and_tools ON operations
  FOR EACH ROW WHEN (OLD.production_resources_and_tools IS DISTINCT FROM NEW.production_resources_and_tools)
  EXECUTE FUNCTION keep_production_resource_literal();

-- The lists written before this migration.
INSERT INTO literals (id, translations)
SELECT d.id, description_translations(d.description)
FROM operations o, production_resource_descriptions(o.id, o.production_resources_and_tools) d
ON CONFLICT (id) DO NOTHING;
