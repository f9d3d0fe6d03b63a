-- Commands (docs/resources/commands.md): every command a client sent to POST /commands,
-- /commands/bulk or /activities, with its result. A synchronous command is stored and executed in
-- one transaction with its effects and events; an asynchronous one is stored pending
-- (result_code NULL) and executed later by the command runner, in `sequence` order.
CREATE TABLE commands (
  id                uuid PRIMARY KEY,
  -- Execution order of the pending commands (the order they were received).
  sequence          bigint GENERATED ALWAYS AS IDENTITY,
  client_id         text NOT NULL REFERENCES oauth_clients (client_id) ON DELETE CASCADE,
  type              text NOT NULL,
  data              jsonb NOT NULL,
  result_code       text,
  -- Why a command failed: the error code and its parameters; NULL on success and while pending.
  result_detail     jsonb,
  created_at        timestamptz NOT NULL,
  -- When it was executed (the SDK's `timestamp`); NULL while pending.
  executed_at       timestamptz,
  -- The time its effect was booked at (a revision insert's insertionTimestamp); NULL unless it succeeded.
  booking_timestamp timestamptz
);

CREATE INDEX commands_pending ON commands (sequence) WHERE result_code IS NULL;
