-- The operating-state command in one database call (docs/decisions/0009-writes-in-one-round-trip.md):
-- lock, read, write and events in one function, instead of BEGIN, a locking read, the writes and
-- COMMIT as round trips of their own. A plpgsql function, not one statement: each of its
-- statements sees what committed while it waited for the lock (a concurrent command's new open
-- record), which the one snapshot of a single statement would not.

-- A time-ordered id (version 7: milliseconds since 1970, then random bits), as the service gives
-- ids (docs/api.md), for the rows a function makes.
CREATE FUNCTION uuid_v7() RETURNS uuid AS $$
  SELECT encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid())
    PLACING substring(int8send(floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3)
    FROM 1 FOR 6), 52, 1), 53, 1), 'hex')::uuid
$$ LANGUAGE sql VOLATILE;

-- The n-th (from 1) of the ids of rows made together: `base` (one uuid_v7()) with n in its last two
-- bytes, so that they sort in the order they were made, as the service's own ids of one change do
-- (the event log orders events of one time by id).
CREATE FUNCTION uuid_v7_nth(base uuid, n integer) RETURNS uuid AS $$
  SELECT encode(overlay(uuid_send(base) PLACING int2send(n::smallint) FROM 15 FOR 2), 'hex')::uuid
$$ LANGUAGE sql IMMUTABLE;

-- Moves a workplace to `target` at `at` (docs/resources/workplaces.md): its row locked, nothing
-- when it is in that state already; else its open record closed, a new one keeping the reasons,
-- and the events. The service builds the events; this fills in what only the locked read knows:
--   changed       WORKPLACE_OPERATING_STATE_CHANGED, its data without previousOperatingState,
--                 taken from `states` (event data of each operating state by id);
--   predictions   OBSOLETE_PREDICTED_MALFUNCTION_SCENARIOS, null when `target` outdates nothing:
--                 the workplace's current predictions are marked obsolete, their ids in its data
--                 (none, no event);
--   forecasts     OBSOLETE_OPERATION_FORECAST_RESULTS, null likewise: one per operation whose
--                 forecast result on the workplace ends after `at`, the operation its object.
-- An event is {event_type, object_type, object_id, data}. Returns the workplace as it is after,
-- no row without it.
CREATE FUNCTION move_operating_state(workplace uuid, target uuid, at timestamptz,
  detail_ids jsonb, remark text, changed jsonb, states jsonb, predictions jsonb, forecasts jsonb)
  RETURNS SETOF workplaces AS $$
DECLARE
  found_row workplaces;
  moved_row workplaces;
  obsolete_ids jsonb;
  id_base uuid := uuid_v7();
BEGIN
  SELECT * INTO found_row FROM workplaces w WHERE w.id = workplace FOR UPDATE;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  IF found_row.operating_state_id = target THEN
    RETURN NEXT found_row;
    RETURN;
  END IF;
  UPDATE workplaces w SET operating_state_id = target, updated_at = at
    WHERE w.id = workplace RETURNING * INTO moved_row;
  UPDATE recorded_operating_states r SET end_date = at
    WHERE r.workplace_id = workplace AND r.end_date IS NULL;
  INSERT INTO recorded_operating_states (id, workplace_id, operating_state_id, start_date, end_date,
    machine_state_detail_ids, remark)
  VALUES (uuid_v7(), workplace, target, at, NULL, detail_ids, remark);

  changed := jsonb_set(changed, '{data,previousOperatingState}',
    states -> found_row.operating_state_id::text);
  IF predictions IS NOT NULL THEN
    WITH marked AS (
      UPDATE predicted_malfunction_scenarios p SET obsolete_since = at
      WHERE p.workplace_id = workplace AND p.obsolete_since IS NULL RETURNING p.id
    )
    SELECT jsonb_agg(m.id ORDER BY m.id) INTO obsolete_ids FROM marked m;
    predictions := CASE WHEN obsolete_ids IS NOT NULL
      THEN jsonb_set(predictions, '{data,predictedMalfunctionScenarioIds}', obsolete_ids) END;
  END IF;

  -- The events in the order the log numbers them: the change, then what it outdated.
  INSERT INTO events (id, event_type, event_name, object_type, object_id, data, "timestamp",
    recorded_at, published_by)
  SELECT uuid_v7_nth(id_base, (row_number() OVER (ORDER BY e.part, e.owner))::integer),
    e.value ->> 'event_type', NULL, e.value ->> 'object_type', e.value ->> 'object_id',
    e.value -> 'data', at, at, NULL
  FROM (
    SELECT 1 AS part, NULL::uuid AS owner, changed AS value
    UNION ALL
    SELECT 2, NULL, predictions WHERE predictions IS NOT NULL
    UNION ALL
    SELECT 3, f.operation_id, jsonb_set(jsonb_set(forecasts, '{object_id}', to_jsonb(f.operation_id)),
      '{data,operationId}', to_jsonb(f.operation_id))
    FROM operation_forecast_results f
    WHERE forecasts IS NOT NULL AND f.workplace_id = workplace AND f.end_date > at
  ) e
  ORDER BY e.part, e.owner;

  RETURN NEXT moved_row;
END;
$$ LANGUAGE plpgsql VOLATILE;
