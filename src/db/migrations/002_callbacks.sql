-- Callback registrations (spec 6.1, contract 7). A callback belongs to the client that made it.
CREATE TABLE callbacks (
  id                       uuid PRIMARY KEY,
  client_id                text NOT NULL REFERENCES oauth_clients (client_id) ON DELETE CASCADE,
  event_type               text NOT NULL,
  -- Kept with its userinfo: deliveries need the Basic Auth credentials. Masked when shown.
  url                      text NOT NULL,
  event_name               text,
  object_ids               text[],
  max_redeliver_attempts   integer NOT NULL,
  max_unconfirmed_messages integer NOT NULL,
  signing_secret           text,
  creation_date            timestamptz NOT NULL,
  last_triggered_date      timestamptz,
  last_successful_date     timestamptz,
  failed_attempts          bigint NOT NULL DEFAULT 0,
  discarded_notifications  bigint NOT NULL DEFAULT 0,
  discarded_since_success  integer NOT NULL DEFAULT 0,
  last_sequence            bigint NOT NULL DEFAULT 0,
  -- The event log's position at registration: only later events are delivered to the callback.
  after_event_sequence     bigint NOT NULL
);
CREATE INDEX callbacks_by_event_type ON callbacks (event_type);
CREATE INDEX callbacks_by_client ON callbacks (client_id, creation_date, id);

-- One row per (callback, event) still to be delivered: pending or waiting for its next retry.
-- Rows are claimed in short transactions (locked_until), sent outside any transaction, then
-- deleted on success or discard, or rescheduled on failure.
CREATE TABLE notifications (
  id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  callback_id     uuid NOT NULL REFERENCES callbacks (id) ON DELETE CASCADE,
  event_id        uuid NOT NULL REFERENCES events (id),
  sequence        bigint NOT NULL,
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  locked_until    timestamptz
);
CREATE INDEX notifications_due ON notifications (next_attempt_at, id);
CREATE INDEX notifications_by_callback ON notifications (callback_id, id);
-- Claimed rows (in flight, or left by a crashed sender until the lock expires).
CREATE INDEX notifications_claimed ON notifications (callback_id, locked_until) WHERE locked_until IS NOT NULL;

-- Recent delivery attempts per callback, so a user can see why a callback does not fire.
CREATE TABLE delivery_attempts (
  id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  callback_id  uuid NOT NULL REFERENCES callbacks (id) ON DELETE CASCADE,
  event_id     uuid NOT NULL,
  sequence     bigint NOT NULL,
  attempt      integer NOT NULL,
  attempted_at timestamptz NOT NULL,
  outcome      text NOT NULL CHECK (outcome IN ('DELIVERED', 'FAILED', 'DISCARDED')),
  status_code  integer,
  error        text,
  duration_ms  integer NOT NULL
);
CREATE INDEX delivery_attempts_by_callback ON delivery_attempts (callback_id, id DESC);
