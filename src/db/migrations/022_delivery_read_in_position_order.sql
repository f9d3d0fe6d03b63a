-- The read of the held callbacks' events (src/db/repositories/deliveryStreams.ts, readStreams) as
-- a function that always walks each callback's range of events_by_type_and_position in position
-- order and stops after `take` rows. As a plain statement, its cached generic plan followed the
-- table's statistics: after a burst of events the statistics still described the small table of
-- before (autovacuum analyzes a minute later at the soonest), and the plan became a bitmap scan of
-- the callback's whole backlog plus a sort, 10-20 ms per read of 300 events instead of under 1 ms
-- (bench/mqttDelivery.ts, PostgreSQL's auto_explain). Without bitmap scans the ordered index scan
-- is the only way to the rows that fits LIMIT, whatever the statistics say.
CREATE FUNCTION delivery_read(callback_ids uuid[], afters bigint[], takes integer[])
  RETURNS TABLE (head bigint, callback_id uuid, sequence integer, url text, event_name text,
    signing_secret text, max_redeliver_attempts integer, discarded_since_success integer,
    "position" bigint, event_id uuid, event_type text, event_event_name text, object_type text,
    object_id text, data jsonb, "timestamp" timestamptz)
  SET enable_bitmapscan = off AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  WITH top AS (SELECT coalesce(max(e.delivery_position), 0) AS position FROM events e)
  SELECT top.position, s.* FROM top LEFT JOIN LATERAL (
    SELECT c.id, 0, c.url, c.event_name, c.signing_secret, c.max_redeliver_attempts,
      c.discarded_since_success, e.delivery_position, e.id, e.event_type, e.event_name,
      e.object_type, e.object_id, e.data, e."timestamp"
    FROM unnest(callback_ids, afters, takes) WITH ORDINALITY AS r (callback_id, after, take, n)
    JOIN callbacks c ON c.id = r.callback_id
    CROSS JOIN LATERAL (
      SELECT * FROM events e
      WHERE e.event_type = c.event_type AND e.delivery_position > r.after
        AND e.delivery_position <= top.position AND e.sequence > c.after_event_sequence
        AND (c.object_ids IS NULL OR e.object_id = ANY (c.object_ids))
      ORDER BY e.delivery_position LIMIT r.take
    ) e
    ORDER BY r.n, e.delivery_position
  ) s ON true;
END;
$$ LANGUAGE plpgsql STABLE;
