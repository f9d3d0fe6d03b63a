// The literals of the lists held in code (docs/resources/masterData.md, "Literals"): ids in the
// real API's form, one per list, entry and text, and the code's texts in every language.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  type CodeHeldList,
  entryLiteral,
  isOneOf,
  type MasterDataEntry,
  OPERATING_STATES,
  type TextProperty,
  WORKPLACE_STATES,
} from '../../../src/domain/masterData.ts';
import { OPERATION_PHASES } from '../../../src/domain/operationPhases.ts';
import { TOOL_ASSEMBLY_ORDER_STATES } from '../../../src/domain/toolAssemblyOrderStates.ts';

const LISTS: [CodeHeldList, readonly MasterDataEntry[]][] = [
  ['operatingStates', OPERATING_STATES],
  ['workplaceStates', WORKPLACE_STATES],
  ['operationPhases', OPERATION_PHASES],
  ['toolAssemblyOrderStates', TOOL_ASSEMBLY_ORDER_STATES],
];
const PROPERTIES: TextProperty[] = ['description', 'shortDescription'];

test('every text of every list has its own literal id, 32 upper-case hex digits', () => {
  const ids = LISTS.flatMap(([list, entries]) =>
    entries.flatMap((entry) => PROPERTIES.map((property) => entryLiteral(list, entry, property).id)),
  );
  for (const id of ids) assert.match(id, /^[0-9A-F]{32}$/);
  assert.equal(new Set(ids).size, ids.length);
  // The same entry id in two lists (SETUP is an operation phase; a state could share a word) differs.
  const [phase] = OPERATION_PHASES;
  assert.ok(phase);
  assert.notEqual(
    entryLiteral('operationPhases', phase, 'description').id,
    entryLiteral('workplaceStates', phase, 'description').id,
  );
});

test('a literal is stable and holds the text in every language the code writes it in', () => {
  const [production] = WORKPLACE_STATES;
  assert.ok(production);
  const literal = entryLiteral('workplaceStates', production, 'description');
  assert.deepEqual(entryLiteral('workplaceStates', production, 'description'), literal);
  assert.deepEqual(literal.translations, [
    { language: 'en-GB', translation: 'Production' },
    { language: 'de-DE', translation: 'Produktion' },
    { language: 'zh-CN', translation: '生产' },
  ]);
});

test('isOneOf takes exactly the ids of its list, by their exact spelling', () => {
  const isState = isOneOf(['OPEN', 'DONE'] as const);
  assert.equal(isState('OPEN'), true);
  assert.equal(isState('DONE'), true);
  assert.equal(isState('open'), false);
  assert.equal(isState(''), false);
});
