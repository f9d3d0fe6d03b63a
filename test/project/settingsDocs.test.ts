// docs/settings.md (its table) and .env.example are rendered from the settings schema in
// src/config.ts: after a setting is added or changed, `npm run settings:generate` writes both.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { SETTINGS } from '../../src/config.ts';
import { DOCS_FILE, ENV_EXAMPLE_FILE, envExample, settingsTable, withTable } from '../../src/configDocs.ts';

test('docs/settings.md holds the table the schema gives (npm run settings:generate)', () => {
  const docs = readFileSync(DOCS_FILE, 'utf8');
  assert.equal(docs, withTable(docs), 'docs/settings.md is out of date: run `npm run settings:generate`');
});

test('.env.example is the one the schema gives (npm run settings:generate)', () => {
  assert.equal(
    readFileSync(ENV_EXAMPLE_FILE, 'utf8'),
    envExample(),
    '.env.example is out of date: run `npm run settings:generate`',
  );
});

test('every setting has a row and an example line; an edited row is caught', () => {
  const table = settingsTable();
  const example = envExample();
  for (const name of Object.keys(SETTINGS)) {
    assert.match(table, new RegExp(`^\\| \`${name}\` \\|`, 'm'), name);
    assert.match(example, new RegExp(`^#${name}=`, 'm'), name);
  }
  const edited = `intro\n${table}\noutro`.replace('| `8080` |', '| `8081` |');
  assert.notEqual(withTable(edited, table), edited);
});

test('a computed default is shown in words, not as this machine’s value', () => {
  assert.match(settingsTable(), /\| `BRIDGE_TOKEN_HASH_CONCURRENCY` \| half the CPU cores, 1\.\.4 \|/);
  assert.match(envExample(), /^#BRIDGE_TOKEN_HASH_CONCURRENCY=$/m);
});
