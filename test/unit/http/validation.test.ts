// How a failed validation becomes an error (src/http/validation.ts): the first Ajv error names the
// field by its path and the rule with its limit; unknown fields and query parameters get their own
// codes; a query that is not percent-encoded UTF-8 is refused naming the parameter.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Ajv, type ErrorObject } from 'ajv';
import type { FastifyRequest } from 'fastify';
import { refuseUndecodableQuery, toAppError } from '../../../src/http/validation.ts';

const ajv = new Ajv({ allErrors: false, strict: false });
const SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['number'],
  properties: {
    number: { type: 'string', minLength: 2, pattern: '^[A-Z]' },
    quantity: { type: 'integer', minimum: 0, maximum: 10, exclusiveMinimum: -1 },
    phase: { enum: ['RELEASED', 'CLOSED'] },
    kind: { const: 'MACHINE' },
    tags: { type: 'array', maxItems: 1 },
    owner: {
      type: 'object',
      additionalProperties: false,
      required: ['id'],
      properties: { id: { type: 'string' } },
    },
  },
};
const validate = ajv.compile(SCHEMA);

/** The first error Ajv reports for `value` against the schema above. */
function firstError(value: unknown): ErrorObject {
  assert.equal(validate(value), false, JSON.stringify(value));
  return validate.errors?.[0] as ErrorObject;
}

const failure = (value: unknown, part = 'body') => {
  const error = toAppError(firstError(value), part);
  return { code: error.code, params: error.params };
};

test('missing and mistyped fields name the field, nested ones by their path', () => {
  assert.deepEqual(failure({}), { code: 'VALIDATION_FAILED', params: { rule: 'required', field: 'number' } });
  assert.deepEqual(failure({ number: 'AB', owner: {} }), {
    code: 'VALIDATION_FAILED',
    params: { rule: 'required', field: 'owner.id' },
  });
  assert.deepEqual(failure({ number: 5 }), {
    code: 'VALIDATION_FAILED',
    params: { rule: 'type', field: 'number', expected: 'string' },
  });
});

test('a body that is no object is its own rule', () => {
  assert.deepEqual(failure('text'), { code: 'VALIDATION_FAILED', params: { rule: 'body', field: '' } });
  assert.deepEqual(failure('text', 'querystring'), {
    code: 'VALIDATION_FAILED',
    params: { rule: 'type', field: '', expected: 'object' },
  });
});

test('limits come with their value; enums and constants list what is allowed', () => {
  assert.deepEqual(failure({ number: 'A' }).params, { rule: 'minLength', field: 'number', limit: 2 });
  assert.deepEqual(failure({ number: 'AB', quantity: 11 }).params, {
    rule: 'maximum',
    field: 'quantity',
    limit: 10,
  });
  assert.deepEqual(failure({ number: 'AB', tags: [1, 2] }).params, {
    rule: 'maxItems',
    field: 'tags',
    limit: 1,
  });
  assert.deepEqual(failure({ number: 'AB', phase: 'OPEN' }).params, {
    rule: 'enum',
    field: 'phase',
    allowed: 'RELEASED, CLOSED',
  });
  assert.deepEqual(failure({ number: 'AB', kind: 'LINE' }).params, {
    rule: 'enum',
    field: 'kind',
    allowed: 'MACHINE',
  });
  assert.deepEqual(failure({ number: 'ab' }).params, { rule: 'pattern', field: 'number' });
});

test('unknown fields and unknown query parameters are named by their full path', () => {
  assert.deepEqual(failure({ number: 'AB', colour: 'red' }), {
    code: 'UNKNOWN_FIELD',
    params: { field: 'colour' },
  });
  assert.deepEqual(failure({ number: 'AB', owner: { id: 'x', name: 'y' } }), {
    code: 'UNKNOWN_FIELD',
    params: { field: 'owner.name' },
  });
  assert.deepEqual(failure({ number: 'AB', limit: 1 }, 'querystring'), {
    code: 'UNKNOWN_QUERY_PARAMETER',
    params: { field: 'limit' },
  });
});

test('no error at all is still a validation failure, never a pass', () => {
  assert.equal(toAppError(undefined, 'body').code, 'VALIDATION_FAILED');
});

test('a query that is not percent-encoded UTF-8 is refused naming the parameter', () => {
  const check = (url: string) => refuseUndecodableQuery({ url } as FastifyRequest);
  for (const url of ['/a', '/a?', '/a?x=1&y=%C3%A4', '/a?name=Gr%C3%B6%C3%9Fe+1'])
    assert.doesNotThrow(() => check(url), url);
  for (const [url, field] of [
    ['/a?x=1&number=%FF', 'number'],
    ['/a?number=%ED%A0%80', 'number'],
    ['/a?%FF=1', '%FF'],
  ] as const) {
    assert.throws(
      () => check(url),
      (error: { code?: string; params?: Record<string, unknown> }) =>
        error.code === 'VALIDATION_FAILED' &&
        error.params?.rule === 'encoding' &&
        error.params.field === field,
      url,
    );
  }
});
