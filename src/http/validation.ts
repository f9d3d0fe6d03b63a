// Request validation: one Ajv for bodies (no type coercion: a string is not a number) and one
// for query strings and paths (coercion, as everything there arrives as text). Unknown fields
// and parameters are refused, never silently dropped. Failures become localized AppErrors.
import { Ajv, type ErrorObject, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import { AppError } from '../domain/errors.ts';

const COMMON: Options = { allErrors: false, removeAdditional: false, useDefaults: true, strict: false };
const bodyAjv = addFormats.default(new Ajv({ ...COMMON, coerceTypes: false }));
const textAjv = addFormats.default(new Ajv({ ...COMMON, coerceTypes: 'array' }));

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
  const validate = (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object);
  return (data: unknown) =>
    validate(data) ? { value: data } : { error: toAppError(validate.errors?.[0], httpPart ?? 'body') };
};

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
    default:
      return rule('value', field, { detail: error.message ?? error.keyword });
  }
}

const rule = (name: string, field: string, extra: Record<string, string | number> = {}) =>
  new AppError('VALIDATION_FAILED', { rule: name, field, ...extra });
