import type { SetupMaterial, SetupTransitionRule } from '../../domain/setupTransitions.ts';
import type { Queryable } from '../database.ts';
import { fromJsonb, offsetList, ownedAll, ownedBy, ownedFind, rowWrites, type Table } from '../table.ts';

interface Row {
  id: string;
  workplace_group_id: string;
  origin: SetupTransitionRule['origin'];
  criterion: SetupTransitionRule['criterion'];
  predecessor_conditions: string;
  successor_conditions: string;
  setup_time_increment: string | null;
  setup_time: string | null;
  created_at: Date;
  updated_at: Date;
}

const toRule = (row: Row): SetupTransitionRule => ({
  id: row.id,
  workplaceGroupId: row.workplace_group_id,
  origin: row.origin,
  criterion: row.criterion,
  predecessorConditions: row.predecessor_conditions,
  successorConditions: row.successor_conditions,
  setupTimeIncrement: row.setup_time_increment === null ? null : Number(row.setup_time_increment),
  setupTime: row.setup_time === null ? null : Number(row.setup_time),
  createdAt: row.created_at,
  updatedAt: row.updated_at,
});

const RULES: Table<Row, SetupTransitionRule> = { from: 'setup_transition_rules', toItem: toRule };

/** A group's rules, oldest first. */
export const listSetupTransitionRules = offsetList(RULES, 'created_at, id', ownedBy('workplace_group_id'));

export const findSetupTransitionRule = ownedFind(RULES, 'workplace_group_id');

/** Every rule of the group, oldest first (the matrix applies them in that order). */
export const allSetupTransitionRules = ownedAll(RULES, 'workplace_group_id', 'created_at, id');

/**
 * The materials of the operations planned in the group (at the group, or at one of its
 * workplaces), at most `limit`, those planned most recently first; each with the characteristics
 * of its most recently changed operation. An operation without a material of its own makes its
 * order's.
 */
export async function materialsOfGroup(
  db: Queryable,
  groupId: string,
  limit: number,
): Promise<SetupMaterial[]> {
  const rows = await db.query<{ number: string; characteristics: unknown }>(
    `SELECT number, characteristics FROM (
       SELECT DISTINCT ON (number) number, characteristics, updated_at FROM (
         SELECT coalesce(o.material_number, p.material_number) AS number,
                o.material_characteristics AS characteristics, o.updated_at
         FROM operations o
         JOIN production_orders p ON p.id = o.production_order_id
         LEFT JOIN workplaces w ON w.id = o.workplace_id
         WHERE o.workplace_group_id = $1 OR w.capacity_group_id = $1 OR w.production_line_id = $1
       ) made WHERE number IS NOT NULL
       ORDER BY number, updated_at DESC
     ) latest ORDER BY updated_at DESC, number LIMIT $2`,
    [groupId, limit],
  );
  return rows.map((row) => ({
    number: row.number,
    characteristics: new Map(
      fromJsonb(row.characteristics as { name: string; value: string | null }[] | string).flatMap(
        (characteristic) =>
          characteristic.value === null ? [] : [[characteristic.name, characteristic.value]],
      ),
    ),
  }));
}

export const setupTransitionRuleWrites = rowWrites<SetupTransitionRule>()(
  'setup_transition_rules',
  'id workplaceGroupId origin criterion predecessorConditions successorConditions setupTimeIncrement setupTime createdAt updatedAt',
  { fixed: ['workplace_group_id', 'created_at'] },
);
