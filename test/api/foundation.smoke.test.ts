import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachBackend, json } from '../support/app.ts';

describeEachBackend('smoke', (t) => {
  test('entry point answers', async () => {
    const response = await t().request({ url: '/api/v2' });
    assert.equal(response.statusCode, 200);
    assert.equal(json(response).properties.version, 2);
  });
});
