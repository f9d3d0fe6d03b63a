-- Manufacturing variant rules of a workplace group (docs/resources/manufacturing-variants.md):
-- for the materials that meet the conditions, the workplaces and tools a variant makes them with
-- and the delays forecast for it. Tools are kept as the client names them; workplaces are rows.
CREATE TABLE manufacturing_variant_rules (
  id uuid PRIMARY KEY,
  workplace_group_id uuid NOT NULL REFERENCES workplace_groups (id) ON DELETE CASCADE,
  origin text NOT NULL CHECK (origin IN ('MANUAL_DATA_MAINTENANCE', 'AUTOMATIC_EVALUATION_SYSTEM')),
  criterion text NOT NULL CHECK (criterion IN ('MATERIAL_NUMBER', 'MATERIAL_CHARACTERISTICS')),
  conditions text NOT NULL,
  tools jsonb NOT NULL DEFAULT '[]',
  additional_conditions text,
  forecasted_delays jsonb,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX manufacturing_variant_rules_by_group
  ON manufacturing_variant_rules (workplace_group_id, created_at, id);

-- The workplaces of a rule, in the order given; a deleted workplace leaves its rules.
CREATE TABLE manufacturing_variant_rule_workplaces (
  rule_id uuid NOT NULL REFERENCES manufacturing_variant_rules (id) ON DELETE CASCADE,
  workplace_id uuid NOT NULL REFERENCES workplaces (id) ON DELETE CASCADE,
  position integer NOT NULL,
  PRIMARY KEY (rule_id, workplace_id)
);
CREATE INDEX manufacturing_variant_rule_workplaces_by_workplace
  ON manufacturing_variant_rule_workplaces (workplace_id);
