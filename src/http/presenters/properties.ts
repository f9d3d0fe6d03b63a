// What presenters share: a resource's properties taken from the domain item by their names in the
// resource schema (dates as ISO text), and links to items that may be absent.
import type { Static, TSchema } from 'typebox';
import type { Span } from '../../domain/summaries.ts';
import { type Link, link } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';
import { representedProperties } from '../readOnly.ts';

/** A date as the API writes it; null stays null. */
export function iso(date: Date): string;
export function iso(date: Date | null): string | null;
export function iso(date: Date | null): string | null {
  return date?.toISOString() ?? null;
}

/** The window a report or summary covers, as its startDate and endDate. */
export const windowProperties = (window: Span) => ({
  startDate: iso(new Date(window.start)),
  endDate: iso(new Date(window.end)),
});

type Shown<S extends TSchema> = Static<S> extends { properties: infer P } ? P : never;

const namesBySchema = new WeakMap<TSchema, string[]>();

/**
 * The properties a resource schema (`Resource(...)`, src/http/schemas/common.ts) shows, taken
 * from `item` by the same names in the schema's order; a Date is written as ISO text.
 */
export function propertiesOf<S extends TSchema>(
  schema: S,
  item: Record<keyof Shown<S>, unknown>,
): Record<string, unknown> {
  let names = namesBySchema.get(schema);
  if (!names) {
    names = Object.keys(representedProperties(schema));
    namesBySchema.set(schema, names);
  }
  const values = item as Record<string, unknown>;
  const properties: Record<string, unknown> = {};
  for (const name of names) {
    const value = values[name];
    properties[name] = value instanceof Date ? value.toISOString() : value;
  }
  return properties;
}

/** A link to the item `id` of the collection at `path`; none without an id. */
export const linkTo = (hrefs: Hrefs, path: string, id: string | null): Link | undefined =>
  id ? link(hrefs.api(`${path}/${id}`)) : undefined;
