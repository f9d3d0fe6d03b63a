// How a validated body or query becomes a service's input (src/http/schemas/common.ts): absent
// properties as null in the schema's order, and date-time fields as Dates.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Type } from 'typebox';
import { absentAsNull, Nullable, withDates } from '../../../../src/http/schemas/common.ts';

const Body = Type.Object({
  number: Type.String(),
  description: Type.Optional(Nullable(Type.String())),
  quantity: Type.Optional(Type.Number()),
  unit: Type.Optional(Type.String()),
});

test('absentAsNull gives every property of the schema, absent ones as null, in the schema order', () => {
  const input = absentAsNull(Body, { unit: 'pcs', quantity: 0, number: 'A-1' });
  assert.deepEqual(input, { number: 'A-1', description: null, quantity: 0, unit: 'pcs' });
  // Services compare the JSON text of what they store, so the order is part of the result.
  assert.equal(JSON.stringify(input), '{"number":"A-1","description":null,"quantity":0,"unit":"pcs"}');
});

test('withDates reads the named fields as Dates and leaves absent, null and other fields alone', () => {
  const query = { from: '2024-05-01T06:00:00Z', to: null, until: undefined, name: '2024-05-01T06:00:00Z' };
  const read = withDates(query, 'from', 'to', 'until');
  assert.deepEqual(read, {
    from: new Date('2024-05-01T06:00:00Z'),
    to: null,
    until: undefined,
    name: '2024-05-01T06:00:00Z',
  });
  assert.equal(query.from, '2024-05-01T06:00:00Z', 'the query itself is not changed');
});
