-- During a rolling upgrade an instance of the previous release still writes workplaces without
-- workplace_type (migration 014 made it NOT NULL) and may flip is_manual_workplace alone. The
-- column gets its value from the flag in both cases, so such writes succeed and the two stay
-- consistent (docs/operations.md, "Upgrades"). Both manual types are manual workplaces.
CREATE FUNCTION workplace_type_from_flag() RETURNS trigger AS $$
BEGIN
  IF NEW.workplace_type IS NULL
     OR (NEW.workplace_type = 'MACHINE_WORKPLACE') = NEW.is_manual_workplace THEN
    NEW.workplace_type := CASE WHEN NEW.is_manual_workplace THEN 'MANUAL_WORKPLACE' ELSE 'MACHINE_WORKPLACE' END;
  END IF;
  RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER workplaces_workplace_type_from_flag
  BEFORE INSERT OR UPDATE ON workplaces
  FOR EACH ROW EXECUTE FUNCTION workplace_type_from_flag();
