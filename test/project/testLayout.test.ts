// Tests mirror the code: a unit spec lives at test/unit/<path under src>.test.ts of the module it
// tests, so the spec of a module is found (and moved with it) by its path alone.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test } from 'node:test';

const ROOT = new URL('../../', import.meta.url).pathname;
const UNIT = join(ROOT, 'test/unit');

function specsUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return specsUnder(path);
    return entry.name.endsWith('.test.ts') ? [relative(UNIT, path)] : [];
  });
}

test('every unit spec names a module of src by its path', () => {
  const specs = specsUnder(UNIT);
  assert.ok(specs.length > 0, 'test/unit holds specs');
  const orphans = specs.filter((spec) => {
    const module = spec.replace(/\.test\.ts$/, '');
    return !['.ts', '.js'].some((extension) => existsSync(join(ROOT, 'src', `${module}${extension}`)));
  });
  assert.deepEqual(orphans, [], 'unit specs without a module at the same path under src');
});
