// Where hrefs start (src/http/hrefs.ts): the public URL when set, else the request's own origin, and
// behind a trusted proxy its Forwarded / X-Forwarded-* headers; a host that is no host never gets
// into an href. Queries are written as URLSearchParams writes them.
import assert from 'node:assert/strict';
import { hostname } from 'node:os';
import { describe, test } from 'node:test';
import { Hrefs, hrefRoot, instanceRoot, requestRoot } from '../../../src/http/hrefs.ts';

const direct = { publicUrl: undefined, basePath: '', trustProxy: false };
const proxied = { ...direct, trustProxy: true };
const request = (headers: Record<string, string | string[]>, protocol = 'http') => ({ headers, protocol });

describe('Hrefs', () => {
  const hrefs = new Hrefs('https://plant.example/ff', 2);

  test('api paths are under /api/vN of the root; root paths are not', () => {
    assert.equal(hrefs.api('/workplaces/a1'), 'https://plant.example/ff/api/v2/workplaces/a1');
    assert.equal(hrefs.root('/oauth/token'), 'https://plant.example/ff/oauth/token');
    assert.equal(hrefs.version, 2);
  });

  test('a query keeps only the values that are set, encoded as URLSearchParams encodes them', () => {
    assert.equal(
      hrefs.api('/operations', { limit: 10, offset: 0, phase: undefined, q: '' }),
      `${hrefs.api('/operations')}?limit=10&offset=0`,
    );
    assert.equal(hrefs.api('/operations', {}), hrefs.api('/operations'));
    const search = new URLSearchParams({ number: 'A 1&2', at: '2030-01-01T00:00:00.000Z' }).toString();
    assert.equal(
      hrefs.api('/operations', { number: 'A 1&2', at: '2030-01-01T00:00:00.000Z' }),
      `${hrefs.api('/operations')}?${search}`,
    );
  });
});

describe('requestRoot', () => {
  test('the public URL wins over everything the request says', () => {
    const settings = { ...proxied, publicUrl: 'https://bridge.plant.example/ff', basePath: '/ignored' };
    assert.equal(
      requestRoot(settings, request({ host: 'evil.example', 'x-forwarded-host': 'x.example' })),
      'https://bridge.plant.example/ff',
    );
  });

  test('else the request origin and the base path', () => {
    assert.equal(
      requestRoot({ ...direct, basePath: '/ff' }, request({ host: 'edge:8080' })),
      'http://edge:8080/ff',
    );
    assert.equal(requestRoot(direct, request({ host: '[fd12::1]:8443' }, 'https')), 'https://[fd12::1]:8443');
  });

  test('forwarding headers count only behind a trusted proxy', () => {
    const headers = {
      host: 'internal:8080',
      'x-forwarded-proto': 'HTTPS',
      'x-forwarded-host': 'plant.example',
      'x-forwarded-prefix': '/bridge/',
    };
    assert.equal(requestRoot(direct, request(headers)), 'http://internal:8080');
    assert.equal(requestRoot(proxied, request(headers)), 'https://plant.example/bridge');
  });

  test('Forwarded (RFC 7239) comes before X-Forwarded-*; the first element of a list counts', () => {
    const headers = {
      host: 'internal',
      forwarded: 'for=10.0.0.1;proto=https;host="a.example", for=10.0.0.2;proto=http;host=b.example',
      'x-forwarded-host': 'c.example',
    };
    assert.equal(requestRoot(proxied, request(headers)), 'https://a.example');
    assert.equal(
      requestRoot(proxied, request({ host: 'internal', 'x-forwarded-host': ['d.example, e.example'] })),
      'http://d.example',
    );
  });

  test('a protocol other than http(s) and a prefix that is no path are ignored', () => {
    const headers = {
      host: 'plant.example',
      'x-forwarded-proto': 'javascript',
      'x-forwarded-prefix': 'no-slash',
    };
    assert.equal(requestRoot(proxied, request(headers)), 'http://plant.example');
  });

  test('a host that is no host gives paths from the server root, never another URL', () => {
    for (const host of ['evil.example/path', 'user@evil.example', 'a b', '"x"', 'evil.example:99999x', '']) {
      assert.equal(requestRoot({ ...direct, basePath: '/ff' }, request({ host })), '/ff', host);
    }
    assert.equal(requestRoot(direct, request({})), '');
  });
});

describe('instanceRoot and hrefRoot', () => {
  test('an instance names itself by its address, or its host name when it listens everywhere', () => {
    const settings = { publicUrl: undefined, basePath: '/ff', https: false };
    assert.equal(instanceRoot(settings, { address: '10.0.0.5', port: 8080 }), 'http://10.0.0.5:8080/ff');
    assert.equal(
      instanceRoot({ ...settings, https: true }, { address: 'fd12::5', port: 8443 }),
      'https://[fd12::5]:8443/ff',
    );
    assert.equal(instanceRoot(settings, { address: '0.0.0.0', port: 80 }), `http://${hostname()}:80/ff`);
    assert.equal(instanceRoot(settings, undefined), '/ff');
    assert.equal(
      instanceRoot({ ...settings, publicUrl: 'https://p.example' }, { address: '::', port: 1 }),
      'https://p.example',
    );
  });

  test('static documents use the public URL, else the base path', () => {
    assert.equal(hrefRoot({ publicUrl: 'https://p.example/ff', basePath: '/x' }), 'https://p.example/ff');
    assert.equal(hrefRoot({ publicUrl: undefined, basePath: '/x' }), '/x');
  });
});
