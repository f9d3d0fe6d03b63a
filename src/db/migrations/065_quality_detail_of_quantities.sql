-- The quality detail a quantity was booked with (master data qualityDetails, e.g. a scrap reason),
-- which the quality details reports group by (docs/resources/reports.md). Null: booked without one.
-- IF NOT EXISTS: quality-detail bookings may add the same column in their own migration.
ALTER TABLE recorded_output_quantities ADD COLUMN IF NOT EXISTS quality_detail_id text;
ALTER TABLE recorded_workplace_output_quantities ADD COLUMN IF NOT EXISTS quality_detail_id text;
