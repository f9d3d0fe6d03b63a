-- Delivery by cursor (docs/architecture.md, "Delivery by cursor"). A first attempt no longer
-- needs a row: every event gets a delivery position in commit order, each callback keeps the
-- position up to which every matching event has had its first attempt, and the instance that
-- holds the callback's lease streams the events after it. Only failed deliveries become rows in
-- `notifications` (the retry set), claimed and recorded as before.

-- Positions are given by one sequencer at a time (delivery_poll), in the order the events
-- were numbered, after they committed: a reader that has seen position p never later finds a
-- new event below p, however late the writing transaction committed. Events dispatched by an
-- earlier release keep no position: their notifications are rows already.
ALTER TABLE events ADD COLUMN delivery_position bigint;
CREATE UNIQUE INDEX events_by_delivery_position ON events (delivery_position);
CREATE INDEX events_by_type_and_position ON events (event_type, delivery_position)
  WHERE delivery_position IS NOT NULL;

-- delivered_position and last_sequence move together: every matching event up to the position
-- has had its first attempt, and last_sequence is the bridge-sequence number of the last of them.
-- The lease says which instance streams the callback; it is renewed while that instance lives.
ALTER TABLE callbacks
  ADD COLUMN delivered_position bigint NOT NULL DEFAULT 0,
  ADD COLUMN lease_owner uuid,
  ADD COLUMN lease_until timestamptz;

-- Replaced by the cursor: no notification row is made before a first attempt.
DROP FUNCTION delivery_fan_out(integer, timestamptz);

-- The instances that deliver, so each can take its share of the callbacks.
CREATE TABLE delivery_instances (
  id          uuid PRIMARY KEY,
  alive_until timestamptz NOT NULL
);

-- One cycle's start, in one round trip: positions for up to batch_size new events, then what the
-- worker needs to decide the rest: the log's head position, whether a callback without a live
-- lease is waiting while this instance holds less than its share, and when the next retry is due.
CREATE FUNCTION delivery_poll(me uuid, batch_size integer, at timestamptz,
  OUT sequenced integer, OUT head bigint, OUT unleased boolean, OUT next_retry_at timestamptz) AS $$
BEGIN
  sequenced := 0;
  IF EXISTS (SELECT 1 FROM events WHERE dispatched_at IS NULL) THEN
    -- The sequencer's lock: held to the commit, so positions become visible in the order given.
    PERFORM pg_advisory_xact_lock(hashtext('bridge-delivery-sequencer'));
    -- A new snapshot per statement (a volatile function): it sees what the last holder committed.
    WITH top AS (SELECT coalesce(max(delivery_position), 0) AS position FROM events),
    batch AS (
      SELECT id, row_number() OVER (ORDER BY sequence) AS n
      FROM (SELECT id, sequence FROM events WHERE dispatched_at IS NULL ORDER BY sequence LIMIT batch_size) waiting
    )
    UPDATE events e SET delivery_position = top.position + batch.n, dispatched_at = at
    FROM batch, top WHERE e.id = batch.id;
    GET DIAGNOSTICS sequenced = ROW_COUNT;
  END IF;
  SELECT coalesce(max(delivery_position), 0) INTO head FROM events;
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

-- Leases: renews this instance's, keeps its idle callbacks' positions, and takes or gives back
-- callbacks so that each live instance holds about its share. Callbacks with sends in flight
-- (`busy`) are never given back. Returns every callback this instance holds after the call.
CREATE FUNCTION delivery_lease(me uuid, at timestamptz, until timestamptz, busy uuid[],
  idle_ids uuid[], idle_positions bigint[])
RETURNS TABLE (callback_id uuid, delivered_position bigint, last_sequence bigint,
  max_unconfirmed_messages integer, untried boolean) AS $$
DECLARE
  instances integer;
  share integer;
  held integer;
BEGIN
  INSERT INTO delivery_instances AS i (id, alive_until) VALUES (me, until)
  ON CONFLICT (id) DO UPDATE SET alive_until = excluded.alive_until;
  DELETE FROM delivery_instances i WHERE i.alive_until < at;
  SELECT count(*) INTO instances FROM delivery_instances i;
  SELECT ceil(count(*)::numeric / instances) INTO share FROM callbacks;

  -- In id order, as every other writer of callback rows locks them.
  PERFORM 1 FROM callbacks c WHERE c.lease_owner = me ORDER BY c.id FOR UPDATE;
  UPDATE callbacks c SET lease_until = until,
    delivered_position = greatest(c.delivered_position, coalesce(idle.position, 0))
  FROM callbacks mine
  LEFT JOIN unnest(idle_ids, idle_positions) AS idle (id, position) ON idle.id = mine.id
  WHERE c.id = mine.id AND mine.lease_owner = me;
  SELECT count(*) INTO held FROM callbacks c WHERE c.lease_owner = me;

  IF held > share THEN
    UPDATE callbacks c SET lease_owner = NULL, lease_until = NULL WHERE c.id IN (
      SELECT g.id FROM callbacks g WHERE g.lease_owner = me AND NOT (g.id = ANY (busy))
      ORDER BY g.id DESC LIMIT held - share);
  ELSIF held < share THEN
    UPDATE callbacks c SET lease_owner = me, lease_until = until WHERE c.id IN (
      SELECT t.id FROM callbacks t WHERE t.lease_until IS NULL OR t.lease_until < at
      ORDER BY t.id LIMIT share - held FOR UPDATE SKIP LOCKED);
  END IF;

  RETURN QUERY SELECT c.id, c.delivered_position, c.last_sequence, c.max_unconfirmed_messages,
    c.last_triggered_date IS NULL
  FROM callbacks c WHERE c.lease_owner = me ORDER BY c.id;
