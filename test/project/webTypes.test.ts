// The dashboard's modules (src/web, plain ES modules served as they are) are type-checked with
// their JSDoc types: `tsc -p src/web` (checkJs, the DOM's types) passes.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

test('tsc -p src/web: the dashboard type-checks', () => {
  const tsc = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));
  const run = spawnSync(process.execPath, [tsc, '-p', 'src/web/tsconfig.json'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, `${run.stdout}${run.stderr}`);
});
