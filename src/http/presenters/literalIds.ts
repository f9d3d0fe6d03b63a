// The ids of literals the database derives from a name (migrations 091, 100 and 160: md5 of
// `<table>/<id>/description` and the like, upper-case hex), derived the same way here so that a
// presenter can link a literal without reading it. Remembered: a page of a hundred items would
// otherwise hash a hundred names on every read.
import { createHash } from 'node:crypto';

/** How many derived ids are kept; past it the memory starts again (ids are cheap to derive). */
const KEPT = 20_000;
const derived = new Map<string, string>();

/** The id of the literal named `name` (e.g. `workplaces/<id>/description`). */
export function literalIdOf(name: string): string {
  let id = derived.get(name);
  if (id === undefined) {
    if (derived.size >= KEPT) derived.clear();
    id = createHash('md5').update(name).digest('hex').toUpperCase();
    derived.set(name, id);
  }
  return id;
}
