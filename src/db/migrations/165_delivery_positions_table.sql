-- Delivery positions in a narrow table of their own (docs/decisions/0003-delivery-from-the-event-log.md).
-- Giving a position used to update the event row (delivery_position, dispatched_at): a second,
-- non-HOT version of every event, with a second entry in each of the log's indexes. Now an event
-- row is written once; the event insert queues the event in delivery_pending (a trigger, so every
-- writer of the log is covered), and delivery_poll moves queued events to delivery_positions.

-- An event committed and not yet given a position. Rows leave in the poll that positions them.
CREATE TABLE delivery_pending (
  sequence   bigint PRIMARY KEY,
  event_type text NOT NULL
);

-- An event's place in delivery order. `sequence` leads to the event (events_sequence_key);
-- `event_type` lets a callback's read walk its own type in position order without the event.
CREATE TABLE delivery_positions (
  position   bigint PRIMARY KEY,
  sequence   bigint NOT NULL UNIQUE,
  event_type text NOT NULL
);
CREATE INDEX delivery_positions_by_type ON delivery_positions (event_type, position);

-- Statement-level, as the row counts: one insert per statement, whatever number of events.
CREATE FUNCTION queue_for_position() RETURNS trigger AS $$
BEGIN
  INSERT INTO delivery_pending (sequence, event_type) SELECT sequence, event_type FROM added;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

-- The trigger comes before the copies below: from here on a writer waits for this migration to
-- commit, and every event committed before is either positioned or queued.
CREATE TRIGGER events_queued_for_position AFTER INSERT ON events
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION queue_for_position();

-- Existing positions carry over; events without one are queued. Events dispatched by a release
-- before positions existed have neither, as before: their notifications are rows already.
INSERT INTO delivery_positions (position, sequence, event_type)
SELECT delivery_position, sequence, event_type FROM events WHERE delivery_position IS NOT NULL;
INSERT INTO delivery_pending (sequence, event_type)
SELECT sequence, event_type FROM events WHERE dispatched_at IS NULL;

DROP INDEX events_by_delivery_position;
DROP INDEX events_by_type_and_position;
DROP INDEX events_undispatched;
ALTER TABLE events DROP COLUMN delivery_position, DROP COLUMN dispatched_at;

-- As before (021), with the queue: the oldest queued events, numbered in sequence order after the
-- highest position, under the sequencer's lock held to the commit, so positions become visible
-- in the order given. `min(sequence)` is an index lookup whatever the table's statistics say.
CREATE OR REPLACE FUNCTION delivery_poll(me uuid, batch_size integer, at timestamptz,
  OUT sequenced integer, OUT head bigint, OUT unleased boolean, OUT next_retry_at timestamptz) AS $$
BEGIN
  sequenced := 0;
  IF (SELECT min(q.sequence) FROM delivery_pending q) IS NOT NULL THEN
    PERFORM pg_advisory_xact_lock(hashtext('bridge-delivery-sequencer'));
    -- A new snapshot per statement (a volatile function): it sees what the last holder committed.
    WITH top AS (SELECT coalesce(max(p.position), 0) AS position FROM delivery_positions p),
    taken AS (
      DELETE FROM delivery_pending q WHERE q.sequence IN (
        SELECT w.sequence FROM delivery_pending w ORDER BY w.sequence LIMIT batch_size)
      RETURNING q.sequence, q.event_type
    )
    INSERT INTO delivery_positions (position, sequence, event_type)
    SELECT top.position + row_number() OVER (ORDER BY t.sequence), t.sequence, t.event_type
    FROM taken t, top;
    GET DIAGNOSTICS sequenced = ROW_COUNT;
  END IF;
  SELECT coalesce(max(p.position), 0) INTO head FROM delivery_positions p;
  -- The counts only when a callback is free: the usual cycle finds none and stops there.
  unleased := EXISTS (SELECT 1 FROM callbacks WHERE lease_until IS NULL OR lease_until < at);
  IF unleased THEN
    unleased := (SELECT count(*) FROM callbacks WHERE lease_owner = me AND lease_until >= at)
      < ceil((SELECT count(*) FROM callbacks)::numeric
             / greatest(1, (SELECT count(*) FROM delivery_instances WHERE alive_until >= at AND id <> me) + 1));
  END IF;
  SELECT min(next_attempt_at) INTO next_retry_at FROM notifications
  WHERE locked_until IS NULL OR locked_until <= at;
