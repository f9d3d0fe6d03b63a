// Echoed read-only properties (docs/api.md, "Errors", read-only properties): a PUT body may carry back
// what a GET shows but a client cannot set. Equal to the stored value it is ignored; different,
// it is 400 READ_ONLY_PROPERTY naming it. Properties that no GET shows stay 400 UNKNOWN_FIELD.
// Those that change on their own (a connector's status) are taken back whatever their value:
// a client cannot have read the value they have when its PUT arrives.
import { type TSchema, Type } from 'typebox';
import { AppError } from '../domain/errors.ts';

type ObjectSchema = TSchema & { properties: Record<string, TSchema>; required?: string[] };

const isObjectSchema = (schema: unknown): schema is ObjectSchema =>
  typeof schema === 'object' &&
  schema !== null &&
  typeof (schema as { properties?: unknown }).properties === 'object';

/** The `properties` schema of a HAL resource schema (`Resource(...)` in schemas/common.ts). */
export function representedProperties(resourceSchema: TSchema): Record<string, TSchema> {
  const properties = (resourceSchema as { properties?: { properties?: unknown } }).properties?.properties;
  return isObjectSchema(properties) ? properties.properties : {};
}

/** The names a GET shows that the body cannot set. */
export function readOnlyNames(body: TSchema, shown: Record<string, TSchema>): string[] {
  if (!isObjectSchema(body)) return [];
  return Object.keys(shown).filter((name) => !(name in body.properties));
}

/**
 * The body schema that also takes the read-only names, each as any value (compared with the
 * stored one by `checkEchoed`); the writable fields and the refusal of unknown ones are unchanged.
 */
export function echoingBody<B extends TSchema>(
  body: B,
  readOnly: readonly string[],
  changing: readonly string[] = [],
): B {
  if (!isObjectSchema(body) || readOnly.length === 0) return body;
  const echoed: Record<string, TSchema> = {};
  for (const name of readOnly) {
    const description = changing.includes(name)
      ? 'Read-only, changes on its own: taken back whatever its value and ignored'
      : 'Read-only: may be sent back unchanged, another value is 400';
    echoed[name] = Type.Optional(Type.Unknown({ description }));
  }
  return { ...body, properties: { ...body.properties, ...echoed } };
}

/** Equality of JSON values (key order of objects does not matter). */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((value, index) => sameJson(value, b[index]));
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left).filter((key) => left[key] !== undefined);
  const otherKeys = Object.keys(right).filter((key) => right[key] !== undefined);
  return (
    keys.length === otherKeys.length && keys.every((key) => key in right && sameJson(left[key], right[key]))
  );
}

/**
 * Removes the echoed read-only properties from the body when each equals the stored one;
 * `stored` is asked only when the body carries one. The first that differs is the 400.
 */
export async function checkEchoed(
  body: Record<string, unknown>,
  readOnly: readonly string[],
  changing: readonly string[],
  stored: () => Promise<Record<string, unknown>>,
): Promise<void> {
  for (const name of changing) delete body[name];
  const echoed = readOnly.filter((name) => body[name] !== undefined);
  if (echoed.length === 0) return;
  const current = await stored();
  for (const name of echoed) {
    if (!sameJson(body[name], current[name] ?? null))
      throw new AppError('READ_ONLY_PROPERTY', { field: name });
    delete body[name];
  }
}
