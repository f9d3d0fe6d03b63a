// Validators and serializers are compiled on a route's first request (src/http/compileLater.ts).
// This compiles every one of them, so a schema that cannot compile fails here, not at a
// client's first request.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compiledCount, compileEverything } from '../../src/http/compileLater.ts';
import { startTestApp } from '../support/app.ts';

test('every request and response schema of every route compiles', async () => {
  const t = await startTestApp('pglite');
  try {
    await t.app.server.ready();
    compileEverything();
    // Hundreds of routes' schemas, compiled once each however many routes share one.
    assert.ok(compiledCount() > 100, `${compiledCount()} compiled`);
    const response = await t.request({ url: '/api/v2/workplaces?limit=1' });
    assert.equal(response.statusCode, 200, response.body);
  } finally {
    await t.close();
  }
});
