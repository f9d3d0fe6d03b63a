// Media types (docs/api.md "Languages and media types", "Representations (HAL)"): Accept application/hal+json gets that content type, anything
// else application/json, with the same compact body; request bodies are JSON in any of its
// spellings (charset parameter, +json types such as application/hal+json, any letter case).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeEachBackend, json } from '../support/app.ts';

const HAL = 'application/hal+json; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';
const GROUPS = '/api/v2/workplaceGroups';

describeEachBackend('media types', (t) => {
  /** A capacity group of the test's own; returns its id. */
  async function createGroup(number: string): Promise<string> {
    const response = await t().request({
      method: 'POST',
      url: GROUPS,
      body: { number, type: 'CAPACITY_GROUP' },
    });
    assert.equal(response.statusCode, 201, response.body);
    return json(response).properties.id;
  }

  test('Accept decides the content type; the body is the same byte for byte', async () => {
    const groupId = await createGroup('MT-G');
    for (const url of ['/api/v2', GROUPS, `${GROUPS}/${groupId}`, '/api/v2/masterData/operatingStates']) {
      const plain = await t().request({ url });
      assert.equal(plain.statusCode, 200, url);
      assert.equal(plain.headers['content-type'], JSON_TYPE, url);
      // Compact single-line JSON (docs/api.md "Representations (HAL)").
      assert.doesNotMatch(plain.body, /\n/);
      for (const [accept, type] of [
        ['application/hal+json', HAL],
        ['application/hal+json, application/json;q=0.9', HAL],
        ['application/json', JSON_TYPE],
        ['*/*', JSON_TYPE],
        ['application/*', JSON_TYPE],
        ['text/html', JSON_TYPE],
      ]) {
        const response = await t().request({ url, headers: { accept: String(accept) } });
        assert.equal(response.headers['content-type'], type, `${url} Accept: ${accept}`);
        assert.equal(response.body, plain.body, `${url} Accept: ${accept}`);
      }
    }
  });

  test('error answers follow the same negotiation', async () => {
    const url = `${GROUPS}/0190a4c2-0000-7000-8000-000000000000`;
    const plain = await t().request({ url });
    const hal = await t().request({ url, headers: { accept: 'application/hal+json' } });
    assert.equal(plain.statusCode, 404);
    assert.equal(plain.headers['content-type'], JSON_TYPE);
    assert.equal(hal.headers['content-type'], HAL);
    assert.equal(hal.body, plain.body);
  });

  test('request bodies: application/json with charset, +json types, any case', async () => {
    const groupId = await createGroup('MT-R');
    const types = [
      'application/json',
      'application/json; charset=utf-8',
      'application/json;charset=UTF-8',
      'application/hal+json',
      'application/hal+json; charset=utf-8',
      'Application/JSON',
      'application/vnd.bridge+json',
    ];
    for (const [index, type] of types.entries()) {
      const response = await t().request({
        method: 'POST',
        url: GROUPS,
        body: JSON.stringify({ number: `MT-${index}`, type: 'PRODUCTION_LINE' }),
        headers: { 'content-type': type },
      });
      assert.equal(response.statusCode, 201, `${type}: ${response.body}`);
      assert.equal(json(response).properties.number, `MT-${index}`);
    }
    const replaced = await t().request({
      method: 'PUT',
      url: `${GROUPS}/${groupId}`,
      body: JSON.stringify({ number: 'MT-R', type: 'CAPACITY_GROUP', description: 'replaced as HAL' }),
      headers: { 'content-type': 'application/hal+json', accept: 'application/hal+json' },
    });
    assert.equal(replaced.statusCode, 200, replaced.body);
    assert.equal(replaced.headers['content-type'], HAL);
    assert.equal(json(replaced).properties.description, 'replaced as HAL');
  });

  test('UTF-8 text survives the round trip', async () => {
    const description = 'Größe – 机器 – ✓';
    const created = await t().request({
      method: 'POST',
      url: GROUPS,
      body: Buffer.from(
        JSON.stringify({ number: 'MT-UTF8', type: 'CAPACITY_GROUP', description }),
      ).toString(),
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
    assert.equal(created.statusCode, 201, created.body);
    const read = await t().request({ url: String(created.headers.location) });
    assert.equal(json(read).properties.description, description);
    // Declared as UTF-8 and really UTF-8 on the wire.
    assert.equal(read.headers['content-type'], JSON_TYPE);
    assert.ok(read.rawPayload.includes(Buffer.from('机器', 'utf8')));
  });
});
