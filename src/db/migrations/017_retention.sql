-- Retention (docs/settings.md, BRIDGE_RETENTION_*): a background loop deletes old rows in batches.
-- Samples go by their own time over all devices at once; the existing indexes are led by
-- device_id, so the oldest samples need an index of their own. IF NOT EXISTS: on a large table
-- an operator may build it beforehand with CREATE INDEX CONCURRENTLY (docs/operations.md).
CREATE INDEX IF NOT EXISTS recorded_time_series_by_time ON recorded_time_series ("timestamp");

-- An event is deleted only when no notification refers to it. The foreign key makes PostgreSQL
-- look up notifications.event_id for every deleted event: without this index, one scan of the
-- whole queue per event.
CREATE INDEX IF NOT EXISTS notifications_by_event ON notifications (event_id);
