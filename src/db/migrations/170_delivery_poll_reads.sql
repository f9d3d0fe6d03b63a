-- A cycle's poll also reads the new events of the callbacks that had read everything up to the
-- last head (src/delivery/worker.ts). A write wakes the delivery loop, and its event used to take
-- two round trips before it could be sent: the poll that gives it a position, then the read of
-- the callbacks' cursors. A caught-up callback's read goes with the poll now, in the same
-- transaction, after the positions are given (a new statement in a volatile function sees them).
-- Callbacks that are behind are still read after the poll, once their skip check has run.
DROP FUNCTION delivery_poll(uuid, integer, timestamptz);

CREATE FUNCTION delivery_poll(me uuid, batch_size integer, at timestamptz,
  callback_ids uuid[], afters bigint[], takes integer[])
  RETURNS TABLE (sequenced integer, unleased boolean, next_retry_at timestamptz, head bigint,
    callback_id uuid, sequence integer, url text, event_name text, signing_secret text,
    max_redeliver_attempts integer, discarded_since_success integer, "position" bigint,
    event_id uuid, event_type text, event_event_name text, object_type text, object_id text,
    data jsonb, "timestamp" timestamptz) AS $$
#variable_conflict use_column
DECLARE
  given integer := 0;
  free boolean;
  retry_due timestamptz;
BEGIN
  IF EXISTS (SELECT 1 FROM events e WHERE e.dispatched_at IS NULL) THEN
    -- The sequencer's lock: held to the commit, so positions become visible in the order given.
    PERFORM pg_advisory_xact_lock(hashtext('bridge-delivery-sequencer'));
    WITH top AS (SELECT coalesce(max(e.delivery_position), 0) AS position FROM events e),
    batch AS (
      SELECT w.id, row_number() OVER (ORDER BY w.sequence) AS n
      FROM (SELECT e.id, e.sequence FROM events e WHERE e.dispatched_at IS NULL
            ORDER BY e.sequence LIMIT batch_size) w
    )
    UPDATE events e SET delivery_position = top.position + batch.n, dispatched_at = at
    FROM batch, top WHERE e.id = batch.id;
    GET DIAGNOSTICS given = ROW_COUNT;
  END IF;
  -- The counts only when a callback is free: the usual cycle finds none and stops there.
  free := EXISTS (SELECT 1 FROM callbacks c WHERE c.lease_until IS NULL OR c.lease_until < at);
  IF free THEN
    free := (SELECT count(*) FROM callbacks c WHERE c.lease_owner = me AND c.lease_until >= at)
      < ceil((SELECT count(*) FROM callbacks)::numeric
             / greatest(1, (SELECT count(*) FROM delivery_instances i WHERE i.alive_until >= at AND i.id <> me) + 1));
  END IF;
  SELECT min(n.next_attempt_at) INTO retry_due FROM notifications n
  WHERE n.locked_until IS NULL OR n.locked_until <= at;
  -- The head comes with the read: its snapshot is taken after the positions above.
  RETURN QUERY SELECT given, free, retry_due, r.* FROM delivery_read(callback_ids, afters, takes) r;
END;
$$ LANGUAGE plpgsql;

-- A callback that has read up to the head is left out before its range is looked up: the poll
-- asks for every caught-up callback, and most cycles have nothing new for most of them.
CREATE OR REPLACE FUNCTION delivery_read(callback_ids uuid[], afters bigint[], takes integer[])
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
    JOIN callbacks c ON c.id = r.callback_id AND r.after < top.position
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
