-- OAuth clients: secrets only as scrypt hashes.
CREATE TABLE oauth_clients (
  client_id   text PRIMARY KEY,
  name        text NOT NULL DEFAULT '',
  secret_hash text NOT NULL,
  scopes      text[] NOT NULL,
  created_at  timestamptz NOT NULL
);

-- Token signing key shared by every instance on one database (a token from one works on all).
CREATE TABLE signing_keys (
  name       text PRIMARY KEY,
  secret     text NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE TABLE workplace_groups (
  id          uuid PRIMARY KEY,
  number      text NOT NULL UNIQUE,
  description text,
  type        text NOT NULL CHECK (type IN ('CAPACITY_GROUP', 'PRODUCTION_LINE')),
  created_at  timestamptz NOT NULL,
  updated_at  timestamptz NOT NULL
);

CREATE TABLE workplaces (
  id                  uuid PRIMARY KEY,
  number              text NOT NULL UNIQUE,
  description         text,
  is_manual_workplace boolean NOT NULL,
  -- Operating states are master data defined in code (src/domain/masterData.ts).
  operating_state_id  uuid NOT NULL,
  capacity_group_id   uuid NOT NULL REFERENCES workplace_groups (id),
  production_line_id  uuid REFERENCES workplace_groups (id),
  created_at          timestamptz NOT NULL,
  updated_at          timestamptz NOT NULL
);
CREATE INDEX workplaces_capacity_group ON workplaces (capacity_group_id);
CREATE INDEX workplaces_production_line ON workplaces (production_line_id);

-- History of operating states; the open record (end_date NULL) is the current one.
CREATE TABLE recorded_operating_states (
  id                 uuid PRIMARY KEY,
  workplace_id       uuid NOT NULL REFERENCES workplaces (id) ON DELETE CASCADE,
  operating_state_id uuid NOT NULL,
  start_date         timestamptz NOT NULL,
  end_date           timestamptz
);
CREATE INDEX recorded_operating_states_timeline
  ON recorded_operating_states (workplace_id, start_date DESC, id DESC);

-- The event log and outbox: every change writes its events in the same transaction.
-- `sequence` gives delivery a total order to claim by; `dispatched_at` marks events already
-- fanned out to callbacks, so the delivery worker only scans the partial index of open ones.
CREATE TABLE events (
  id           uuid PRIMARY KEY,
  sequence     bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
  event_type   text NOT NULL,
  event_name   text,
  object_type  text NOT NULL,
  object_id    text,
  data         jsonb NOT NULL,
  "timestamp"  timestamptz NOT NULL,
  recorded_at  timestamptz NOT NULL,
  published_by text,
  dispatched_at timestamptz
);
CREATE INDEX events_timeline ON events ("timestamp" DESC, id DESC);
CREATE INDEX events_undispatched ON events (sequence) WHERE dispatched_at IS NULL;
CREATE INDEX events_by_object ON events (object_id, "timestamp" DESC);
