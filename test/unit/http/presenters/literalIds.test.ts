import assert from 'node:assert/strict';
import { test } from 'node:test';
import { literalIdOf } from '../../../../src/http/presenters/literalIds.ts';

// md5 of the names, computed outside the project.
const KNOWN = {
  'workplaces/1/description': '8867434677AC7FFC3C37756E67B69A85',
  'materials/M-1/description': '5E8EBC8482497FE2517032C76F7B2507',
};

test('a literal id is the md5 of its name in upper-case hex, as the migrations derive it', () => {
  for (const [name, id] of Object.entries(KNOWN)) assert.equal(literalIdOf(name), id);
});

test('ids stay right once the remembered ones have been let go', () => {
  for (let i = 0; i < 25_000; i++) literalIdOf(`operations/${i}/description`);
  for (const [name, id] of Object.entries(KNOWN)) assert.equal(literalIdOf(name), id);
});
