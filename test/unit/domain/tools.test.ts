// The tool rules that need no database: the state a tool shows, what counts as a characteristic
// change of a tool or edge, and when two lists of characteristics say the same.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  changedEdgeCharacteristics,
  changedToolCharacteristics,
  NO_LIFE_TIME,
  sameCharacteristics,
  shownToolState,
  type ToolInput,
} from '../../../src/domain/tools.ts';

test('shownToolState: an unfinished order decides, then the tool’s own state, then the order’s final one', () => {
  assert.equal(shownToolState('AVAILABLE', 'PRESETTING'), 'IN_ASSEMBLY');
  assert.equal(shownToolState('UNAVAILABLE', 'AVAILABLE'), 'UNAVAILABLE');
  assert.equal(shownToolState(null, 'AVAILABLE'), 'AVAILABLE');
  assert.equal(shownToolState(null, null), null);
  assert.equal(shownToolState('AVAILABLE', null), 'AVAILABLE');
});

const tool: ToolInput = {
  number: 'T-1',
  description: null,
  storageLocation: null,
  workplaceId: null,
  lifespan: { remaining: 10, maximum: 100, warningLimit: 5 },
  name: 'Mill',
  identifier2: null,
  identifier3: null,
  documentUrl: null,
  group: { name: 'G', identifier: '03' },
  toolClass: null,
  lifeTime: NO_LIFE_TIME,
};

test('changedToolCharacteristics: names, identifiers, group, class and limits; not location nor used life', () => {
  assert.deepEqual(
    changedToolCharacteristics(tool, {
      ...tool,
      workplaceId: 'w',
      storageLocation: 'R',
      lifespan: { ...tool.lifespan, remaining: 1 },
      lifeTime: { ...NO_LIFE_TIME, current: 7 },
    }),
    [],
  );
  assert.deepEqual(
    changedToolCharacteristics(tool, {
      ...tool,
      name: 'Drill',
      group: { name: 'G', identifier: '04' },
      toolClass: { name: 'C', identifier: null },
      lifeTime: { ...NO_LIFE_TIME, maximum: 9 },
    }),
    ['name', 'group', 'class', 'lifeTime.maximum'],
  );
});

test('changedEdgeCharacteristics: identifier and limits, not used life', () => {
  const edge = { identifier: 'E', lifeTime: { current: 1, warningLimit: 5, maximum: 10 } };
  assert.deepEqual(
    changedEdgeCharacteristics(edge, { ...edge, lifeTime: { ...edge.lifeTime, current: 2 } }),
    [],
  );
  assert.deepEqual(
    changedEdgeCharacteristics(edge, { identifier: 'F', lifeTime: { ...edge.lifeTime, warningLimit: 6 } }),
    ['identifier', 'lifeTime.warningLimit'],
  );
});

test('sameCharacteristics: the same entries in the same order', () => {
  const a = { name: 'n', identifier: 'i', value: 'v', unit: null };
  const b = { ...a, identifier: 'j' };
  assert.equal(sameCharacteristics([a, b], [{ ...a }, { ...b }]), true);
  assert.equal(sameCharacteristics([a, b], [b, a]), false);
  assert.equal(sameCharacteristics([a], [a, b]), false);
  assert.equal(sameCharacteristics([a], [{ ...a, unit: 'MM' }]), false);
});
