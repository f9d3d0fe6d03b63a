// Request validation: one Ajv for bodies (no type coercion: a string is not a number) and one
// for query strings and paths (coercion, as everything there arrives as text). Unknown fields
// and parameters are refused, never silently dropped. Failures become localized AppErrors.
// Path parameters are ids, which are opaque (docs/api.md, "Representations (HAL)"): one that fails its schema names
// nothing, so it is a 404, not a 400.
import { Ajv, type ErrorObject, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { AppError } from '../domain/errors.ts';
import { compileLater } from './compileLater.ts';

// discriminator: a body of several kinds (a command) is checked against the schema its tag names.
const COMMON: Options = {
  allErrors: false,
  removeAdditional: false,
  useDefaults: true,
  strict: false,
  discriminator: true,
};
const bodyAjv = addFormats.default(new Ajv({ ...COMMON, coerceTypes: false }));
const textAjv = addFormats.default(new Ajv({ ...COMMON, coerceTypes: 'array' }));

// Times the database can store: PostgreSQL has no year 0, and years past 9999 are no real input.
const EARLIEST = Date.parse('0001-01-01T00:00:00Z');
const LATEST = Date.parse('9999-12-31T23:59:59.999Z');
for (const ajv of [bodyAjv, textAjv]) {
  const base = ajv.formats['date-time'] as { validate: (value: string) => boolean };
  ajv.addFormat('date-time', (value: string) => {
    const time = Date.parse(value);
    return base.validate(value) && time >= EARLIEST && time <= LATEST;
  });
}

// Compiled on a route's first request, once per process for equal schemas (compileLater.ts).
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart, url }) => {
  const part = httpPart ?? 'body';
  const ajv = part === 'body' ? bodyAjv : textAjv;
  const compiled = compileLater(['validator', part === 'body', schema], () => ajv.compile(schema as object));
  return (data: unknown) => {
    const validate = compiled();
    // A body's hostile values are named first (JSON.parse already made 1e400 Infinity); query
    // strings and paths are text until coerced, so theirs are found in the coerced values.
    const error =
      (part === 'body' ? storableError(data, '') : undefined) ??
      (validate(data) ? storableError(data, '') : toAppError(validate.errors?.[0], part));
    if (!error) return { value: data };
    return { error: part === 'params' ? paramNotFound(url, error, data) : error };
  };
};

/**
 * Checks `value` against `schema` as a request body is checked (a part of a body that only a
 * handler can pick the schema of); the error names the field below `prefix`.
 */
export function checkBody(schema: object, value: unknown, prefix: string): void {
  const validate = compileLater(['validator', true, schema], () => bodyAjv.compile(schema))();
  if (validate(value)) return;
  const error = validate.errors?.[0];
  throw toAppError(error && { ...error, instancePath: `/${prefix}${error.instancePath}` }, 'body');
}

/** Deeper free-form JSON (e.g. an event's data) is refused: it would overflow the stack when stored. */
const MAX_DEPTH = 64;

/**
 * Values that pass the schema but that the database cannot hold: U+0000 and lone UTF-16
 * surrogates in text (also in the keys of free-form objects, which go into jsonb; jsonb refuses a
 * lone surrogate and text would store U+FFFD instead), numbers beyond double precision (JSON's
 * 1e400 is Infinity: jsonb would store null), unsafe integers, nesting deeper than MAX_DEPTH.
 */
function storableError(value: unknown, path: string, depth = 0): AppError | undefined {
  if (typeof value === 'string') return textError(value, path);
  if (typeof value === 'number' && !Number.isFinite(value)) return rule('finite', fieldName(path));
  if (typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value)) {
    return value > 0
      ? rule('maximum', fieldName(path), { limit: Number.MAX_SAFE_INTEGER })
      : rule('minimum', fieldName(path), { limit: Number.MIN_SAFE_INTEGER });
  }
  if (typeof value === 'object' && value !== null) {
    if (depth >= MAX_DEPTH) {
      return rule('value', fieldName(path), {
        detail: `must not be nested more than ${MAX_DEPTH} levels deep`,
      });
    }
    for (const [key, child] of Object.entries(value)) {
      const error = textError(key, path, key) ?? storableError(child, `${path}/${key}`, depth + 1);
      if (error) return error;
    }
  }
  return undefined;
}