END;
$$ LANGUAGE plpgsql;

-- A callback's retry set holds at most maxUnconfirmedMessages rows: the oldest beyond are
-- dropped, counted and recorded as DISCARDED attempts.
CREATE FUNCTION delivery_trim(callback_ids uuid[], at timestamptz) RETURNS void AS $$
BEGIN
  WITH dropped AS (
    DELETE FROM notifications WHERE id IN (
      SELECT beyond.id FROM callbacks c CROSS JOIN LATERAL (
        SELECT n.id FROM notifications n WHERE n.callback_id = c.id
        ORDER BY n.id DESC OFFSET c.max_unconfirmed_messages) beyond
      WHERE c.id = ANY (callback_ids))
    RETURNING callback_id, event_id, sequence, attempts
  ), counted AS (
    UPDATE callbacks c SET discarded_notifications = c.discarded_notifications + d.n,
      discarded_since_success = c.discarded_since_success + d.n
    FROM (SELECT callback_id, count(*) AS n FROM dropped GROUP BY callback_id) d
    WHERE c.id = d.callback_id
  )
  INSERT INTO delivery_attempts (callback_id, event_id, sequence, attempt, attempted_at, outcome, error, duration_ms)
  SELECT callback_id, event_id, sequence, attempts, at, 'DISCARDED', 'more than maxUnconfirmedMessages pending', 0
  FROM dropped ORDER BY callback_id, sequence;
END;
$$ LANGUAGE plpgsql;

-- The outcome of first attempts sent from the cursor, in one round trip: each callback's cursor
-- moves to the given position and sequence, if this instance still holds its lease (else the
-- new holder sends them again from the old cursor, and nothing here is kept). Failures become
-- rows of the retry set; health counters and the attempt history as delivery_record_attempts
-- keeps them. Returns the callbacks whose cursor moved.
CREATE FUNCTION delivery_advance(me uuid, cursor_ids uuid[], cursor_positions bigint[],
  cursor_sequences bigint[], callback_ids uuid[], event_ids uuid[], sequences bigint[],
  outcomes text[], status_codes integer[], errors text[], durations integer[],
  at timestamptz, retry_at timestamptz)
RETURNS SETOF uuid AS $$
DECLARE
  moved uuid[];
  kept integer[];
BEGIN
  PERFORM 1 FROM callbacks WHERE id = ANY (cursor_ids) ORDER BY id FOR UPDATE;
  WITH advanced AS (
    UPDATE callbacks c SET delivered_position = greatest(c.delivered_position, m.position),
      last_sequence = greatest(c.last_sequence, m.sequence)
    FROM unnest(cursor_ids, cursor_positions, cursor_sequences) AS m (id, position, sequence)
    WHERE c.id = m.id AND c.lease_owner = me
    RETURNING c.id
  )
  SELECT array_agg(id) INTO moved FROM advanced;
  IF moved IS NULL THEN
    RETURN;
  END IF;

  SELECT array_agg(u.position ORDER BY u.position) INTO kept
  FROM unnest(callback_ids) WITH ORDINALITY AS u (id, position) WHERE u.id = ANY (moved);
  IF kept IS NOT NULL THEN
    INSERT INTO notifications (callback_id, event_id, sequence, attempts, next_attempt_at)
    SELECT callback_ids[k], event_ids[k], sequences[k], 1, retry_at
    FROM unnest(kept) AS k WHERE outcomes[k] = 'FAILED'
    ORDER BY callback_ids[k], sequences[k];
    PERFORM delivery_record_attempts(
      array_fill(NULL::bigint, ARRAY[cardinality(kept)]),
      ARRAY(SELECT callback_ids[k] FROM unnest(kept) AS k),
      ARRAY(SELECT event_ids[k] FROM unnest(kept) AS k),
      ARRAY(SELECT sequences[k] FROM unnest(kept) AS k),
      array_fill(1, ARRAY[cardinality(kept)]),
      ARRAY(SELECT outcomes[k] FROM unnest(kept) AS k),
      ARRAY(SELECT status_codes[k] FROM unnest(kept) AS k),
      ARRAY(SELECT errors[k] FROM unnest(kept) AS k),
      ARRAY(SELECT durations[k] FROM unnest(kept) AS k),
      at, at);
    -- Only a failure adds to a retry set.
    IF EXISTS (SELECT 1 FROM unnest(kept) AS k WHERE outcomes[k] = 'FAILED') THEN
      PERFORM delivery_trim(moved, at);
    END IF;
  END IF;
  RETURN QUERY SELECT unnest(moved);
