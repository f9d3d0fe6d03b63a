// Changes of state as tables (a state -> the states it may change to), and the one refusal of a
// change a table does not allow (docs/api.md, "States and transitions").
import { AppError, notFound } from './errors.ts';

export type Transitions<State extends string = string> = Readonly<Record<State, readonly State[]>>;

/** Where families differ in their refusal, kept as each has always answered. */
export interface TransitionRule {
  /** The same state again is a change the table must allow too; otherwise it is no change. */
  sameChecked?: boolean;
  /** The `allowed` of a final state; default `none`. */
  none?: string;
  /**
   * The resource a requested state the table does not have is not found as (404), for states
   * held in code; without it, such a state is refused as a change the table does not allow.
   */
  states?: string;
}

/** Refuses a change of state the table does not allow: 400 INVALID_TRANSITION naming the allowed ones. */
export function checkTransition<State extends string>(
  transitions: Transitions<State>,
  resource: string,
  id: string,
  current: State,
  requested: string,
  rule: TransitionRule = {},
): asserts requested is State {
  if (rule.states !== undefined && !Object.hasOwn(transitions, requested))
    throw notFound(rule.states, requested);
  if (current === requested && !rule.sameChecked) return;
  const allowed: readonly string[] = transitions[current] ?? [];
  if (allowed.includes(requested)) return;
  throw new AppError('INVALID_TRANSITION', {
    resource,
    id,
    current,
    requested,
    allowed: allowed.length === 0 ? (rule.none ?? 'none') : allowed.join(', '),
  });
}
