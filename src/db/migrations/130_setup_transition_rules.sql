-- Setup transition rules of a workplace group (docs/resources/setup-transitions.md): how long the
-- setup from one material to the next takes there. A rule either names the two materials by number
-- with an absolute setup time, or states conditions on their characteristics with an increment.
CREATE TABLE setup_transition_rules (
  id uuid PRIMARY KEY,
  workplace_group_id uuid NOT NULL REFERENCES workplace_groups (id) ON DELETE CASCADE,
  origin text NOT NULL CHECK (origin IN ('MANUAL_DATA_MAINTENANCE', 'AUTOMATIC_EVALUATION_SYSTEM')),
  criterion text NOT NULL CHECK (criterion IN ('MATERIAL_NUMBER', 'MATERIAL_CHARACTERISTICS')),
  predecessor_conditions text NOT NULL,
  successor_conditions text NOT NULL,
  setup_time_increment bigint CHECK (setup_time_increment >= 0),
  setup_time bigint CHECK (setup_time >= 0),
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CHECK (
    (criterion = 'MATERIAL_NUMBER' AND setup_time IS NOT NULL AND setup_time_increment IS NULL)
    OR (criterion = 'MATERIAL_CHARACTERISTICS' AND setup_time_increment IS NOT NULL AND setup_time IS NULL)
  )
);
CREATE INDEX setup_transition_rules_by_group ON setup_transition_rules (workplace_group_id, created_at, id);
