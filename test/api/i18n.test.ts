// Languages (docs/api.md "Languages and media types"): Accept-Language picks en-GB (default), en-US, de-DE or zh-CN, honouring
// q-values and falling back by language, then to en-GB; Content-Language says which one answered.
// Error messages and master-data descriptions are localized. The unit part checks the message
// catalogue itself: every key in every language with the same placeholders, every error code and
// every validation rule with a message.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ErrorObject } from 'ajv';
import { AppError, ERROR_STATUS, type ErrorCode } from '../../src/domain/errors.ts';
import { toAppError } from '../../src/http/validation.ts';
import { LOCALES, type Locale } from '../../src/i18n/locales.ts';
import { MESSAGE_KEYS, message } from '../../src/i18n/messages.ts';
import { describeEachBackend, json } from '../support/app.ts';

const MISSING_ID = '0190a4c2-0000-7000-8000-000000000000';
const NOT_FOUND: Record<Locale, string> = {
  'en-GB': `There is no workplace with id '${MISSING_ID}'.`,
  'en-US': `There is no workplace with id '${MISSING_ID}'.`,
  'de-DE': `Es gibt kein workplace mit der ID '${MISSING_ID}'.`,
  'zh-CN': `不存在 id 为 '${MISSING_ID}' 的 workplace。`,
};
// Operating state 110 in master data (src/domain/masterData.ts).
const MALFUNCTION: Record<Locale, { description: string; shortDescription: string }> = {
  'en-GB': { description: 'Malfunction', shortDescription: 'Fault' },
  'en-US': { description: 'Malfunction', shortDescription: 'Fault' },
  'de-DE': { description: 'Störung', shortDescription: 'Störung' },
  'zh-CN': { description: '故障', shortDescription: '故障' },
};

const headerFor = (language: string | undefined): Record<string, string> =>
  language === undefined ? {} : { 'accept-language': language };

describeEachBackend('languages over HTTP', (t) => {
  test('an error message in each language, with Content-Language', async () => {
    const seen = new Set<string>();
    for (const [language, locale] of [
      [undefined, 'en-GB'],
      ['en-GB', 'en-GB'],
      ['en-US', 'en-US'],
      ['de-DE', 'de-DE'],
      ['zh-CN', 'zh-CN'],
    ] as const) {
      const response = await t().request({
        url: `/api/v2/workplaces/${MISSING_ID}`,
        headers: headerFor(language),
      });
      assert.deepEqual(json(response), { status: 404, code: 'NOT_FOUND', message: NOT_FOUND[locale] });
      assert.equal(response.headers['content-language'], locale, String(language));
      seen.add(json(response).message);
    }
    // English, German and Chinese really differ.
    assert.equal(seen.size, 3);
  });

  test('validation messages are localized too', async () => {
    const expected: [string, string][] = [
      ['en-GB', "Field 'limit' must be at most 100."],
      ['de-DE', "Das Feld 'limit' darf höchstens 100 sein."],
      ['zh-CN', "字段 'limit' 不能大于 100。"],
    ];
    for (const [language, text] of expected) {
      const response = await t().request({
        url: '/api/v2/workplaces?limit=101',
        headers: headerFor(language),
      });
      assert.deepEqual(json(response), { status: 400, code: 'VALIDATION_FAILED', message: text });
      assert.equal(response.headers['content-language'], language);
    }
  });

  test('master data descriptions in each language: operating state 110', async () => {
    for (const locale of LOCALES) {
      const response = await t().request({
        url: '/api/v2/masterData/operatingStates',
        headers: headerFor(locale),
      });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['content-language'], locale);
      const states = json(response)._embedded.operatingStates as { properties: Record<string, string> }[];
      const malfunction = states.find((state) => state.properties.code === '110');
      assert.deepEqual(
        {
          description: malfunction?.properties.description,
          shortDescription: malfunction?.properties.shortDescription,
        },
        MALFUNCTION[locale],
        locale,
      );
      // Every entry is translated: Chinese texts are in Chinese script.
      if (locale === 'zh-CN') {
        for (const state of states) assert.match(state.properties.description ?? '', /\p{Script=Han}/u);
      }
    }
    const one = await t().request({
      url: '/api/v2/masterData/workplaceStates/DOWNTIME',
      headers: headerFor('de-DE'),
    });
    assert.equal(json(one).properties.description, 'Stillstand');
  });

  test("a workplace's operating state is described in the asked language", async () => {
    const group = json(
      await t().request({
        method: 'POST',
        url: '/api/v2/workplaceGroups',
        body: { number: 'I18N-G', type: 'CAPACITY_GROUP' },
      }),
    );
    const created = await t().request({
      method: 'POST',
      url: '/api/v2/workplaces',
      body: { number: 'I18N-W', capacityGroupId: group.properties.id, operatingStateId: '110' },
    });
    assert.equal(created.statusCode, 201, created.body);
    const url = `/api/v2/workplaces/${json(created).properties.id}`;
    for (const locale of LOCALES) {
      const response = await t().request({ url, headers: headerFor(locale) });
      assert.equal(json(response).properties.operatingState.description, MALFUNCTION[locale].description);
      assert.equal(response.headers['content-language'], locale);
    }
  });

  test('q-values, fallback by language, unknown tags', async () => {
    const cases: [string, Locale][] = [
      ['', 'en-GB'],
      ['de;q=0.5, zh-CN;q=0.9', 'zh-CN'],
      ['zh-CN;q=0, de-DE', 'de-DE'], // q=0: not acceptable at all
      ['fr-FR, de-DE;q=0.8', 'de-DE'], // unsupported first choice skipped
      ['en-US;q=0.8, de-DE;q=0.8', 'en-US'], // equal q: the first listed
      ['de-AT', 'de-DE'],
      ['de-CH;q=0.9, en-US;q=0.8', 'de-DE'],
      ['de', 'de-DE'],
      ['en-EN', 'en-GB'],
      ['en', 'en-GB'],
      ['en-AU', 'en-GB'],
      ['zh-TW', 'zh-CN'],
      ['zh', 'zh-CN'],
      ['DE-de', 'de-DE'], // tags are case-insensitive
      ['en-us', 'en-US'],
      ['fr-FR', 'en-GB'],
      ['fr-FR;q=1, ja;q=0.9', 'en-GB'],
      ['*', 'en-GB'],
      ['*;q=0.5, zh-CN', 'zh-CN'],
      [';;q=x,,de', 'de-DE'], // garbage around a usable tag
      ['q=1', 'en-GB'],
    ];
    const wrong: string[] = [];
    for (const [header, locale] of cases) {
      const response = await t().request({
        url: `/api/v2/workplaces/${MISSING_ID}`,
        headers: { 'accept-language': header },
      });
      const got = `${String(response.headers['content-language'])} ${json(response).message}`;
      if (response.statusCode !== 404 || got !== `${locale} ${NOT_FOUND[locale]}`)
        wrong.push(`'${header}' -> ${response.statusCode} ${got}`);
    }
    assert.deepEqual(wrong, []);
  });
});

