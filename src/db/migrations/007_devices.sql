-- Devices (machine controllers, sensors), each permanently assigned to one workplace; the
-- restricting foreign key makes deleting a workplace with devices a 400 RESOURCE_IN_USE.
CREATE TABLE devices (
  id                           uuid PRIMARY KEY,
  name                         text NOT NULL,
  description                  text,
  type                         text NOT NULL,
  workplace_id                 uuid NOT NULL REFERENCES workplaces (id),
  -- [{tag, name, physicalQuantity, unit}], tags unique per device (checked by the service).
  recorded_physical_quantities jsonb NOT NULL,
  created_at                   timestamptz NOT NULL,
  updated_at                   timestamptz NOT NULL
);
-- Offset pages are ordered by (name, id); one index per filter serves filter and order.
CREATE INDEX devices_by_name ON devices (name, id);
CREATE INDEX devices_by_workplace ON devices (workplace_id, name, id);
CREATE INDEX devices_by_type ON devices (type, name, id);

-- Process and sensor data: millions of rows, so narrow rows and exactly the indexes the
-- timestamp-mode pages need. Each filter combination (device; device + tag; either with a
-- startDate/endDate range) is one index range scan in keyset order (timestamp DESC, id DESC).
CREATE TABLE recorded_time_series (
  id          uuid PRIMARY KEY,
  device_id   uuid NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
  tag         text NOT NULL,
  "timestamp" timestamptz NOT NULL,
  value       double precision NOT NULL
);
CREATE INDEX recorded_time_series_timeline
  ON recorded_time_series (device_id, "timestamp" DESC, id DESC);
CREATE INDEX recorded_time_series_by_tag
  ON recorded_time_series (device_id, tag, "timestamp" DESC, id DESC);
