-- The delivery worker's two multi-statement steps as functions, so each costs one round trip
-- instead of seven to nine (docs/architecture.md, "Writes in one round trip"). They run the
-- statements src/db/repositories/notifications.ts ran before, in the same order and with the same
-- locks: callback rows in id order before their notifications, as DELETE /callbacks takes them,
-- so the two never deadlock. A call is one statement: all of it commits, or none.

-- Fan-out: up to batch_size undispatched events become notifications of every matching callback,
-- numbered per callback in event order; queues past maxUnconfirmedMessages lose their oldest
-- (counted, and recorded as DISCARDED attempts). Returns how many events were dispatched.
CREATE FUNCTION delivery_fan_out(batch_size integer, at timestamptz) RETURNS integer AS $$
DECLARE
  event_ids uuid[];
  touched uuid[];
BEGIN
  -- Concurrent instances split the events between them.
  SELECT array_agg(id ORDER BY sequence) INTO event_ids FROM (
    SELECT id, sequence FROM events WHERE dispatched_at IS NULL ORDER BY sequence LIMIT batch_size
    FOR UPDATE SKIP LOCKED) batch;
  IF event_ids IS NULL THEN
    RETURN 0;
  END IF;

  SELECT array_agg(DISTINCT c.id) INTO touched
  FROM events e JOIN callbacks c
    ON c.event_type = e.event_type AND (c.object_ids IS NULL OR e.object_id = ANY (c.object_ids))
      AND e.sequence > c.after_event_sequence
  WHERE e.id = ANY (event_ids);

  IF touched IS NOT NULL THEN
    PERFORM 1 FROM callbacks WHERE id = ANY (touched) ORDER BY id FOR UPDATE;
    -- A callback deleted since the match is no longer there to number: nothing to notify.
    WITH matches AS (
      SELECT c.id AS callback_id, e.id AS event_id, e.sequence
      FROM events e JOIN callbacks c
        ON c.event_type = e.event_type AND (c.object_ids IS NULL OR e.object_id = ANY (c.object_ids))
          AND e.sequence > c.after_event_sequence
      WHERE e.id = ANY (event_ids) AND c.id = ANY (touched)
    ), added AS (
      SELECT callback_id, count(*) AS n FROM matches GROUP BY callback_id
    ), numbered AS (
      UPDATE callbacks c SET last_sequence = c.last_sequence + added.n
      FROM added WHERE c.id = added.callback_id
      RETURNING c.id, c.last_sequence - added.n AS before
    )
    -- In callback and event order, as one callback at a time would number them.
    INSERT INTO notifications (callback_id, event_id, sequence, next_attempt_at)
    SELECT m.callback_id, m.event_id,
      numbered.before + row_number() OVER (PARTITION BY m.callback_id ORDER BY m.sequence), at
    FROM matches m JOIN numbered ON numbered.id = m.callback_id
    ORDER BY m.callback_id, m.sequence;

    -- A callback's rows are numbered in id order, so when its oldest row is among the newest
    -- maxUnconfirmedMessages sequence numbers it cannot hold more: one index entry read instead of
    -- walking a long queue (a receiver that is down) on every fan-out.
    WITH dropped AS (
      DELETE FROM notifications WHERE id IN (
        SELECT beyond.id FROM callbacks c CROSS JOIN LATERAL (
          SELECT n.id FROM notifications n WHERE n.callback_id = c.id
          ORDER BY n.id DESC OFFSET c.max_unconfirmed_messages) beyond
        WHERE c.id = ANY (touched)
          AND (SELECT o.sequence FROM notifications o WHERE o.callback_id = c.id ORDER BY o.id LIMIT 1)
              <= c.last_sequence - c.max_unconfirmed_messages)
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
  END IF;

  UPDATE events SET dispatched_at = at WHERE id = ANY (event_ids);
  RETURN cardinality(event_ids);
END;
$$ LANGUAGE plpgsql;

-- Records a batch of attempts, the i-th element of every array being one attempt, in the order
-- they finished: DELIVERED and DISCARDED remove the notification, FAILED schedules it for
-- retry_at. Per callback: did one succeed, how many failed, how many were discarded in all and
-- after the last success (the bridge-discarded-notifications count restarts there). A
-- notification trimmed away meanwhile (queue bound) is no longer there to count as discarded.
CREATE FUNCTION delivery_record_attempts(
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
      count(*) FILTER (WHERE i.outcome = 'DISCARDED' AND r.id IS NOT NULL) AS discarded,
      count(*) FILTER (WHERE i.outcome = 'DISCARDED' AND r.id IS NOT NULL
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
