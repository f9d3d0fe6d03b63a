import assert from 'node:assert/strict';
import { test } from 'node:test';
import { translate } from '../../../src/domain/masterDataEntries.ts';

const shift = {
  id: 'L1',
  translations: [
    { language: 'de-DE', translation: 'Frühschicht' },
    { language: 'en-GB', translation: 'First shift' },
  ],
};

test('a literal in the asked language', () => {
  assert.equal(translate(shift, 'en-GB'), 'First shift');
  assert.equal(translate(shift, 'de-DE'), 'Frühschicht');
});

test('a language the literal lacks falls back to en-GB, then to its first translation', () => {
  assert.equal(translate(shift, 'zh-CN'), 'First shift');
  assert.equal(
    translate({ id: 'L3', translations: [{ language: 'de-DE', translation: 'Pause' }] }, 'zh-CN'),
    'Pause',
  );
});

test('no literal or no translation is null', () => {
  assert.equal(translate(null, 'en-GB'), null);
  assert.equal(translate({ id: 'L2', translations: [] }, 'en-GB'), null);
});
