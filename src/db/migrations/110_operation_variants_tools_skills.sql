-- What a plant's ERP or planning system sends about how an operation can be made, kept as given
-- (docs/resources/production-orders.md, "Operation"): its machine cycle, its manufacturing
-- variants, the tools it requires and the skills its setup and processing require. Older rows get
-- null or empty lists.
-- Milliseconds per machine cycle, and how many units one cycle makes.
ALTER TABLE operations ADD COLUMN IF NOT EXISTS target_machine_cycle_time bigint;
ALTER TABLE operations ADD COLUMN IF NOT EXISTS units_per_machine_cycle double precision;
-- [{"workplaceIds": [uuid], "tools": [{"id", "name", "description"}], "additionalConditions",
--   "forecast": {"delayFactor", ..., "skillFactor"} | null}]; a deleted workplace drops out when read.
ALTER TABLE operations ADD COLUMN IF NOT EXISTS manufacturing_variants jsonb NOT NULL DEFAULT '[]';
-- [{"id", "name", "description"}]: tool definitions as the ERP names them.
ALTER TABLE operations ADD COLUMN IF NOT EXISTS required_tools jsonb NOT NULL DEFAULT '[]';
-- {"setup": [{"skillId", "minimumSkill", "capacity"}], "processing": [...]}
ALTER TABLE operations ADD COLUMN IF NOT EXISTS required_skills jsonb NOT NULL DEFAULT '{"setup": [], "processing": []}';
