// Accept-Language negotiation (docs/api.md, "Languages and media types"): the best supported
// locale by q-value, then by order; unknown regions fall back by language; en-GB otherwise.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_LOCALE, localize, negotiateLocale } from '../../../src/i18n/locales.ts';

test('no header, an empty one or only unsupported languages give en-GB', () => {
  for (const header of [undefined, '', 'fr-FR', 'fr, ja;q=0.5', '*']) {
    assert.equal(negotiateLocale(header), DEFAULT_LOCALE, String(header));
  }
});

test('a supported tag is taken exactly, in any letter case', () => {
  assert.equal(negotiateLocale('en-US'), 'en-US');
  assert.equal(negotiateLocale('DE-de'), 'de-DE');
  assert.equal(negotiateLocale('zh-cn'), 'zh-CN');
});

test('other regions fall back by language', () => {
  assert.equal(negotiateLocale('de-AT'), 'de-DE');
  assert.equal(negotiateLocale('en-EN'), 'en-GB');
  assert.equal(negotiateLocale('zh-TW'), 'zh-CN');
  assert.equal(negotiateLocale('de'), 'de-DE');
});

test('q-values order the ranges; equal ones keep the header order; q=0 and bad q exclude', () => {
  assert.equal(negotiateLocale('de-DE;q=0.5, zh-CN;q=0.8'), 'zh-CN');
  assert.equal(negotiateLocale('fr;q=1, de-DE;q=0.9, en-US;q=0.9'), 'de-DE');
  assert.equal(negotiateLocale('de-DE;q=0, zh-CN;q=0.1'), 'zh-CN');
  assert.equal(negotiateLocale('de-DE;q=abc'), DEFAULT_LOCALE);
  assert.equal(negotiateLocale(' en-US ; q=0.3 ,  de-DE ; q=0.2 '), 'en-US');
});

test('en-US falls back to en-GB where it has no text of its own', () => {
  const text = { 'en-GB': 'colour', 'de-DE': 'Farbe', 'zh-CN': '颜色' };
  assert.equal(localize(text, 'en-US'), 'colour');
  assert.equal(localize({ ...text, 'en-US': 'color' }, 'en-US'), 'color');
  assert.equal(localize(text, 'de-DE'), 'Farbe');
});
