-- Recording first attempts touches each callback row once (docs/decisions/0003-delivery-from-the-event-log.md,
-- "One statement per step"): the cursor and the health counters move in the same UPDATE, under the
-- one row lock taken first. Before, the cursor moved, then delivery_record_attempts locked and
-- updated the same rows again and checked each attempt's callback once more: two row versions and
-- three row locks per callback and batch, which made recording the largest part of the database's
-- work when one event fans out to many callbacks. Same arguments, same result, same rows written.
CREATE OR REPLACE FUNCTION delivery_advance(me uuid, cursor_ids uuid[], cursor_positions bigint[],
  cursor_sequences bigint[], callback_ids uuid[], event_ids uuid[], sequences bigint[], outcomes text[],
  status_codes integer[], errors text[], durations integer[], at timestamp with time zone,
  retry_at timestamp with time zone)
RETURNS SETOF uuid
LANGUAGE plpgsql
AS $$
DECLARE
  moved uuid[];
BEGIN
  PERFORM 1 FROM callbacks WHERE id = ANY (cursor_ids) ORDER BY id FOR UPDATE;
  WITH attempts AS (
    SELECT * FROM unnest(callback_ids, outcomes) WITH ORDINALITY AS u (callback_id, outcome, position)
  ), last_success AS (
    SELECT callback_id, max(position) AS position FROM attempts WHERE outcome = 'DELIVERED' GROUP BY callback_id
  ), health AS (
    -- A first attempt has no notification yet: each DISCARDED one counts.
    SELECT a.callback_id,
      bool_or(a.outcome = 'DELIVERED') AS succeeded,
      count(*) FILTER (WHERE a.outcome <> 'DELIVERED') AS failed,
      count(*) FILTER (WHERE a.outcome = 'DISCARDED') AS discarded,
      count(*) FILTER (WHERE a.outcome = 'DISCARDED' AND a.position > coalesce(s.position, 0)) AS since
    FROM attempts a LEFT JOIN last_success s ON s.callback_id = a.callback_id
    GROUP BY a.callback_id
  ), advanced AS (
    UPDATE callbacks c SET delivered_position = greatest(c.delivered_position, m.position),
      last_sequence = greatest(c.last_sequence, m.sequence),
      last_triggered_date = CASE WHEN h.callback_id IS NULL THEN c.last_triggered_date ELSE at END,
      last_successful_date = CASE WHEN h.succeeded THEN at ELSE c.last_successful_date END,
      failed_attempts = c.failed_attempts + coalesce(h.failed, 0),
      discarded_notifications = c.discarded_notifications + coalesce(h.discarded, 0),
      discarded_since_success = CASE WHEN h.succeeded THEN h.since
        ELSE c.discarded_since_success + coalesce(h.since, 0) END
    FROM unnest(cursor_ids, cursor_positions, cursor_sequences) AS m (id, position, sequence)
    LEFT JOIN health h ON h.callback_id = m.id
    WHERE c.id = m.id AND c.lease_owner = me
    RETURNING c.id
  )
  SELECT array_agg(id) INTO moved FROM advanced;
  IF moved IS NULL THEN
    RETURN;
  END IF;

  INSERT INTO notifications (callback_id, event_id, sequence, attempts, next_attempt_at)
  SELECT u.callback_id, u.event_id, u.sequence, 1, retry_at
  FROM unnest(callback_ids, event_ids, sequences, outcomes) AS u (callback_id, event_id, sequence, outcome)
  WHERE u.outcome = 'FAILED' AND u.callback_id = ANY (moved)
  ORDER BY u.callback_id, u.sequence;
  INSERT INTO delivery_attempts (callback_id, event_id, sequence, attempt, attempted_at, outcome, status_code,
    error, duration_ms)
  SELECT u.callback_id, u.event_id, u.sequence, 1, at, u.outcome, u.status_code, u.error, u.duration_ms
  FROM unnest(callback_ids, event_ids, sequences, outcomes, status_codes, errors, durations) WITH ORDINALITY
    AS u (callback_id, event_id, sequence, outcome, status_code, error, duration_ms, position)
  WHERE u.callback_id = ANY (moved)
  ORDER BY u.position;
  IF 'FAILED' = ANY (outcomes) THEN
    PERFORM delivery_trim(moved, at);
  END IF;
  RETURN QUERY SELECT unnest(moved);
END;
$$;