// The field is named only when there is an error: this runs on every string of every request.
function textError(text: string, path: string, key?: string): AppError | undefined {
  if (text.includes('\u0000')) return rule('character', fieldName(path, key));
  if (!text.isWellFormed()) return rule('surrogate', fieldName(path, key));
  return undefined;
}

/**
 * A query string whose names or values are not percent-encoded UTF-8 (`%FF`, or `%ED%A0%80`, a
 * lone surrogate encoded as if it were UTF-8) is a 400 naming the parameter: the parser would
 * otherwise keep the undecodable text as it came, and the request would ask for something else.
 */
export function refuseUndecodableQuery(request: FastifyRequest): void {
  const { url } = request;
  const question = url.indexOf('?');
  if (question < 0) return;
  const query = url.slice(question + 1);
  if (query === '' || !query.includes('%')) return;
  for (const pair of query.split('&')) {
    const [name = '', value = ''] = pair.split('=');
    const decodedName = decodable(name);
    if (decodedName === undefined || decodable(value) === undefined) {
      throw rule('encoding', decodedName ?? name);
    }
  }
}

function decodable(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/** 404 for the path parameter that failed, named after the collection segment before it. */
function paramNotFound(url: string, error: AppError, data: unknown): AppError {
  const name = String(error.params.field);
  const segments = url.split('/');
  const collection = segments[segments.indexOf(`:${name}`) - 1] ?? 'resource';
  const id = (data as Record<string, unknown> | null)?.[name];
  return new AppError('NOT_FOUND', {
    resource: collection.replace(/s$/, ''),
    id: String(id ?? ''),
  });
}

const fieldName = (path: string, child?: string) =>
  [...path.split('/').filter((part) => part !== ''), ...(child === undefined ? [] : [child])].join('.');

/** The first Ajv error as an AppError that names the field and the rule. */
export function toAppError(error: ErrorObject | undefined, httpPart: string): AppError {
  if (!error) return new AppError('VALIDATION_FAILED', { rule: 'value', field: '', detail: 'invalid' });
  const params = error.params as Record<string, unknown>;
  const field = fieldName(error.instancePath, undefined);
  switch (error.keyword) {
    case 'additionalProperties': {
      const unknown = fieldName(error.instancePath, String(params.additionalProperty));
      return new AppError(httpPart === 'querystring' ? 'UNKNOWN_QUERY_PARAMETER' : 'UNKNOWN_FIELD', {
        field: unknown,
      });
    }
    case 'required':
      return rule('required', fieldName(error.instancePath, String(params.missingProperty)));
    case 'type':
      if (field === '' && httpPart === 'body') return rule('body', field);
      return rule('type', field, { expected: String(params.type) });
    case 'minimum':
    case 'maximum':
    case 'minLength':
    case 'maxLength':
    case 'minItems':
    case 'maxItems':
      return rule(error.keyword, field, { limit: Number(params.limit) });
    case 'exclusiveMinimum':
      return rule('value', field, { detail: `must be greater than ${String(params.limit)}` });
    case 'format':
      return rule('format', field, { format: String(params.format) });
    case 'enum':
      return rule('enum', field, { allowed: (params.allowedValues as unknown[]).join(', ') });
    case 'const':
      return rule('enum', field, { allowed: String(params.allowedValue) });
    case 'pattern':
      return rule('pattern', field);
    case 'discriminator': {
      const tag = fieldName(error.instancePath, String(params.tag));
      if (params.error === 'tag' && params.tagValue === undefined) return rule('required', tag);
      return rule('value', tag, {
        detail: `${JSON.stringify(params.tagValue)} is not one of the known kinds`,
      });
    }
    default:
      return rule('value', field, { detail: error.message ?? error.keyword });
  }
}

const rule = (name: string, field: string, extra: Record<string, string | number> = {}) =>
  new AppError('VALIDATION_FAILED', { rule: name, field, ...extra });