END;
$$ LANGUAGE plpgsql;

-- As in migration 018, and an attempt without a notification row (a first attempt from the
-- cursor) counts as discarded when its outcome is DISCARDED (no retries allowed).
CREATE OR REPLACE FUNCTION delivery_record_attempts(
  notification_ids bigint[], callback_ids uuid[], event_ids uuid[], sequences bigint[],
  attempt_numbers integer[], outcomes text[], status_codes integer[], errors text[],
  durations integer[], at timestamptz, retry_at timestamptz
) RETURNS void AS $$
BEGIN
  PERFORM 1 FROM callbacks WHERE id = ANY (callback_ids) ORDER BY id FOR UPDATE;
  WITH input AS (
    SELECT * FROM unnest(notification_ids, callback_ids, event_ids, sequences, attempt_numbers, outcomes,
                         status_codes, errors, durations) WITH ORDINALITY
      AS u (notification_id, callback_id, event_id, sequence, attempt, outcome, status_code, error, duration_ms, position)
  ), removed AS (
    DELETE FROM notifications
    WHERE id IN (SELECT notification_id FROM input WHERE outcome IN ('DELIVERED', 'DISCARDED'))
    RETURNING id
  ), rescheduled AS (
    UPDATE notifications SET next_attempt_at = retry_at, locked_until = NULL
    WHERE id IN (SELECT notification_id FROM input WHERE outcome = 'FAILED')
  ), last_success AS (
    SELECT callback_id, max(position) AS position FROM input WHERE outcome = 'DELIVERED' GROUP BY callback_id
  ), health AS (
    SELECT i.callback_id,
      bool_or(i.outcome = 'DELIVERED') AS succeeded,
      count(*) FILTER (WHERE i.outcome <> 'DELIVERED') AS failed,
      count(*) FILTER (WHERE i.outcome = 'DISCARDED' AND (i.notification_id IS NULL OR r.id IS NOT NULL)) AS discarded,
      count(*) FILTER (WHERE i.outcome = 'DISCARDED' AND (i.notification_id IS NULL OR r.id IS NOT NULL)
                         AND i.position > coalesce(s.position, 0)) AS since
    FROM input i
    LEFT JOIN removed r ON r.id = i.notification_id
    LEFT JOIN last_success s ON s.callback_id = i.callback_id
    GROUP BY i.callback_id
  ), counted AS (
    UPDATE callbacks c SET last_triggered_date = at,
      last_successful_date = CASE WHEN h.succeeded THEN at ELSE c.last_successful_date END,
      failed_attempts = c.failed_attempts + h.failed,
      discarded_notifications = c.discarded_notifications + h.discarded,
      discarded_since_success = CASE WHEN h.succeeded THEN h.since ELSE c.discarded_since_success + h.since END
    FROM health h WHERE c.id = h.callback_id
  )
  INSERT INTO delivery_attempts (callback_id, event_id, sequence, attempt, attempted_at, outcome, status_code, error, duration_ms)
  SELECT u.callback_id, u.event_id, u.sequence, u.attempt, at, u.outcome, u.status_code, u.error, u.duration_ms
  FROM input u
  WHERE EXISTS (SELECT 1 FROM callbacks WHERE id = u.callback_id)
  ORDER BY u.position;
END;
$$ LANGUAGE plpgsql;

-- More than maxUnconfirmedMessages matching events waiting for their first attempt after
-- `after_position` (a receiver that cannot keep up): all but the newest maxUnconfirmedMessages are
-- skipped, counted and recorded as DISCARDED, numbered on from `after_sequence`. Returns the
-- position and sequence skipped to (none when nothing was skipped or the lease is gone).
CREATE FUNCTION delivery_skip(me uuid, id_of uuid, after_position bigint, after_sequence bigint, at timestamptz,
  OUT skipped_to bigint, OUT skipped_sequence bigint) AS $$
DECLARE
  c callbacks%ROWTYPE;
  skipped uuid[];
BEGIN
  SELECT * INTO c FROM callbacks WHERE id = id_of AND lease_owner = me FOR UPDATE;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  WITH matching AS (
    SELECT e.id, e.delivery_position FROM events e
    WHERE e.event_type = c.event_type AND e.delivery_position > after_position
      AND e.sequence > c.after_event_sequence
      AND (c.object_ids IS NULL OR e.object_id = ANY (c.object_ids))
  ), boundary AS (
    -- The newest matching event past the ones kept: everything up to it is skipped.
    SELECT delivery_position FROM matching ORDER BY delivery_position DESC
    OFFSET c.max_unconfirmed_messages LIMIT 1
  )
  SELECT array_agg(m.id ORDER BY m.delivery_position), max(m.delivery_position) INTO skipped, skipped_to
  FROM matching m, boundary b WHERE m.delivery_position <= b.delivery_position;
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
