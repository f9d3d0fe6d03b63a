-- Shifts of a workplace. The shift clock (src/services/shiftClock.ts) claims each start and end
-- once by setting *_announced_at in the transaction that writes WORKPLACE_SHIFT_CHANGED.
CREATE TABLE shifts (
  id                 uuid PRIMARY KEY,
  workplace_id       uuid NOT NULL REFERENCES workplaces (id) ON DELETE CASCADE,
  name               text,
  shift_model_id     text,
  start_date         timestamptz NOT NULL,
  end_date           timestamptz NOT NULL CHECK (end_date > start_date),
  start_announced_at timestamptz,
  end_announced_at   timestamptz,
  created_at         timestamptz NOT NULL,
  updated_at         timestamptz NOT NULL
);
-- Timestamp-mode listing and the overlap check, both per workplace.
CREATE INDEX shifts_timeline ON shifts (workplace_id, start_date DESC, id DESC);
CREATE INDEX shifts_by_end ON shifts (workplace_id, end_date);
-- What the clock still has to announce.
CREATE INDEX shifts_start_due ON shifts (start_date) WHERE start_announced_at IS NULL;
CREATE INDEX shifts_end_due ON shifts (end_date) WHERE end_announced_at IS NULL;

CREATE TABLE scheduled_maintenances (
  id               uuid PRIMARY KEY,
  workplace_id     uuid NOT NULL REFERENCES workplaces (id) ON DELETE CASCADE,
  description      text NOT NULL,
  maintenance_type text,
  start_date       timestamptz NOT NULL,
  end_date         timestamptz NOT NULL CHECK (end_date > start_date),
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL
);
CREATE INDEX scheduled_maintenances_by_start ON scheduled_maintenances (workplace_id, start_date, id);
CREATE INDEX scheduled_maintenances_by_end ON scheduled_maintenances (workplace_id, end_date);
