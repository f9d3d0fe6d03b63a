-- The OAuth client that created a scenario (the real API's `creator`); unknown for older ones.
ALTER TABLE planning_scenarios ADD COLUMN IF NOT EXISTS creator text;
ALTER TABLE predicted_malfunction_scenarios ADD COLUMN IF NOT EXISTS creator text;
