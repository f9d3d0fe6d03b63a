// The worked examples of docs/resources/connectors.md map machine states to the operating
// states they mean: running is not a malfunction.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { OPERATING_STATES } from '../../src/domain/masterData.ts';

const DOC = readFileSync(new URL('../../docs/resources/connectors.md', import.meta.url), 'utf8');

const descriptionOf = (code: string) =>
  OPERATING_STATES.find((state) => state.code === code)?.description['en-GB'];

test('RUN maps to Production and a fault to Malfunction in every worked example', () => {
  const mappings = [...DOC.matchAll(/"values": (\{[^}]*\})/g)].map((match) => JSON.parse(match[1] as string));
  assert.ok(mappings.length >= 3, 'the worked examples are found');
  for (const values of mappings) {
    assert.equal(descriptionOf(values.RUN), 'Production', JSON.stringify(values));
    if (values.FAULT) assert.equal(descriptionOf(values.FAULT), 'Malfunction');
    for (const code of Object.values(values))
      assert.ok(descriptionOf(String(code)), `${code} is an operating state`);
  }
});

test('the sample payloads carry no fixed past time a retention would delete at once', () => {
  const times = [...DOC.matchAll(/"ts":\s*"(\d{4}-\d\d-\d\dT[^"]+)"/g)].map((match) => match[1]);
  assert.deepEqual(times, []);
});
