import type {
  ForecastedDelays,
  ManufacturingVariantRule,
  VariantTool,
} from '../../domain/manufacturingVariants.ts';
import type { Queryable } from '../database.ts';
import {
  asJsonb,
  fromJsonb,
  offsetList,
  ownedBy,
  ownedFind,
  type RowWrites,
  rowWrites,
  type Table,
} from '../table.ts';

interface Row {
  id: string;
  workplace_group_id: string;
  origin: ManufacturingVariantRule['origin'];
  criterion: ManufacturingVariantRule['criterion'];
  conditions: string;
  workplace_ids: string[];
  tools: VariantTool[] | string;
  additional_conditions: string | null;
  forecasted_delays: ForecastedDelays | string | null;
  created_at: Date;
  updated_at: Date;
}

const toRule = (row: Row): ManufacturingVariantRule => ({
  id: row.id,
  workplaceGroupId: row.workplace_group_id,
  origin: row.origin,
  criterion: row.criterion,
  conditions: row.conditions,
  workplaceIds: row.workplace_ids,
  tools: fromJsonb(row.tools),
  additionalConditions: row.additional_conditions,
  forecastedDelays: row.forecasted_delays === null ? null : fromJsonb(row.forecasted_delays),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

// The workplaces of each rule in their order, read with the rule.
const RULES: Table<Row, ManufacturingVariantRule> = {
  from: 'manufacturing_variant_rules r',
  select: `r.*, ARRAY(SELECT w.workplace_id FROM manufacturing_variant_rule_workplaces w
     WHERE w.rule_id = r.id ORDER BY w.position) AS workplace_ids`,
  id: 'r.id',
  toItem: toRule,
};

/** A group's rules, oldest first. */
export const listManufacturingVariantRules = offsetList(
  RULES,
  'r.created_at, r.id',
  ownedBy('r.workplace_group_id'),
);

export const findManufacturingVariantRule = ownedFind(RULES, 'r.workplace_group_id');

const rows = rowWrites<ManufacturingVariantRule>()(
  'manufacturing_variant_rules',
  'id workplaceGroupId origin criterion conditions additionalConditions createdAt updatedAt',
  {
    other: (rule) => ({
      tools: asJsonb(rule.tools),
      forecasted_delays: rule.forecastedDelays === null ? null : asJsonb(rule.forecastedDelays),
    }),
    fixed: ['workplace_group_id', 'created_at'],
  },
);

/** The rule's row with its workplaces; a delete takes them with it (cascade). */
export const manufacturingVariantRuleWrites: RowWrites<ManufacturingVariantRule> = {
  insert: async (db, rule) => {
    await rows.insert(db, rule);
    await addWorkplaces(db, rule);
  },
  update: async (db, rule) => {
    await rows.update(db, rule);
    await db.query('DELETE FROM manufacturing_variant_rule_workplaces WHERE rule_id = $1', [rule.id]);
    await addWorkplaces(db, rule);
  },
  delete: rows.delete,
};

async function addWorkplaces(db: Queryable, rule: ManufacturingVariantRule) {
  if (rule.workplaceIds.length === 0) return;
  await db.query(
    `INSERT INTO manufacturing_variant_rule_workplaces (rule_id, workplace_id, position)
     SELECT $1, w.id, w.position FROM unnest($2::uuid[]) WITH ORDINALITY AS w (id, position)`,
    [rule.id, rule.workplaceIds],
  );
}
