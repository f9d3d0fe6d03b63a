// Strict request bodies (docs/api.md, "Requests"): JSON in UTF-8 without a content coding; bytes
// that are not UTF-8, other charsets, compressed bodies, numbers that underflow and an id on create
// are refused with the error body, and nothing is stored. Every answer carries the security headers.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { createWorkplace, describeEachBackend, json, type TestApp } from '../support/app.ts';

const GROUPS = '/api/v2/workplaceGroups';

async function groupCount(t: TestApp): Promise<number> {
  const [row] = await t.app.db.query<{ n: number }>('SELECT count(*)::int AS n FROM workplace_groups');
  return row?.n ?? 0;
}

/** A POST of raw bytes with a bearer token. */
async function postRaw(t: TestApp, payload: Buffer, headers: Record<string, string>) {
  return t.app.server.inject({
    method: 'POST',
    url: GROUPS,
    payload,
    headers: { authorization: `Bearer ${await t.token()}`, ...headers },
  });
}

describeEachBackend('strict request bodies', (t) => {
  test('bytes that are not UTF-8 are 400 MALFORMED_JSON and store nothing', async () => {
    const before = await groupCount(t());
    const body = Buffer.concat([
      Buffer.from('{"number":"SB-'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('","type":"CAPACITY_GROUP"}'),
    ]);
    const response = await postRaw(t(), body, { 'content-type': 'application/json' });
    assert.equal(response.statusCode, 400, response.body);
    assert.deepEqual(json(response), {
      status: 400,
      code: 'MALFORMED_JSON',
      message: 'The request body is not valid UTF-8.',
    });
    assert.equal(await groupCount(t()), before);
  });

  test('a charset other than UTF-8 is 415; utf-8 in any spelling is taken', async () => {
    const before = await groupCount(t());
    const text = JSON.stringify({ number: 'SB-CHARSET', type: 'CAPACITY_GROUP' });
    for (const charset of ['utf-16', 'iso-8859-1', '"utf-16le"']) {
      const type = `application/json; charset=${charset}`;
      const response = await postRaw(t(), Buffer.from(text), { 'content-type': type });
      assert.equal(response.statusCode, 415, `${charset}: ${response.body}`);
      assert.equal(json(response).code, 'UNSUPPORTED_MEDIA_TYPE');
    }
    assert.equal(await groupCount(t()), before);
    const taken = await postRaw(t(), Buffer.from(text), {
      'content-type': 'application/json; charset="UTF8"',
    });
    assert.equal(taken.statusCode, 201, taken.body);
  });

  test('a body with a content coding is 415 and stores nothing', async () => {
    const before = await groupCount(t());
    const text = JSON.stringify({ number: 'SB-GZIP', type: 'CAPACITY_GROUP' });
    for (const [coding, payload] of [
      ['gzip', gzipSync(text)],
      ['gzip', Buffer.from(text)],
      ['br', Buffer.from(text)],
    ] as const) {
      const response = await postRaw(t(), payload, {
        'content-type': 'application/json',
        'content-encoding': coding,
      });
      assert.equal(response.statusCode, 415, `${coding}: ${response.body}`);
      assert.deepEqual(json(response), {
        status: 415,
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: `Content-Encoding '${coding}' is not supported; send the body uncompressed.`,
      });
    }
    assert.equal(await groupCount(t()), before);
    const identity = await postRaw(t(), Buffer.from(text), {
      'content-type': 'application/json',
      'content-encoding': 'identity',
    });
    assert.equal(identity.statusCode, 201, identity.body);
  });

  test('a number that underflows to 0 is 400 naming its field; 0, -0 and small numbers are taken', async () => {
    const workplaceId = await createWorkplace(t(), 'SB-WP');
    const device = await t().request({
      method: 'POST',
      url: '/api/v2/devices',
      body: { name: 'SB device', type: 'PLC', workplaceId, recordedPhysicalQuantities: [{ tag: 'T' }] },
    });
    assert.equal(device.statusCode, 201, device.body);
    const samples = `/api/v2/devices/${json(device).properties.id}/recordedTimeSeries`;
    const sample = (value: string) =>
      `{"elements":[{"tag":"T","timestamp":"2026-01-01T00:00:00Z","value":${value}}]}`;
    for (const value of ['1e-400', '-2.5E-999', '0.000001e-330']) {
      const response = await t().request({ method: 'POST', url: samples, body: sample(value) });
      assert.equal(response.statusCode, 400, `${value}: ${response.body}`);
      assert.equal(json(response).code, 'VALIDATION_FAILED');
      assert.match(json(response).message, /elements\.0\.value.*too small/);
    }
    const stored = await t().request({ url: samples });
    assert.equal(json(stored).total ?? json(stored)._embedded?.recordedTimeSeries?.length ?? 0, 0);
    // In a string the same text is text; 0 written any way, -0 and denormal numbers are numbers.
    for (const value of ['0', '-0', '0e-400', '0.0E-5', '5e-324']) {
      const response = await t().request({ method: 'POST', url: samples, body: sample(value) });
      assert.ok(response.statusCode < 300, `${value}: ${response.body}`);
    }
    const group = await t().request({
      method: 'POST',
      url: GROUPS,
      body: { number: 'SB-TEXT', type: 'CAPACITY_GROUP', description: 'rated 1e-400' },
    });
    assert.equal(group.statusCode, 201, group.body);
  });

  test('an id in a create body is 400 READ_ONLY_PROPERTY; null or absent is taken', async () => {
    const before = await groupCount(t());
    for (const id of ['0190a4c2-0000-7000-8000-000000000001', 'x'.repeat(100_000), 7]) {
      const response = await t().request({
        method: 'POST',
        url: GROUPS,
        body: { id, number: 'SB-ID', type: 'CAPACITY_GROUP' },
      });
      assert.equal(response.statusCode, 400, response.body.slice(0, 200));
      assert.equal(json(response).code, id === 7 ? 'VALIDATION_FAILED' : 'READ_ONLY_PROPERTY');
    }
    assert.equal(await groupCount(t()), before);
    const created = await t().request({
      method: 'POST',
      url: GROUPS,
      body: { id: null, number: 'SB-NULL-ID', type: 'CAPACITY_GROUP' },
    });
    assert.equal(created.statusCode, 201, created.body);
    const id = json(created).properties.id;
    // A replace may send the id back, or null, as generated clients do.
    for (const bodyId of [id, null]) {
      const replaced = await t().request({
        method: 'PUT',
        url: `${GROUPS}/${id}`,
        body: { id: bodyId, number: 'SB-NULL-ID', type: 'CAPACITY_GROUP' },
      });
      assert.equal(replaced.statusCode, 200, replaced.body);
    }
  });

  test('every answer says nosniff and may not be framed; the docs page has its own policy', async () => {
    for (const [url, options] of [
      ['/api/v2', {}],
      ['/api/v2/workplaces/0190a4c2-0000-7000-8000-000000000000', {}],
      ['/api/v2/workplaces', { anonymous: true }],
      ['/health/live', { anonymous: true }],
      ['/api/openapi.json', { anonymous: true }],
    ] as const) {
      const response = await t().request({ url, ...options });
      assert.equal(response.headers['x-content-type-options'], 'nosniff', url);
      assert.match(String(response.headers['content-security-policy']), /frame-ancestors 'none'/, url);
    }
    const page = await t().request({ url: '/api/docs', anonymous: true });
    assert.equal(page.statusCode, 200, page.body.slice(0, 200));
    const policy = String(page.headers['content-security-policy']);
    assert.match(policy, /script-src 'self'/);
    assert.match(policy, /frame-ancestors 'none'/);
    assert.doesNotMatch(policy, /upgrade-insecure-requests/);
    assert.equal(page.headers['x-content-type-options'], 'nosniff');
  });
});
