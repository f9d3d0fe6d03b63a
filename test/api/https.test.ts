// HTTPS (docs/settings.md, BRIDGE_TLS_*): with BRIDGE_TLS_CERT_FILE and BRIDGE_TLS_KEY_FILE the service speaks
// TLS itself. A self-signed certificate made with openssl; real requests over node:https that
// trust exactly that certificate; plain HTTP on the same port gets no answer.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { TLSSocket } from 'node:tls';
import { type App, createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { freshDatabase } from '../support/databases.ts';
import { removeTempDirs, tempDir } from '../support/process.ts';
import { commandExists, needs } from '../support/suite.ts';

const CLIENT = { id: 'tls-client', secret: 'tls-client-secret-0123456789' };

interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: a parsed JSON body, checked field by field below
  body: Record<string, any>;
  fingerprint: string | undefined;
}

/** One HTTPS request that trusts only `ca`; the server certificate's fingerprint is returned too. */
function httpsRequest(
  url: string,
  options: { ca?: Buffer; method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = https.request(
      url,
      { method: options.method ?? 'GET', headers: options.headers, ca: options.ca, agent: false },
      (response) => {
        const fingerprint = (response.socket as TLSSocket).getPeerCertificate().fingerprint256;
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => {
          text += chunk;
        });
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: JSON.parse(text), fingerprint }),
        );
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

const opensslMissing = needs('openssl', commandExists('openssl'), 'apt-get install openssl');

describe('HTTPS with a configured certificate and key', { skip: opensslMissing }, () => {
  let app: App | undefined;
  let cert: Buffer;
  let port: number;

  before(async () => {
    const dir = tempDir('tls');
    const certFile = join(dir, 'cert.pem');
    const keyFile = join(dir, 'key.pem');
    // Self-signed for localhost and 127.0.0.1 (Node checks the subjectAltName, not the CN).
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-days', '1'].concat([
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
        '-keyout',
        keyFile,
        '-out',
        certFile,
      ]),
      { stdio: 'ignore' },
    );
    cert = readFileSync(certFile);
    const config = loadConfig({
      BRIDGE_LOG_LEVEL: 'silent',
      BRIDGE_TLS_CERT_FILE: certFile,
      BRIDGE_TLS_KEY_FILE: keyFile,
      BRIDGE_BOOTSTRAP_CLIENT_ID: CLIENT.id,
      BRIDGE_BOOTSTRAP_CLIENT_SECRET: CLIENT.secret,
      BRIDGE_DELIVERY_ENABLED: 'false',
    });
    const database = await freshDatabase('pglite');
    app = await createApp(config, database.db);
    await app.server.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.server.address() as AddressInfo).port;
  });

  after(async () => {
    await app?.close();
    removeTempDirs();
  });

  test('health answers over HTTPS with the configured certificate', async () => {
    const answer = await httpsRequest(`https://localhost:${port}/health/live`, { ca: cert });
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, { status: 'UP' });
    // The server presented exactly the certificate from BRIDGE_TLS_CERT_FILE.
    assert.equal(answer.fingerprint, new X509Certificate(cert).fingerprint256);
  });

  test('the token endpoint and the API work over HTTPS', async () => {
    const basic = Buffer.from(`${CLIENT.id}:${CLIENT.secret}`).toString('base64');
    const token = await httpsRequest(`https://127.0.0.1:${port}/oauth/token`, {
      ca: cert,
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    assert.equal(token.status, 200, JSON.stringify(token.body));
    assert.equal(token.body.token_type, 'bearer');
    assert.equal(token.body.scope, 'read write');

    const workplaces = await httpsRequest(`https://127.0.0.1:${port}/api/v2/workplaces`, {
      ca: cert,
      headers: { authorization: `Bearer ${token.body.access_token}` },
    });
    assert.equal(workplaces.status, 200);
    // Absolute hrefs name the scheme the request came with.
    assert.equal(
      workplaces.body._links.self.href,
      `https://127.0.0.1:${port}/api/v2/workplaces?limit=100&offset=0`,
    );
  });

  test('a client that does not trust the certificate is refused by its own TLS check', async () => {
    await assert.rejects(httpsRequest(`https://localhost:${port}/health/live`), {
      code: 'DEPTH_ZERO_SELF_SIGNED_CERT',
    });
  });

  test('plain HTTP to the HTTPS port gets no HTTP answer', async () => {
    const outcome = await new Promise<string>((resolve) => {
      const request = http.get({ host: '127.0.0.1', port, path: '/health/live', agent: false }, (response) =>
        resolve(`answered ${response.statusCode}`),
      );
      request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    });
    // The TLS server drops the connection: no status line, no health body.
    assert.ok(['ECONNRESET', 'EPIPE'].includes(outcome), `plain HTTP got: ${outcome}`);
  });
});
