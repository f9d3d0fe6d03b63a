// The response schemas as fast-json-stringify gets them. A nullable property is written
// `anyOf: [X, {type: 'null'}]` (TypeBox's Union with Null); for that, fast-json-stringify runs an
// Ajv validator on the value at every answer to pick the branch (a nullable group: the whole
// object, uuid formats included), a large share of the time spent serializing a workplace.
// `{...X, nullable: true}` writes the same JSON with a null check. The OpenAPI document and
// request validation keep the original schemas.

// Keywords beside the anyOf that only describe it; anything else keeps the anyOf as it is.
const ANNOTATIONS = new Set(['description', 'title', 'examples', 'default', 'deprecated', '$comment']);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A copy of `schema` with every `anyOf: [X, {type: 'null'}]` of a single-typed X made `nullable`. */
export function nullableForSerializing(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(nullableForSerializing);
  if (!isObject(schema)) return schema;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) copy[key] = nullableForSerializing(value);
  const { anyOf, ...siblings } = copy;
  if (!Array.isArray(anyOf) || anyOf.length !== 2) return copy;
  if (!Object.keys(siblings).every((key) => ANNOTATIONS.has(key))) return copy;
  const nullIndex = anyOf.findIndex((option) => isObject(option) && isOnlyNull(option));
  const other = anyOf[1 - nullIndex];
  if (nullIndex < 0 || !isObject(other) || !isSingleTyped(other)) return copy;
  return { ...siblings, ...other, nullable: true };
}

const isOnlyNull = (option: Record<string, unknown>) =>
  option.type === 'null' && Object.keys(option).length === 1;

// One named type other than null, no combinators or references to merge, not nullable already.
const isSingleTyped = (option: Record<string, unknown>) =>
  typeof option.type === 'string' &&
  option.type !== 'null' &&
  option.nullable === undefined &&
  option.$ref === undefined &&
  option.anyOf === undefined &&
  option.oneOf === undefined &&
  option.allOf === undefined &&
  option.if === undefined &&
  option.const === undefined &&
  option.enum === undefined;
