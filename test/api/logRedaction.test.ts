// Secrets never reach the log: query values that can carry one (access_token, client_secret,
// refresh_token, password, api keys, ...) are redacted in the URL of every log line, and
// credentials in headers and bodies are not logged. The log stream of a real app is captured at
// the most verbose level and searched for every secret sent.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { TEST_CLIENT } from '../support/app.ts';
import { BACKENDS } from '../support/databases.ts';
import { type RuntimeApp, startRuntimeApp } from '../support/runtimeApp.ts';

const secret = (name: string) => `S3CRET-${name}-${Math.random().toString(36).slice(2)}`;

describe(`log redaction [${BACKENDS[0]}]`, () => {
  let r: RuntimeApp;
  let token = '';
  before(async () => {
    r = await startRuntimeApp(BACKENDS[0] ?? 'pglite', { BRIDGE_LOG_LEVEL: 'trace' });
    token = await r.app.tokens.issue(TEST_CLIENT.id, ['read', 'write']);
  });
  after(async () => {
    await r?.close();
  });

  const lines = () =>
    r
      .log()
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { req?: { url?: string } });

  test('secret-carrying query values are redacted in every request URL logged', async () => {
    const secrets: string[] = [];
    const keep = (name: string) => {
      const value = secret(name);
      secrets.push(value);
      return encodeURIComponent(value);
    };
    const urls = [
      // API route: an unknown query parameter (400) after the bearer guard let it through.
      `/api/v2/workplaceGroups?access_token=${keep('access')}`,
      // No token at all (401), the secret in the query only.
      `/api/v2/workplaceGroups?limit=5&client_secret=${keep('client')}`,
      // Unknown route (404) and another name.
      `/api/v2/noSuchThing?refresh_token=${keep('refresh')}&x=1`,
      // Names in other spellings and encodings.
      `/api/v2?Password=${keep('password')}&API_KEY=${keep('apikey')}&access%5Ftoken=${keep('encoded')}`,
      `/api/v2?id_token=${keep('id')}&my_secret=${keep('mine')}&passwd=${keep('passwd')}`,
      // A name repeated, and a value with characters that need encoding.
      `/api/v2?access_token=${keep('first')}&access_token=${keep('second a&b')}`,
    ];
    for (const url of urls) {
      const response = await r.app.server.inject({
        method: 'GET',
        url,
        headers: url.includes('client_secret') ? {} : { authorization: `Bearer ${token}` },
      });
      assert.ok(response.statusCode < 500, `${url}: ${response.statusCode}`);
    }
    // The token endpoint: secrets in the query, the body and the Basic header.
    const bodySecret = secret('body');
    const querySecret = secret('token-query');
    await r.app.server.inject({
      method: 'POST',
      url: `/oauth/token?client_secret=${querySecret}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: TEST_CLIENT.id,
        client_secret: bodySecret,
      }).toString(),
    });
    await r.app.server.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${TEST_CLIENT.id}:${TEST_CLIENT.secret}`).toString('base64')}`,
      },
      payload: 'grant_type=client_credentials',
    });
    // The FORCE Bridge alias: the client secret in the query string, then a refresh in the body.
    const alias = await r.app.server.inject({
      method: 'GET',
      url: `/ffauth/oauth2.0/accessToken?client_id=${TEST_CLIENT.id}&client_secret=${TEST_CLIENT.secret}&grant_type=client_credentials&scope=read`,
    });
    assert.equal(alias.statusCode, 200, alias.body);
    const issued = alias.json() as { access_token: string; refresh_token: string };
    const refreshed = await r.app.server.inject({
      method: 'POST',
      url: '/ffauth/oauth2.0/accessToken',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: issued.refresh_token,
        client_id: TEST_CLIENT.id,
        client_secret: TEST_CLIENT.secret,
      }).toString(),
    });
    assert.equal(refreshed.statusCode, 200, refreshed.body);
    const next = refreshed.json() as { access_token: string; refresh_token: string };
    secrets.push(bodySecret, querySecret, TEST_CLIENT.secret, token);
    secrets.push(issued.access_token, issued.refresh_token, next.access_token, next.refresh_token);

    const log = r.log();
    for (const value of secrets) {
      assert.ok(!log.includes(value), `secret ${value} found in the log`);
      assert.ok(!log.includes(encodeURIComponent(value)), `secret ${value} (encoded) found in the log`);
    }
    assert.ok(!log.includes(Buffer.from(`${TEST_CLIENT.id}:${TEST_CLIENT.secret}`).toString('base64')));

    // The URLs are logged, with only the secret values replaced.
    const logged = lines()
      .map((line) => line.req?.url)
      .filter((url) => url !== undefined);
    assert.ok(logged.includes('/api/v2/noSuchThing?refresh_token=[redacted]&x=1'), logged.join('\n'));
    assert.ok(logged.includes('/api/v2/workplaceGroups?limit=5&client_secret=[redacted]'), logged.join('\n'));
    assert.ok(
      logged.includes('/api/v2?Password=[redacted]&API_KEY=[redacted]&access%5Ftoken=[redacted]'),
      logged.join('\n'),
    );
    assert.ok(logged.includes('/oauth/token?client_secret=[redacted]'), logged.join('\n'));
    assert.ok(
      logged.includes(
        `/ffauth/oauth2.0/accessToken?client_id=${TEST_CLIENT.id}&client_secret=[redacted]&grant_type=client_credentials&scope=read`,
      ),
      logged.join('\n'),
    );
  });
});
