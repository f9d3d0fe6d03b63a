// Setup transition rules of a workplace group and the setup matrix they give
// (docs/resources/setup-transitions.md). Pure: the rules, their conditions and the matrix.
import { AppError } from './errors.ts';
import type { Stored } from './stored.ts';

export const SETUP_TRANSITION_ORIGINS = ['MANUAL_DATA_MAINTENANCE', 'AUTOMATIC_EVALUATION_SYSTEM'] as const;
export const SETUP_TRANSITION_CRITERIA = ['MATERIAL_NUMBER', 'MATERIAL_CHARACTERISTICS'] as const;

export interface SetupTransitionRuleInput {
  origin: (typeof SETUP_TRANSITION_ORIGINS)[number];
  criterion: (typeof SETUP_TRANSITION_CRITERIA)[number];
  /** MATERIAL_NUMBER: the predecessor's material number; else conditions on its characteristics. */
  predecessorConditions: string;
  successorConditions: string;
  /** MATERIAL_CHARACTERISTICS only: milliseconds added when both materials meet the conditions. */
  setupTimeIncrement: number | null;
  /** MATERIAL_NUMBER only: the setup time of the transition, milliseconds. */
  setupTime: number | null;
}

export interface SetupTransitionRule extends SetupTransitionRuleInput, Stored {
  workplaceGroupId: string;
}

/** Changes of these emit SETUP_TRANSITION_RULE_UPDATED. */
export const SETUP_TRANSITION_RULE_CHARACTERISTICS = [
  'origin',
  'criterion',
  'predecessorConditions',
  'successorConditions',
  'setupTimeIncrement',
  'setupTime',
] as const;

const invalid = (field: string, detail: string) =>
  new AppError('VALIDATION_FAILED', { rule: 'value', field, detail });

/**
 * A material number rule gives an absolute setup time and no increment; a characteristics rule an
 * increment and no setup time, and conditions that parse.
 */
export function checkSetupTransitionRule(input: SetupTransitionRuleInput): void {
  if (input.criterion === 'MATERIAL_NUMBER') {
    if (input.setupTime === null) throw invalid('setupTime', 'a MATERIAL_NUMBER rule needs setupTime');
    if (input.setupTimeIncrement !== null)
      throw invalid('setupTimeIncrement', 'a MATERIAL_NUMBER rule gives setupTime, not an increment');
    return;
  }
  if (input.setupTimeIncrement === null)
    throw invalid('setupTimeIncrement', 'a MATERIAL_CHARACTERISTICS rule needs setupTimeIncrement');
  if (input.setupTime !== null)
    throw invalid('setupTime', 'a MATERIAL_CHARACTERISTICS rule gives an increment, not setupTime');
  parseConditions(input.predecessorConditions, 'predecessorConditions');
  parseConditions(input.successorConditions, 'successorConditions');
}

// --- Conditions on characteristics -------------------------------------------------------------
// A subset of RSQL/FIQL, as FORCE's examples write them (`color==black;width=lt=40`): comparisons
// `name<op>value` joined by `;` (and) and `,` (or; binds looser than and). Operators: == and !=
// (text), =lt= =le= =gt= =ge= (numbers: a value that is not a number never meets them).

type Operator = '==' | '!=' | '=lt=' | '=le=' | '=gt=' | '=ge=';
interface Comparison {
  name: string;
  operator: Operator;
  value: string;
}
/** Alternatives (or), each a list of comparisons that must all hold (and). */
export type Conditions = Comparison[][];

const COMPARISON = /^([^=!<>;,\s]+)\s*(==|!=|=lt=|=le=|=gt=|=ge=)\s*(.+)$/;

export function parseConditions(text: string, field: string): Conditions {
  return text.split(',').map((alternative) =>
    alternative.split(';').map((part) => {
      const match = COMPARISON.exec(part.trim());
      if (!match)
        throw invalid(field, `"${part.trim()}" is not name==value, name!=value or name=lt|le|gt|ge=number`);
      const [, name, operator, raw] = match as unknown as [string, string, Operator, string];
      return { name, operator, value: unquote(raw.trim()) };
    }),
  );
}

const unquote = (value: string) =>
  value.length >= 2 && (value[0] === '"' || value[0] === "'") && value.at(-1) === value[0]
    ? value.slice(1, -1)
    : value;

const asNumber = (value: string | undefined) =>
  value === undefined || value.trim() === '' ? Number.NaN : Number(value);

function holds({ name, operator, value }: Comparison, characteristics: ReadonlyMap<string, string>): boolean {
  const actual = characteristics.get(name);
  if (operator === '==') return actual === value;
  if (operator === '!=') return actual !== value;
  const [a, b] = [asNumber(actual), asNumber(value)];
  if (Number.isNaN(a) || Number.isNaN(b)) return false;
  return operator === '=lt=' ? a < b : operator === '=le=' ? a <= b : operator === '=gt=' ? a > b : a >= b;
}

export const meets = (conditions: Conditions, characteristics: ReadonlyMap<string, string>): boolean =>
  conditions.some((all) => all.every((comparison) => holds(comparison, characteristics)));

// --- The setup matrix ---------------------------------------------------------------------------

/** A material made in the group, with its characteristics by name. */
export interface SetupMaterial {
  number: string;
  characteristics: ReadonlyMap<string, string>;
}

export interface SetupMatrixEntry {
  predecessorMaterial: { number: string };
  successorMaterial: { number: string };
  setupTime: number;
}

/**
 * The setup time of every transition between the materials (in both directions, and from a
 * material to itself) that some rule speaks of: a MATERIAL_NUMBER rule's setup time where one names
 * the pair (the latest such rule), else the sum of the increments of the characteristics rules
 * both materials meet. Ordered by predecessor, then successor number.
 */
export function setupMatrix(
  rules: readonly SetupTransitionRule[],
  materials: readonly SetupMaterial[],
): SetupMatrixEntry[] {
  const sorted = [...materials].sort((a, b) => (a.number < b.number ? -1 : a.number > b.number ? 1 : 0));
  const index = new Map(sorted.map((material, i) => [material.number, i]));
  const absolute = new Map<number, number>();
  const increments = new Map<number, number>();
  const pair = (from: number, to: number) => from * sorted.length + to;
  for (const rule of rules) {
    if (rule.criterion === 'MATERIAL_NUMBER') {
      const from = index.get(rule.predecessorConditions);
      const to = index.get(rule.successorConditions);
      if (from !== undefined && to !== undefined) absolute.set(pair(from, to), rule.setupTime ?? 0);
      continue;
    }
    const predecessors = matching(
      sorted,
      parseConditions(rule.predecessorConditions, 'predecessorConditions'),
    );
    const successors = matching(sorted, parseConditions(rule.successorConditions, 'successorConditions'));
    for (const from of predecessors) {
      for (const to of successors) {
        const key = pair(from, to);
        increments.set(key, (increments.get(key) ?? 0) + (rule.setupTimeIncrement ?? 0));
      }
    }
  }
  const keys = [...new Set([...absolute.keys(), ...increments.keys()])].sort((a, b) => a - b);
  return keys.map((key) => ({
    predecessorMaterial: { number: (sorted[Math.floor(key / sorted.length)] as SetupMaterial).number },
    successorMaterial: { number: (sorted[key % sorted.length] as SetupMaterial).number },
    setupTime: absolute.get(key) ?? increments.get(key) ?? 0,
  }));
}

const matching = (materials: readonly SetupMaterial[], conditions: Conditions) =>
  materials.flatMap((material, i) => (meets(conditions, material.characteristics) ? [i] : []));