END;
$$ LANGUAGE plpgsql;

-- As 022: each callback's range of delivery_positions_by_type in position order, `take` rows at
-- most, each joined to its event by sequence.
CREATE OR REPLACE FUNCTION delivery_read(callback_ids uuid[], afters bigint[], takes integer[])
  RETURNS TABLE (head bigint, callback_id uuid, sequence integer, url text, event_name text,
    signing_secret text, max_redeliver_attempts integer, discarded_since_success integer,
    "position" bigint, event_id uuid, event_type text, event_event_name text, object_type text,
    object_id text, data jsonb, "timestamp" timestamptz)
  SET enable_bitmapscan = off AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  WITH top AS (SELECT coalesce(max(p.position), 0) AS position FROM delivery_positions p)
  SELECT top.position, s.* FROM top LEFT JOIN LATERAL (
    SELECT c.id, 0, c.url, c.event_name, c.signing_secret, c.max_redeliver_attempts,
      c.discarded_since_success, e.position, e.id, e.event_type, e.event_name,
      e.object_type, e.object_id, e.data, e."timestamp"
    FROM unnest(callback_ids, afters, takes) WITH ORDINALITY AS r (callback_id, after, take, n)
    JOIN callbacks c ON c.id = r.callback_id
    CROSS JOIN LATERAL (
      SELECT p.position, v.id, v.event_type, v.event_name, v.object_type, v.object_id, v.data, v."timestamp"
      FROM delivery_positions p JOIN events v ON v.sequence = p.sequence
      WHERE p.event_type = c.event_type AND p.position > r.after
        AND p.position <= top.position AND p.sequence > c.after_event_sequence
        AND (c.object_ids IS NULL OR v.object_id = ANY (c.object_ids))
      ORDER BY p.position LIMIT r.take
    ) e
    ORDER BY r.n, e.position
  ) s ON true;
END;
$$ LANGUAGE plpgsql STABLE;

-- As 021, over delivery_positions.
CREATE OR REPLACE FUNCTION delivery_skip(me uuid, id_of uuid, after_position bigint,
  after_sequence bigint, at timestamptz, OUT skipped_to bigint, OUT skipped_sequence bigint) AS $$
DECLARE
  c callbacks%ROWTYPE;
  skipped uuid[];
BEGIN
  SELECT * INTO c FROM callbacks WHERE id = id_of AND lease_owner = me FOR UPDATE;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  WITH matching AS (
    SELECT e.id, p.position FROM delivery_positions p JOIN events e ON e.sequence = p.sequence
    WHERE p.event_type = c.event_type AND p.position > after_position
      AND p.sequence > c.after_event_sequence
      AND (c.object_ids IS NULL OR e.object_id = ANY (c.object_ids))
  ), boundary AS (
    SELECT m.position FROM matching m ORDER BY m.position DESC
    OFFSET c.max_unconfirmed_messages LIMIT 1
  )
  SELECT array_agg(m.id ORDER BY m.position), max(m.position) INTO skipped, skipped_to
  FROM matching m, boundary b WHERE m.position <= b.position;
  IF skipped IS NULL THEN
    RETURN;
  END IF;
  skipped_sequence := after_sequence + cardinality(skipped);
  INSERT INTO delivery_attempts (callback_id, event_id, sequence, attempt, attempted_at, outcome, error, duration_ms)
  SELECT c.id, s.event_id, after_sequence + s.n, 1, at, 'DISCARDED', 'more than maxUnconfirmedMessages pending', 0
  FROM unnest(skipped) WITH ORDINALITY AS s (event_id, n) ORDER BY s.n;
  UPDATE callbacks SET discarded_notifications = discarded_notifications + cardinality(skipped),
    discarded_since_success = discarded_since_success + cardinality(skipped)
  WHERE id = c.id;
END;
$$ LANGUAGE plpgsql;
