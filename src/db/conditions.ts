// WHERE conditions built from a filter one value at a time: each condition gets the placeholder of
// its own parameter (`$n`), so placeholders and parameters cannot drift apart.

/** A period filter: what ends before `startDate` or starts after `endDate` is left out. */
export interface PeriodFilter {
  startDate?: Date | undefined;
  endDate?: Date | undefined;
}

export class Conditions {
  readonly where: string[] = [];
  readonly params: unknown[] = [];

  /** Starts from fixed conditions and their parameters, e.g. `['workplace_id = $1'], [workplaceId]`. */
  constructor(where: readonly string[] = [], params: readonly unknown[] = []) {
    this.where.push(...where);
    this.params.push(...params);
  }

  /** Adds `condition`, given the placeholder of `value`, which becomes the next parameter. */
  add(condition: (at: string) => string, value: unknown): this {
    this.params.push(value);
    this.where.push(condition(`$${this.params.length}`));
    return this;
  }

  /** Adds `column = value`, unless the value is undefined (the filter does not ask for it). */
  equals(column: string, value: unknown): this {
    return value === undefined ? this : this.add((at) => `${column} = ${at}`, value);
  }

  /** Adds the conditions of a period filter on the rows' `start_date` and `end_date`. */
  overlapping(filter: PeriodFilter): this {
    if (filter.startDate !== undefined) this.add((at) => `end_date >= ${at}`, filter.startDate);
    if (filter.endDate !== undefined) this.add((at) => `start_date <= ${at}`, filter.endDate);
    return this;
  }
}
