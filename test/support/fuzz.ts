// A property-based fuzzer over the served OpenAPI document: for every operation it generates
// requests (fast-check) whose path ids, query parameters and bodies follow the schema most of the
// time and are hostile the rest of it (lone surrogates, U+0000, huge strings, 1e400, unsafe
// integers, impossible dates, wrong types, repeated and unknown parameters, deep JSON). Whatever
// it sends: no 5xx, every error carries exactly {status, code, message}, and a refused write
// changes nothing stored (a checksum of every table before and after).
// Used by test/api/fuzz.test.ts (quick runs) and test/fuzz.ts (`npm run fuzz`, long runs with figures).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { json, type TestApp } from './app.ts';

// ---------------------------------------------------------------------------------------------
// The document.

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  patternProperties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  [keyword: string]: unknown;
}
interface Parameter {
  in: string;
  name: string;
  required?: boolean;
  schema?: JsonSchema;
}
interface OperationObject {
  parameters?: Parameter[];
  responses?: Record<string, { content?: Record<string, unknown> }>;
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}
export interface OpenApi {
  paths: Record<string, Record<string, OperationObject>>;
}

export interface Operation {
  /** `POST /api/v2/workplaces/{id}` */
  key: string;
  method: string;
  path: string;
  pathParams: string[];
  query: Map<string, JsonSchema>;
  /** The JSON body schema; undefined when the operation takes no JSON body. */
  body: JsonSchema | undefined;
}

const METHODS = ['get', 'post', 'put', 'delete', 'patch'];

export function operationsOf(openapi: OpenApi): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(openapi.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      // A stream (GET /events/stream) stays open: its answer never completes in inject();
      // test/api/eventStream.test.ts covers it, badInput.test.ts its refusals.
      if (operation.responses?.['200']?.content?.['text/event-stream']) continue;
      const parameters = operation.parameters ?? [];
      operations.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        pathParams: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        query: new Map(parameters.filter((p) => p.in === 'query').map((p) => [p.name, p.schema ?? {}])),
        body: operation.requestBody?.content?.['application/json']?.schema,
      });
    }
  }
  return operations.sort((a, b) => a.key.localeCompare(b.key));
}

// ---------------------------------------------------------------------------------------------
// Values. `Raw` is JSON text sent as it is: numbers JSON can spell but JavaScript cannot hold
// (1e400), and nesting too deep to build as objects.

