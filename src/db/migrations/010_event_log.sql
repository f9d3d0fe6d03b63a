-- The event log is read in timestamp mode by the time the service recorded each event
-- (recorded_at): a client catching up from a kept position also gets back-dated EXTERNAL events.
DROP INDEX events_timeline;
DROP INDEX events_by_object;
CREATE INDEX events_log ON events (recorded_at DESC, id DESC);
CREATE INDEX events_log_by_type ON events (event_type, recorded_at DESC, id DESC);
CREATE INDEX events_log_by_object ON events (object_id, recorded_at DESC, id DESC);
