// Error messages (src/i18n/messages.ts): by code or `CODE.variant` in every locale, parameters
// filled in by name; a variant without its own text uses its code's.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LOCALES } from '../../../src/i18n/locales.ts';
import { MESSAGE_KEYS, message } from '../../../src/i18n/messages.ts';

test('parameters are filled in by name, in every locale', () => {
  assert.equal(
    message('VALIDATION_FAILED.maximum', 'en-GB', { field: 'limit', limit: 100 }),
    "Field 'limit' must be at most 100.",
  );
  assert.equal(
    message('VALIDATION_FAILED.maximum', 'de-DE', { field: 'limit', limit: 100 }),
    "Das Feld 'limit' darf höchstens 100 sein.",
  );
  assert.equal(
    message('VALIDATION_FAILED.maximum', 'zh-CN', { field: 'limit', limit: 100 }),
    "字段 'limit' 不能大于 100。",
  );
});

test('a missing parameter stays visible as its placeholder; an unknown key is itself', () => {
  assert.equal(
    message('VALIDATION_FAILED.maximum', 'en-GB', { field: 'limit' }),
    "Field 'limit' must be at most {limit}.",
  );
  assert.equal(message('NO_SUCH_CODE', 'de-DE', {}), 'NO_SUCH_CODE');
});

test('a variant without its own text falls back to its code', () => {
  const code = MESSAGE_KEYS.find((key) => !key.includes('.'));
  assert.ok(code, 'a message keyed by a bare code');
  assert.equal(message(`${code}.someVariant`, 'en-GB', {}), message(code, 'en-GB', {}));
});

test('every message has a non-empty text in every locale, with the same placeholders', () => {
  for (const key of MESSAGE_KEYS) {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    const english = placeholders(message(key, 'en-GB', {}));
    for (const locale of LOCALES) {
      const text = message(key, locale, {});
      assert.ok(text.length > 0 && text !== key, `${key} in ${locale}`);
      assert.deepEqual(placeholders(text), english, `placeholders of ${key} in ${locale}`);
    }
  }
});