export class Raw {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

/** JSON text of a value that may contain Raw pieces (JSON.stringify escapes lone surrogates as \udxxx). */
export function toJsonText(value: unknown): string {
  if (value instanceof Raw) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJsonText).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([key, inner]) => `${JSON.stringify(key)}:${toJsonText(inner)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

const HOSTILE_STRINGS = [
  '\ud800',
  'a\udc00b',
  '\udbff\ud800',
  'a\u0000b',
  '\u0000',
  '',
  ' ',
  '😀',
  '\u202e\u200b',
  "'; DROP TABLE workplaces; --",
  '%00',
  '%ED%A0%80',
  '../../etc/passwd',
  '\u0024{jndi:ldap://x}',
  'x'.repeat(201),
  'x'.repeat(2001),
];
const hostileString = fc.oneof(
  fc.constantFrom(...HOSTILE_STRINGS),
  fc.integer({ min: 100_000, max: 300_000 }).map((n) => 'y'.repeat(n)),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.string({
    unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
    maxLength: 4,
  }),
);
const HOSTILE_NUMBERS: unknown[] = [
  new Raw('1e400'),
  new Raw('-1e400'),
  new Raw('1E+999'),
  new Raw('-0'),
  new Raw('0.0000000000000000000000000000000000000001e-400'),
  new Raw('123456789012345678901234567890'),
  2 ** 53 + 2,
  -(2 ** 63),
  2 ** 31,
  -1,
  1.5,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
  1e300,
];
const hostileNumber = fc.constantFrom(...HOSTILE_NUMBERS);
const IMPOSSIBLE_DATES = [
  '2024-02-30T00:00:00Z',
  '2023-02-29T00:00:00Z',
  '2024-13-01T00:00:00Z',
  '2024-00-10T00:00:00Z',
  '2024-01-01T24:00:01Z',
  '2024-01-01T23:59:61Z',
  '0000-01-01T00:00:00Z',
  '-000001-01-01T00:00:00Z',
  '+275760-09-13T00:00:00.001Z',
  '10000-01-01T00:00:00Z',
  '2024-01-01',
  '2024-01-01T00:00:00',
  '2024-01-01T00:00:00+25:00',
  '1e400',
  'now',
];
const hostileDate = fc.constantFrom(...IMPOSSIBLE_DATES);
const deepJson = fc
  .tuple(fc.integer({ min: 60, max: 3000 }), fc.boolean())
  .map(([depth, arrays]) =>
    arrays
      ? new Raw(`${'['.repeat(depth)}${']'.repeat(depth)}`)
      : new Raw(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
  );
const wrongType = fc.constantFrom<unknown>(null, true, false, 0, -1, 'text', [], {}, [1, 'a'], {
  nested: { a: 1 },
});

/** Anything hostile, whatever the schema wanted. */
const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  hostileNumber,
  hostileDate,
  deepJson,
  wrongType,
);

/** Ids the service handed out (by the collection their self link names), and ids it never did. */
export class IdPool {
  readonly ids = new Set<string>();
  readonly byCollection = new Map<string, Set<string>>();
  add(id: unknown, collection?: string) {
    if (typeof id !== 'string' || id.length > 200) return;
    this.ids.add(id);
    if (collection === undefined) return;
    const set = this.byCollection.get(collection) ?? new Set<string>();
    this.byCollection.set(collection, set.add(id));
  }
  /** Collects every `id` and `...Id` of a JSON answer, and what each self link names. */
  harvest(value: unknown, depth = 0) {
    if (depth > 8 || value === null || typeof value !== 'object') return;
    const self = (value as { _links?: { self?: { href?: unknown } } })._links?.self?.href;
    const named = typeof self === 'string' ? /\/api\/v\d\/(?:.*\/)?([^/?]+)\/([^/?]+)$/.exec(self) : null;
    if (named?.[1] && named[2]) this.add(decodeURIComponent(named[2]), named[1]);
    for (const [key, inner] of Object.entries(value)) {
      if (typeof inner === 'string' && (key === 'id' || key.endsWith('Id'))) this.add(inner);
      else this.harvest(inner, depth + 1);
    }
  }
  /** Forgets an id (its resource was deleted). */
  remove(id: string) {
    this.ids.delete(id);
    for (const set of this.byCollection.values()) set.delete(id);
  }
  /** Whether the pool still knows an id of each of these collections. */
  has(collections: string[]) {
    return collections.every((collection) => (this.byCollection.get(collection)?.size ?? 0) > 0);
  }
  /** Mostly an id of `collection` (the path segment in front of the parameter) when one is known. */
  arbitrary(collection?: string): fc.Arbitrary<string> {
    const known = [...this.ids];
    const own = [...(this.byCollection.get(collection ?? '') ?? [])];
    return fc.oneof(
      { weight: own.length > 0 ? 12 : 0, arbitrary: own.length > 0 ? fc.constantFrom(...own) : fc.uuid() },
      { weight: 3, arbitrary: known.length > 0 ? fc.constantFrom(...known) : fc.uuid() },
      { weight: 1, arbitrary: fc.uuid() },
      { weight: 1, arbitrary: fc.constantFrom('not-a-uuid', '0', 'RELEASED', '010', 'PRODUCTION', '1') },
    );
  }
}

const FAR_FUTURE = { min: new Date('2099-01-01T00:00:00Z'), max: new Date('2099-12-31T00:00:00Z') };

/** Values that follow the schema (the service may still refuse them: references, rules). */
function schemaValue(schema: JsonSchema, ids: IdPool, hostile: boolean, depth = 0): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return fc.oneof(...branches.map((branch) => schemaValue(branch, ids, hostile, depth)));
  const type = Array.isArray(schema.type)
    ? (schema.type.filter((t) => t !== 'null')[0] ?? 'null')
    : (schema.type ?? (schema.properties ? 'object' : 'unknown'));
  switch (type) {
    case 'string':
      if (schema.format === 'uuid') return ids.arbitrary();
      if (schema.format === 'date-time')
        return fc.date({ ...FAR_FUTURE, noInvalidDate: true }).map((d) => d.toISOString());
      if (schema.format === 'date') return fc.constant('2099-03-01');
      if (schema.format === 'uri')
        return fc.constantFrom('http://192.0.2.1/fuzz', 'mqtt://192.0.2.1:1883/fuzz');
      if (/id$/i.test(String(schema.description ?? '')) || schema.pattern === undefined) {
        return fc.oneof(
          {
            weight: 3,
            arbitrary: fc.string({
              minLength: schema.minLength ?? 0,
              maxLength: Math.min(schema.maxLength ?? 20, 20),
            }),
          },
          { weight: 1, arbitrary: ids.arbitrary() },
        );
      }
      return fc.string({ maxLength: 20 });
    case 'integer':
      return fc.integer({
        min: Math.max(schema.minimum ?? -1000, -1e9),
        max: Math.min(schema.maximum ?? 100_000, 1e9),
      });
    case 'number':
      return fc.double({
        min: Math.max(schema.minimum ?? -1e6, -1e12),
        max: Math.min(schema.maximum ?? 1e6, 1e12),
        noNaN: true,
        noDefaultInfinity: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array': {
      if (depth > 4) return fc.constant([]);
      const item = schema.items
        ? valueOrHostile(schema.items, ids, hostile, depth + 1)
        : fc.jsonValue({ maxDepth: 2 });
      return fc.array(item, {
        minLength: Math.min(schema.minItems ?? 0, 3),
        maxLength: Math.min(schema.maxItems ?? 3, 3),
      });
    }
    case 'object':
      return objectValue(schema, ids, hostile, depth);
    default:
      return fc.jsonValue({ maxDepth: 3 });
  }
}

function objectValue(
  schema: JsonSchema,
  ids: IdPool,
  hostile: boolean,
  depth: number,
): fc.Arbitrary<Record<string, unknown>> {
  if (depth > 4) return fc.constant({});
  const properties = Object.entries(schema.properties ?? {});
  if (properties.length === 0) {
    // Free-form (a record, an event's data): any JSON, sometimes hostile inside.
    if (!hostile)
      return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 });
    return fc.dictionary(
      fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('\ud800', 'a\u0000', '')),
      fc.oneof(
        { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
        { weight: 1, arbitrary: hostileValue },
      ),
      { maxKeys: 4 },
    );
  }
  const required = new Set(schema.required ?? []);
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of properties) record[name] = valueOrHostile(property, ids, hostile, depth + 1);
  const known = fc.record(record, {
    requiredKeys: properties.map(([name]) => name).filter((name) => required.has(name)),
  });
  if (!hostile) return known;
  // Now and then an unknown field, or a required one left out.
  return fc.oneof(
    { weight: 8, arbitrary: known },
    {
      weight: 1,
      arbitrary: fc
        .tuple(known, fc.constantFrom('noSuchField', '__proto__', 'constructor', 'id'))
        .map(([value, extra]) => ({ ...value, [extra]: 1 })),
    },
    { weight: 1, arbitrary: fc.record(record, { requiredKeys: [] }) },
  );
}

function valueOrHostile(
  schema: JsonSchema,
  ids: IdPool,
  hostile: boolean,
  depth: number,
): fc.Arbitrary<unknown> {
  if (!hostile) return schemaValue(schema, ids, false, depth);
  return fc.oneof(
    { weight: 4, arbitrary: schemaValue(schema, ids, true, depth) },
    { weight: 1, arbitrary: hostileValue },
  );
}

// ---------------------------------------------------------------------------------------------
// Requests.

export interface FuzzRequest {
  operation: string;
  /** What a mutated request changed in an otherwise valid one. */
  mutation?: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

const queryText = (value: unknown): string =>
  value instanceof Raw ? value.text : typeof value === 'string' ? value : (JSON.stringify(value) ?? '');

/** Percent-encodes like a client would, or sends hostile raw escapes. */
const encodeComponent = fc.constantFrom<(text: string) => string>(
  (text) => encodeURIComponent(text.isWellFormed() ? text : text.toWellFormed()),
  (text) => encodeURIComponent(text.isWellFormed() ? text : text.toWellFormed()),
  (text) => encodeURIComponent(text.isWellFormed() ? text : text.toWellFormed()),
  (text) => text.replace(/[^\w.-]/g, '%ED%A0%80'),
  (text) => `${encodeURIComponent(text.toWellFormed())}%FF`,
);

/** `/workplaces/{id}/shifts/{shiftId}`, `shiftId` -> `shifts`. */
function collectionBefore(path: string, name: string): string | undefined {
  const segments = path.split('/');
  return segments[segments.indexOf(`{${name}}`) - 1];
}

/**
 * A third of the requests follow the schema all through (so deeper rules run), a third are such a
 * request with one hostile change (a value, a key, a query parameter or an id), and a third are
 * hostile all over (wrong bodies, media types, encodings, repeated and unknown parameters).
 */
export function requestArbitrary(operation: Operation, ids: IdPool): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(
    { weight: 2, arbitrary: requestOf(operation, ids, false) },
    { weight: 3, arbitrary: mutatedRequest(operation, ids) },
    { weight: 2, arbitrary: requestOf(operation, ids, true) },
  );
}

/** Values the database cannot hold faithfully: the service must refuse them wherever they appear. */
const UNSTORABLE: unknown[] = [
  '\ud800',
  'a\udc00b',
  'x\ud83d',
  'a\u0000b',
  new Raw('1e400'),
  new Raw('-1e400'),
  2 ** 53 + 2,
  -(2 ** 60),
  new Raw('123456789012345678901234567890'),
  new Raw(`${'['.repeat(80)}${']'.repeat(80)}`),
];
const unstorable = fc.constantFrom(...UNSTORABLE);
/** Query values no parameter may take (raw: already percent-encoded), and more that no number may be. */
const UNREADABLE_QUERY = ['%ED%A0%80', '%FF', 'a%00b', 'x%ED%B0%80y'];
const UNREADABLE_NUMBER = ['1e400', '-1e400', '1E+999', '99999999999999999999', ...UNREADABLE_QUERY];
const isNumeric = (schema: JsonSchema | undefined): boolean =>
  schema !== undefined &&
  (['integer', 'number'].includes(String(schema.type)) || (schema.anyOf ?? []).some(isNumeric));

/** Every node of a JSON value, as paths of keys (root excluded). */
function nodePaths(value: unknown, path: string[] = [], out: string[][] = []): string[][] {
  if (value !== null && typeof value === 'object' && !(value instanceof Raw) && path.length < 8) {
    for (const [key, inner] of Object.entries(value)) {
      out.push([...path, key]);
      nodePaths(inner, [...path, key], out);
    }
  }
  return out;
}

function replaceAt(value: unknown, path: string[], replacement: unknown): unknown {
  const [head, ...rest] = path;
  if (head === undefined) return replacement;
  if (Array.isArray(value))
    return value.map((inner, index) =>
      String(index) === head ? replaceAt(inner, rest, replacement) : inner,
    );
  const object = value as Record<string, unknown>;
  return { ...object, [head]: replaceAt(object[head], rest, replacement) };
}

function mutatedRequest(operation: Operation, ids: IdPool): fc.Arbitrary<FuzzRequest> {
  const clean = requestParts(operation, ids, false);
  return fc
    .tuple(clean, fc.nat(), unstorable, fc.nat(20), fc.nat(3))
    .map(([parts, pick, value, text, chosen]) => {
      let kind = chosen;
      const paths = nodePaths(parts.body);
      const names = [...operation.query.keys()];
      const isObject = parts.body !== null && typeof parts.body === 'object' && !Array.isArray(parts.body);
      const kinds = [
        ...(paths.length > 0 ? [0] : []),
        ...(isObject ? [1] : []),
        ...(names.length > 0 ? [2] : []),
        ...(parts.pathValues.length > 0 ? [3] : []),
      ];
      if (kinds.length === 0) return serialize(operation, parts);
      kind = kinds[kind % kinds.length] ?? 0;
      if (kind === 0) {
        // One value deep in the body (a field, an array element, a value in free-form data).
        const path = paths[pick % paths.length] ?? [];
        return serialize(
          operation,
          { ...parts, body: replaceAt(parts.body, path, value) },
          `body ${path.join('.')}`,
        );
      }
      if (kind === 1) {
        // A hostile key in an object of the body (unknown, or a key of free-form data).
        const objects = [[], ...paths].filter((path) => {
          let node: unknown = parts.body;
          for (const key of path) node = (node as Record<string, unknown>)[key];
          return node !== null && typeof node === 'object' && !Array.isArray(node) && !(node instanceof Raw);
        });
        const path = objects[pick % objects.length] ?? [];
        let node: unknown = parts.body;
        for (const key of path) node = (node as Record<string, unknown>)[key];
        const key = ['\ud800', 'a\u0000', '\udfff\ud800'][pick % 3] ?? '';
        return serialize(
          operation,
          { ...parts, body: replaceAt(parts.body, path, { ...(node as object), [key]: 1 }) },
          `body key in ${path.join('.')}`,
        );
      }
      if (kind === 2) {
        // A query parameter the service must refuse, sent raw (already percent-encoded or not at all).
        const name = names[pick % names.length] ?? '';
        const texts = isNumeric(operation.query.get(name)) ? UNREADABLE_NUMBER : UNREADABLE_QUERY;
        const query = [
          ...parts.query.filter(([other]) => other !== name),
          [name, new Raw(texts[text % texts.length] ?? '%FF')] as [string, unknown],
        ];
        return serialize(operation, { ...parts, query }, `query ${name}`);
      }
      // An id the service never handed out, or one it cannot read.
      const pathValues = parts.pathValues.map((id, index) =>
        index === pick % parts.pathValues.length
          ? ['%ED%A0%80', '%FF', 'x'.repeat(250), '%00', '1e400'][pick % 5]
          : id,
      );
      return serialize(
        operation,
        { ...parts, pathValues: pathValues.map((id) => new Raw(String(id))) },
        'path',
      );
    });
}

interface RequestParts {
  pathValues: unknown[];
  query: [string, unknown][];
  /** undefined: no body; a string key `payload`: sent as it is. */
  body: unknown;
  raw?: { payload?: string; type?: string };
  v1: boolean;
  encode: (text: string) => string;
}

/** Sends `Raw` query values and path ids as they are; encodes everything else with `encode`. */
function serialize(operation: Operation, parts: RequestParts, mutation?: string): FuzzRequest {
  const { encode } = parts;
  const text = (value: unknown) => (value instanceof Raw ? value.text : encode(queryText(value)));
  let index = 0;
  const path = operation.path
    .replace(/\{(\w+)\}/g, () => text(parts.pathValues[index++] ?? ''))
    .replace(/^\/api\/v2\//, parts.v1 ? '/api/v1/' : '/api/v2/');
  const search = parts.query.map(([name, value]) => `${encode(name)}=${text(value)}`).join('&');
  const headers: Record<string, string> = {};
  let payload: string | undefined;
  if (parts.raw !== undefined) {
    payload = parts.raw.payload;
    if (parts.raw.type !== undefined) headers['content-type'] = parts.raw.type;
  } else if (parts.body !== undefined) {
    payload = toJsonText(parts.body);
    headers['content-type'] = 'application/json';
  }
  return {
    operation: operation.key,
    method: operation.method,
    url: search === '' ? path : `${path}?${search}`,
    headers,
    ...(payload === undefined ? {} : { payload }),
    ...(mutation === undefined ? {} : { mutation }),
  };
}

function requestOf(operation: Operation, ids: IdPool, hostile: boolean): fc.Arbitrary<FuzzRequest> {
  return requestParts(operation, ids, hostile).map((parts) => serialize(operation, parts));
}

function requestParts(operation: Operation, ids: IdPool, hostile: boolean): fc.Arbitrary<RequestParts> {
  const pathArb = fc.tuple(
    fc.tuple(
      ...operation.pathParams.map((name) =>
        fc.oneof(
          { weight: 8, arbitrary: ids.arbitrary(collectionBefore(operation.path, name)) },
          {
            weight: hostile ? 1 : 0,
            arbitrary: name.endsWith('Id')
              ? fc.constantFrom('RELEASED', 'DISPATCHED', 'SETUP', '010', '110', 'INITIATED', 'REQUESTED')
              : fc.uuid(),
          },
          { weight: hostile ? 1 : 0, arbitrary: hostileString.filter((s) => s.length < 300) },
        ),
      ),
    ),
    hostile ? encodeComponent : fc.constant((text: string) => encodeURIComponent(text)),
  );
  const names = [...operation.query.keys()];
  const declared = (name: string) =>
    valueOrHostile(operation.query.get(name) ?? {}, ids, hostile, 0).map(
      (value) => [name, value] as [string, unknown],
    );
  const queryArb: fc.Arbitrary<[string, unknown][]> = !hostile
    ? names.length === 0
      ? fc.constant([])
      : fc
          .uniqueArray(fc.constantFrom(...names), { maxLength: 3 })
          .chain((chosen) => (chosen.length === 0 ? fc.constant([]) : fc.tuple(...chosen.map(declared))))
    : fc.array(
        fc.oneof(
          ...(names.length === 0
            ? []
            : [{ weight: 4, arbitrary: fc.constantFrom(...names).chain(declared) }]),
          {
            weight: 1,
            arbitrary: fc.tuple(
              fc.constantFrom('noSuchParameter', 'limit', 'offset', 'embed', 'LIMIT', ''),
              hostileValue,
            ),
          },
        ),
        { maxLength: 4 },
      );
  type Body = { body: unknown; raw?: { payload?: string; type?: string } };
  const bodyArb: fc.Arbitrary<Body> =
    operation.body === undefined
      ? fc.oneof(
          { weight: 8, arbitrary: fc.constant<Body>({ body: undefined }) },
          {
            weight: hostile ? 1 : 0,
            arbitrary: fc.constant<Body>({
              body: undefined,
              raw: { payload: '{"unexpected": true}', type: 'application/json' },
            }),
          },
        )
      : fc.oneof(
          {
            weight: 12,
            arbitrary: objectValue(operation.body, ids, hostile, 0).map((body): Body => ({ body })),
          },
          { weight: hostile ? 1 : 0, arbitrary: hostileValue.map((body): Body => ({ body })) },
          {
            weight: hostile ? 1 : 0,
            arbitrary: fc
              .constantFrom(
                { payload: '{"a":', type: 'application/json' },
                { payload: '{"a":1}{"b":2}', type: 'application/json' },
                { payload: '{"a":1,"a":2}', type: 'application/json' },
                { payload: '\ufeff{}', type: 'application/json' },
                { payload: '{}', type: 'text/plain' },
                { payload: '{}', type: 'application/json; charset=latin1' },
                { payload: '', type: 'application/json' },
              )
              .map((raw): Body => ({ body: undefined, raw })),
          },
        );
  return fc
    .tuple(pathArb, queryArb, bodyArb, fc.boolean())
    .map(([[pathValues, encode], query, body, v1]) => ({ pathValues, query, ...body, v1, encode }));
}

// ---------------------------------------------------------------------------------------------
// Judging and running.

/** What is wrong with an answer, or undefined. */
export function judge(request: FuzzRequest, response: LightMyRequestResponse): string | undefined {
  const status = response.statusCode;
  const where = `${request.method} ${request.url.slice(0, 160)} -> ${status}`;
  if (status >= 500) return `${where}: server error ${response.body.slice(0, 300)}`;
  // One value no request may carry was accepted (it would be stored altered, or not at all).
  if (status < 300 && request.mutation !== undefined)
    return `${where}: accepted ${request.mutation}: ${(request.payload ?? '').slice(0, 200)}`;
  if (status < 400 || request.method === 'HEAD') return undefined;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(response.body) as Record<string, unknown>;
  } catch {
    return `${where}: error body is not JSON: ${response.body.slice(0, 200)}`;
  }
  const keys = Object.keys(body).sort().join(',');
  // The token endpoint (and its FORCE Bridge alias) answers as OAuth 2.0 says (RFC 6749 5.2):
  // {error, error_description}.
  const path = request.url.split('?')[0] ?? '';
  const tokenPath = path.endsWith('/oauth/token') || path.endsWith('/ffauth/oauth2.0/accessToken');
  if (tokenPath && typeof body.error === 'string') return undefined;
  if (keys !== 'code,message,status') return `${where}: error body keys ${keys}`;
  if (body.status !== status) return `${where}: body status ${String(body.status)}`;
  if (typeof body.code !== 'string' || !/^[A-Z_]+$/.test(body.code))
    return `${where}: code ${String(body.code)}`;
  if (typeof body.message !== 'string' || body.message === '') return `${where}: empty message`;
  return undefined;
}

/** One checksum of every table of the schema (what a refused write must leave alone). */
export async function checksum(testApp: TestApp, tables: string[]): Promise<string> {
  const parts = tables.map(
    (table) => `(SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) FROM ${table} t)`,
  );
  const [row] = await testApp.app.db.query<{ sum: string }>(
    `SELECT concat_ws(',', ${parts.join(', ')}) AS sum`,
  );
  return row?.sum ?? '';
}

export async function tablesOf(testApp: TestApp): Promise<string[]> {
  const rows = await testApp.app.db.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  return rows.map((row) => row.name);
}

/** A little of everything, so generated ids name real things (dates in 2099: no clock events). */
export async function seedPlant(testApp: TestApp, ids: IdPool): Promise<void> {
  const created = async (url: string, body: unknown) => {
    const response = await testApp.request({ method: 'POST', url: `/api/v2${url}`, body });
    assert.ok(response.statusCode < 300, `${url}: ${response.body}`);
    const value = json(response);
    ids.harvest(value);
    return value.properties as Record<string, string>;
  };
  const tag = randomUUID().slice(0, 6);
  const group = await created('/workplaceGroups', { number: `FZ-G-${tag}`, type: 'CAPACITY_GROUP' });
  await created('/workplaceGroups', { number: `FZ-L-${tag}`, type: 'PRODUCTION_LINE' });
  const workplace = await created('/workplaces', { number: `FZ-W-${tag}`, capacityGroupId: group.id });
  const order = await created('/productionOrders', {
    number: `FZ-PO-${tag}`,
    split: '0',
    material: { number: `FZ-M-${tag}`, description: 'FZ material' },
  });
  const operation = await created('/operations', {
    productionOrderId: order.id,
    number: 'FZ-OP1',
    components: [{ materialNumber: 'FZ-C1', quantity: 1 }],
    productionResourcesAndTools: [{ identifier: 'FZ-T1' }],
    alternativeWorkplaceIds: [workplace.id],
    materialCharacteristics: [{ name: 'FZ' }],
    userFields: [{ position: 1, value: 'FZ' }],
  });
  const staff = await created('/staffMembers', {
    staffNumber: `FZ-S-${tag}`,
    firstName: 'F',
    lastName: 'Z',
    assignedWorkplaceIds: [workplace.id],
  });
  await created(`/staffMembers/${staff.id}/activities`, {
    operationId: operation.id,
    workplaceId: workplace.id,
    activity: 'STARTED',
  });
  await created('/tools/assemblyOrders', { toolDescription: 'FZ tool' });
  const tool = await created('/tools', {
    identifier1: `FZ-T-${tag}`,
    location: { workplaceId: workplace.id, magazinePlace: 1 },
    characteristics: [{ name: 'Diameter', identifier: 'DC', value: '8' }],
  });
  await created(`/tools/${tool.id}/edges`, {
    identifier: 'FZ-E',
    characteristics: [{ name: 'n', identifier: 'i', value: 'v' }],
  });
  await created('/documents', { name: `fz-${tag}.txt`, folder: '/fuzz' });
  const folder = await created('/fileRepository/folders', { name: `fz-${tag}` });
  await created(`/fileRepository/folders/${folder.id}/documents`, {
    origin: 'CREATED_INTERNALLY',
    type: 'txt',
  });
  const device = await created('/devices', {
    name: `FZ-D-${tag}`,
    type: 'PLC',
    workplaceId: workplace.id,
    recordedPhysicalQuantities: [{ tag: 'temp' }],
  });
  await created(`/devices/${device.id}/recordedTimeSeries`, {
    elements: [{ tag: 'temp', timestamp: '2099-01-01T00:00:00.000Z', value: 1 }],
  });
  const period = { startDate: '2099-03-01T06:00:00.000Z', endDate: '2099-03-01T14:00:00.000Z' };
  await created(`/workplaces/${workplace.id}/shifts`, { name: 'FZ', ...period });
  await created(`/workplaces/${workplace.id}/scheduledMaintenances`, { description: 'FZ', ...period });
  await created(`/workplaceGroups/${group.id}/setupTransitionRules`, {
    origin: 'MANUAL_DATA_MAINTENANCE',
    criterion: 'MATERIAL_NUMBER',
    predecessorConditions: 'FZ-M1',
    successorConditions: 'FZ-M2',
    setupTime: 1000,
  });
  await created(`/workplaceGroups/${group.id}/manufacturingVariantRules`, {
    origin: 'MANUAL_DATA_MAINTENANCE',
    criterion: 'MATERIAL_NUMBER',
    conditions: 'FZ-M1',
    workplaceIds: [workplace.id],
    tools: [{ id: 'FZ-T1' }],
    forecastedDelays: { processAvailability: 0.9, performance: 1, qualityRate: 0.95 },
  });
  await created('/callbacks', { eventType: 'WORKPLACE_CREATED', url: 'http://192.0.2.1/fuzz' });
  await created('/events', { eventType: 'EXTERNAL', data: { fuzz: true } });
  await created('/commands?async=false', {
    type: 'OPERATION_QUANTITY',
    operationId: operation.id,
    quantity: 1,
    qualityDetailId: 'YIELD',
  });
  const ticket = await created('/tickets', { title: 'FZ', priority: 'LOW', workplaceId: workplace.id });
  const ticketActivity = await created(`/tickets/${ticket.id}/activities`, { title: 'FZ' });
  await created(`/tickets/${ticket.id}/activities/${ticketActivity.id}/remarks`, { remark: 'FZ' });
  await created(`/tickets/${ticket.id}/attachments`, { description: 'FZ' });
  // Ids of what lists show (history records, master data, events).
  for (const url of [
    `/workplaces/${workplace.id}/recordedOperatingStates`,
    `/operations/${operation.id}/recordedOperationPhases`,
    '/masterData/operatingStates',
    '/masterData/shiftTypes',
    '/masterData/operatingStateClasses',
    '/masterData/customerSpecificSettings',
    '/literals?limit=5',
    '/erpContexts',
    '/materials?limit=5',
    '/events?limit=5',
  ]) {
    ids.harvest(json(await testApp.request({ url: `/api/v2${url}` })));
  }
}

export interface FuzzFigures {
  requests: number;
  operations: number;
  operationsTotal: number;
  byStatus: Record<string, number>;
  serverErrors: number;
  problems: string[];
  uncovered: string[];
  seconds: number;
}

export interface FuzzOptions {
  seed: number;
  runs: number;
  /** Stop after this many problems (a quick run stops at the first). */
  maxProblems?: number;
  log?: (line: string) => void;
}

/** Sends `runs` generated requests, spread over every operation of the document. */
export async function fuzz(testApp: TestApp, options: FuzzOptions): Promise<FuzzFigures> {
  const started = performance.now();
  const openapi = json(await testApp.request({ url: '/api/openapi.json' })) as OpenApi;
  const operations = operationsOf(openapi);
  const tables = await tablesOf(testApp);
  const ids = new IdPool();
  await seedPlant(testApp, ids);
  const token = await testApp.token();
  const figures: FuzzFigures = {
    requests: 0,
    operations: 0,
    operationsTotal: operations.length,
    byStatus: {},
    serverErrors: 0,
    problems: [],
    uncovered: [],
    seconds: 0,
  };
  const covered = new Set<string>();
  const maxProblems = options.maxProblems ?? Number.POSITIVE_INFINITY;
  let stored = await checksum(testApp, tables);
  // Round-robin over operations, one small sample at a time, each from its own derived seed, so
  // every operation gets requests and a run is repeatable from its seed alone.
  const batch = 3;
  for (let round = 0; figures.requests < options.runs && figures.problems.length < maxProblems; round += 1) {
    // Deletes thin the plant out: plant more when something central is gone.
    if (!ids.has(['workplaces', 'operations', 'staffMembers', 'devices', 'workplaceGroups'])) {
      await seedPlant(testApp, ids);
      stored = await checksum(testApp, tables);
    }
    for (const [index, operation] of operations.entries()) {
      if (figures.requests >= options.runs || figures.problems.length >= maxProblems) break;
      const requests = fc.sample(requestArbitrary(operation, ids), {
        seed: (options.seed + round * 7919 + index * 104_729) | 0,
        numRuns: batch,
      });
      for (const request of requests) {
        if (figures.requests >= options.runs) break;
        const response = await testApp.app.server.inject({
          method: request.method as 'GET',
          url: request.url,
          headers: { authorization: `Bearer ${token}`, ...request.headers },
          ...(request.payload === undefined ? {} : { payload: request.payload }),
        });
        figures.requests += 1;
        covered.add(operation.key);
        const status = response.statusCode;
        figures.byStatus[status] = (figures.byStatus[status] ?? 0) + 1;
        if (status >= 500) figures.serverErrors += 1;
        const problem = judge(request, response);
        if (problem) figures.problems.push(`${operation.key}: ${problem}`);
        if (process.env.FUZZ_TRACE)
          options.log?.(
            `${status} ${request.method} ${request.url.slice(0, 100)} ${(request.payload ?? '').slice(0, 150)} => ${response.body.slice(0, 150)}`,
          );
        if (request.method !== 'GET') {
          const now = await checksum(testApp, tables);
          if (status >= 400 && now !== stored) {
            figures.problems.push(
              `${operation.key}: ${request.method} ${request.url.slice(0, 160)} -> ${status} changed stored data`,
            );
          }
          stored = now;
        }
        if (status < 300 && request.method === 'DELETE') {
          ids.remove(decodeURIComponent(request.url.split('?')[0]?.split('/').at(-1) ?? ''));
        }
        if (status < 300) {
          try {
            ids.harvest(JSON.parse(response.body));
          } catch {
            // Not JSON (a document's file): nothing to harvest.
          }
        }
      }
    }
    options.log?.(`${figures.requests} requests, ${figures.problems.length} problems`);
  }
  figures.operations = covered.size;
  figures.uncovered = operations.map((operation) => operation.key).filter((key) => !covered.has(key));
  figures.seconds = Math.round((performance.now() - started) / 100) / 10;
  return figures;
}