describe('message catalogue', () => {
  const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

  test('every key has en-GB, de-DE and zh-CN text with the same placeholders', () => {
    assert.ok(MESSAGE_KEYS.length >= Object.keys(ERROR_STATUS).length);
    for (const key of MESSAGE_KEYS) {
      // Without parameters, message() leaves the placeholders in place.
      const texts = Object.fromEntries(LOCALES.map((locale) => [locale, message(key, locale, {})]));
      const english = texts['en-GB'] ?? '';
      assert.ok(english.length > 0 && english !== key, `${key}: no en-GB text`);
      // A missing translation falls back to en-GB: a German or Chinese text equal to it is missing.
      assert.notEqual(texts['de-DE'], english, `${key}: no de-DE text`);
      assert.notEqual(texts['zh-CN'], english, `${key}: no zh-CN text`);
      assert.match(texts['zh-CN'] ?? '', /\p{Script=Han}/u, `${key}: zh-CN text is not Chinese`);
      for (const locale of LOCALES) {
        assert.deepEqual(placeholders(texts[locale] ?? ''), placeholders(english), `${key} ${locale}`);
      }
    }
  });

  test('every error code has a message', () => {
    const missing = (Object.keys(ERROR_STATUS) as ErrorCode[]).filter(
      (code) => !MESSAGE_KEYS.some((key) => key === code || key.startsWith(`${code}.`)),
    );
    assert.deepEqual(missing, []);
    // And every key belongs to a code (no orphans from renamed codes).
    const orphans = MESSAGE_KEYS.filter((key) => !((key.split('.')[0] ?? '') in ERROR_STATUS));
    assert.deepEqual(orphans, []);
  });

  test('every validation rule has a message whose placeholders its parameters fill', () => {
    // One Ajv error per keyword the validation layer maps (src/http/validation.ts).
    const ajvError = (keyword: string, params: Record<string, unknown>, instancePath = '/field') =>
      ({ keyword, params, instancePath, schemaPath: '#', message: `fails ${keyword}` }) as ErrorObject;
    const errors: [string, AppError][] = [
      [
        'additionalProperties body',
        toAppError(ajvError('additionalProperties', { additionalProperty: 'x' }, ''), 'body'),
      ],
      [
        'additionalProperties query',
        toAppError(ajvError('additionalProperties', { additionalProperty: 'x' }, ''), 'querystring'),
      ],
      ['required', toAppError(ajvError('required', { missingProperty: 'x' }, ''), 'body')],
      ['type', toAppError(ajvError('type', { type: 'string' }), 'body')],
      ['type of the whole body', toAppError(ajvError('type', { type: 'object' }, ''), 'body')],
      ...['minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems'].map(
        (keyword) => [keyword, toAppError(ajvError(keyword, { limit: 3 }), 'body')] as [string, AppError],
      ),
      ['exclusiveMinimum', toAppError(ajvError('exclusiveMinimum', { limit: 0 }), 'body')],
      ['format', toAppError(ajvError('format', { format: 'uuid' }), 'body')],
      ['enum', toAppError(ajvError('enum', { allowedValues: ['A', 'B'] }), 'body')],
      ['const', toAppError(ajvError('const', { allowedValue: 'A' }), 'body')],
      ['pattern', toAppError(ajvError('pattern', { pattern: '^a' }), 'body')],
      ['any other keyword', toAppError(ajvError('multipleOf', { multipleOf: 2 }), 'body')],
      ['no error at all', toAppError(undefined, 'body')],
    ];
    for (const [name, error] of errors) {
      assert.ok(error instanceof AppError, name);
      // The key errors.ts looks up: validation failures by their rule.
      const key =
        error.code === 'VALIDATION_FAILED' ? `${error.code}.${String(error.params.rule)}` : error.code;
      assert.ok(MESSAGE_KEYS.includes(key), `${name}: no message for ${key}`);
      for (const locale of LOCALES) {
        const text = message(key, locale, error.params);
        assert.doesNotMatch(text, /\{\w+\}/, `${name} ${locale}: unfilled placeholder in "${text}"`);
      }
    }
  });
});
