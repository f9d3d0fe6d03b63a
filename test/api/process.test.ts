// The real process (README "Quick start" and "Running it"): `bridge start` as a user runs it, with its output
// captured. First-start credentials, bootstrap client, graceful stop on SIGTERM/SIGINT, the PGlite
// data directory lock, request ids in the logs and no secrets in them; the same on PostgreSQL.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { after, afterEach, before, describe, test } from 'node:test';
import { BACKENDS, freshDatabase, migratedDataDir, type TestDatabase } from '../support/databases.ts';
import {
  type BridgeProcess,
  killAll,
  removeTempDirs,
  spawnBridge,
  tempDir,
  waitUntil,
} from '../support/process.ts';
import { forgeSignature } from '../support/tokens.ts';

const FORM = 'application/x-www-form-urlencoded';
const GRANT = 'grant_type=client_credentials';
const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

interface Answer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: a parsed JSON body, checked field by field below
  body: Record<string, any>;
}

async function call(url: string, init: RequestInit = {}): Promise<Answer> {
  // Bounded so a server that accepts but never answers fails the test instead of hanging it.
  const response = await fetch(url, { signal: AbortSignal.timeout(30_000), ...init });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? {} : JSON.parse(text) };
}

/** A token by HTTP Basic; asserts success and returns the token answer. */
async function token(base: string, id: string, secret: string, scope?: string) {
  const body = scope === undefined ? GRANT : `${GRANT}&scope=${scope}`;
  const answer = await call(`${base}/oauth/token`, {
    method: 'POST',
    headers: { authorization: basic(id, secret), 'content-type': FORM },
    body,
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body as { access_token: string; token_type: string; expires_in: number; scope: string };
}

async function assertWorkplacesReachable(base: string, accessToken: string): Promise<void> {
  const answer = await call(`${base}/api/v2/workplaces`, {
    headers: { authorization: `Bearer ${accessToken}` },
  });
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  // The collection's self link names the paging it applied.
  assert.equal(answer.body._links.self.href, `${base}/api/v2/workplaces?limit=100&offset=0`);
}

/** Sends SIGTERM/SIGINT and checks the graceful path: exit code 0 and 'stopped' logged. */
async function stopGracefully(bridge: BridgeProcess, signal: 'SIGTERM' | 'SIGINT'): Promise<void> {
  bridge.child.kill(signal);
  assert.deepEqual(await bridge.exit(), { code: 0, signal: null }, bridge.output());
  const messages = bridge.logs().map((line) => line.msg);
  assert.ok(messages.includes('stopped'), `'stopped' not logged:\n${bridge.output()}`);
  const shutdown = bridge.logs().find((line) => line.msg === 'shutting down: finishing requests in flight');
  assert.equal(shutdown?.signal, signal);
}

const credentialsIn = (stdout: string) => ({
  id: /client_id:\s+(\S+)/.exec(stdout)?.[1],
  secret: /client_secret:\s+(\S+)/.exec(stdout)?.[1],
});

// A failed test must not leave its process running (it would hold the data directory lock).
afterEach(killAll);
after(async () => {
  await killAll();
  removeTempDirs();
});

describe('process on PGlite: first start', () => {
  const dataDir = join(tempDir('first-start'), 'data');
  let first: { id: string; secret: string } | undefined;

  test('the first start prints a client id and secret once, and they get a token', async () => {
    const bridge = spawnBridge({ BRIDGE_DATA_DIR: dataDir });
    const base = await bridge.listening();
    // Printed once the service listens, right after that line.
    await waitUntil(() => bridge.stdout().includes('Get a token with:'), {
      what: 'the credentials',
      process: bridge,
    });
    const { id, secret } = credentialsIn(bridge.stdout());
    assert.ok(id && secret, `no credentials printed:\n${bridge.stdout()}`);
    assert.equal(bridge.stdout().split('client_secret:').length - 1, 1, 'the secret is printed exactly once');
    first = { id, secret };

    const answer = await token(base, id, secret);
    assert.equal(answer.token_type, 'bearer');
    // The first client also manages clients (/clients, docs/resources/clients.md).
    assert.equal(answer.scope, 'read write admin');
    assert.equal(answer.expires_in, 3600);
    await assertWorkplacesReachable(base, answer.access_token);
    await stopGracefully(bridge, 'SIGTERM');
  });

  test('a second start on the same data directory prints no credentials; the old ones still work', async () => {
    assert.ok(first, 'needs the credentials of the first start (previous test)');
    const bridge = spawnBridge({ BRIDGE_DATA_DIR: dataDir });
    const base = await bridge.listening();
    assert.doesNotMatch(bridge.output(), /client_secret|client_id/);
    const answer = await token(base, first.id, first.secret);
    await assertWorkplacesReachable(base, answer.access_token);
    await stopGracefully(bridge, 'SIGTERM');
  });
});

describe('process on PGlite: bootstrap client, shutdown, lock, logs', () => {
  const dataDir = join(tempDir('bootstrap'), 'data');
  // A migrated database without clients (the first start has its own suite above).
  before(() => migratedDataDir(dataDir));
  const lockFile = join(dataDir, 'bridge.lock');
  const client = { id: 'line-3-mes', secret: 'bootstrap-secret-7f3a9c2e5b' };
  const bootstrap = (scopes: string) => ({
    BRIDGE_DATA_DIR: dataDir,
    BRIDGE_BOOTSTRAP_CLIENT_ID: client.id,
    BRIDGE_BOOTSTRAP_CLIENT_SECRET: client.secret,
    BRIDGE_BOOTSTRAP_CLIENT_SCOPES: scopes,
  });

  test('bootstrap settings give a client with exactly those scopes and nothing is printed', async () => {
    // A database without clients: without the settings, this start would print a new client.
    const bridge = spawnBridge(bootstrap('read'));
    const base = await bridge.listening();
    assert.doesNotMatch(bridge.output(), /client_secret|client_id/);

    const answer = await token(base, client.id, client.secret);
    assert.equal(answer.scope, 'read');
    await assertWorkplacesReachable(base, answer.access_token);
    // Exactly those scopes: write can neither be asked for nor used.
    const refused = await call(`${base}/oauth/token`, {
      method: 'POST',
      headers: { authorization: basic(client.id, client.secret), 'content-type': FORM },
      body: `${GRANT}&scope=write`,
    });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.error, 'invalid_scope');
    const write = await call(`${base}/api/v2/workplaceGroups`, {
      method: 'POST',
      headers: { authorization: `Bearer ${answer.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ number: 'G1', type: 'CAPACITY_GROUP' }),
    });
    assert.equal(write.status, 403);
    assert.equal(write.body.code, 'INSUFFICIENT_SCOPE');
    await stopGracefully(bridge, 'SIGTERM');
  });

  test('SIGTERM: a request in flight completes, then the process stops with code 0 and unlocks', async () => {
    // debug: the line a request's arrival writes (at info only its completion is logged).
    const bridge = spawnBridge({ ...bootstrap('read write'), BRIDGE_LOG_LEVEL: 'debug' });
    const base = await bridge.listening();
    assert.equal(readFileSync(lockFile, 'utf8'), String(bridge.pid));

    // A token request whose body is only half sent: in flight until the test sends the rest.
    const body = GRANT;
    const request = http.request(`${base}/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: basic(client.id, client.secret),
        'content-type': FORM,
        'content-length': String(Buffer.byteLength(body)),
        'x-request-id': 'in-flight-1',
      },
    });
    const response = new Promise<{ status: number; body: string }>((resolve, reject) => {
      request.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      });
      request.on('error', reject);
    });
    request.write(body.slice(0, 10));
    await waitUntil(
      () => bridge.logs().some((line) => line.reqId === 'in-flight-1' && line.msg === 'incoming request'),
      { what: 'the server to receive the request', process: bridge },
    );

    bridge.child.kill('SIGTERM');
    // New connections are refused while the request in flight is still open.
    await waitUntil(
      async () =>
        fetch(`${base}/health/live`).then(
          () => false,
          () => true,
        ),
      { what: 'the listener to close', process: bridge },
    );
    assert.equal(bridge.child.exitCode, null, 'the process waits for the request in flight');

    request.end(body.slice(10));
    const answer = await response;
    assert.equal(answer.status, 200, answer.body);
    assert.equal(JSON.parse(answer.body).token_type, 'bearer');

    assert.deepEqual(await bridge.exit(), { code: 0, signal: null }, bridge.output());
    assert.ok(
      bridge.logs().some((line) => line.msg === 'stopped'),
      bridge.output(),
    );
    assert.equal(existsSync(lockFile), false, 'the lock file is removed');
  });

  test('SIGINT (Ctrl-C) stops the same way', async () => {
    const bridge = spawnBridge(bootstrap('read write'));
    const base = await bridge.listening();
    assert.equal((await call(`${base}/health/ready`)).status, 200);
    await stopGracefully(bridge, 'SIGINT');
    assert.equal(existsSync(lockFile), false, 'the lock file is removed');
  });

  test('a second process on the same data directory is refused while the first runs', async () => {
    const owner = spawnBridge(bootstrap('read write'));
    const base = await owner.listening();

    const intruder = spawnBridge(bootstrap('read write'));
    assert.deepEqual(await intruder.exit(60_000), { code: 1, signal: null });
    assert.ok(
      intruder
        .stderr()
        .includes(`The data directory ${dataDir} is in use by process ${owner.pid}. Stop that process first`),
      intruder.output(),
    );
    assert.doesNotMatch(intruder.output(), /Server listening/);
    // The refused process left the owner's lock and database alone.
    assert.equal(readFileSync(lockFile, 'utf8'), String(owner.pid));
    assert.deepEqual((await call(`${base}/health/ready`)).body, {
      status: 'UP',
      database: 'UP',
      delivery: 'UP',
    });
    await stopGracefully(owner, 'SIGTERM');
  });

  test('a stale lock left by a dead process is taken over', async () => {
    // The pid of a process that has exited (as after kill -9 or a power cut).
    const dead = spawnBridge({}, ['--no-such-command']);
    await dead.exit();
    writeFileSync(lockFile, String(dead.pid));

    const bridge = spawnBridge(bootstrap('read write'));
    await bridge.listening();
    assert.equal(readFileSync(lockFile, 'utf8'), String(bridge.pid));
    await stopGracefully(bridge, 'SIGTERM');
    assert.equal(existsSync(lockFile), false);
  });

  test('JSON logs carry request ids, x-request-id is honoured and echoed, secrets never appear', async () => {
    // trace: the most a log can say, and still no secret may be in it.
    const bridge = spawnBridge({ ...bootstrap('read write'), BRIDGE_LOG_LEVEL: 'trace' });
    const base = await bridge.listening();

    // The secret as HTTP Basic, as form fields, and a wrong one; tokens as Bearer headers.
    const viaBasic = await call(`${base}/oauth/token`, {
      method: 'POST',
      headers: {
        authorization: basic(client.id, client.secret),
        'content-type': FORM,
        'x-request-id': 'req-basic',
      },
      body: GRANT,
    });
    assert.equal(viaBasic.status, 200);
    assert.equal(viaBasic.headers.get('x-request-id'), 'req-basic');
    const viaForm = await call(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': FORM },
      body: `${GRANT}&client_id=${client.id}&client_secret=${client.secret}`,
    });
    assert.equal(viaForm.status, 200);
    const wrongSecret = 'wrong-secret-d41d8cd98f00b204';
    const refused = await call(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': FORM },
      body: `${GRANT}&client_id=${client.id}&client_secret=${wrongSecret}`,
    });
    assert.equal(refused.status, 401);

    const tokens = [viaBasic.body.access_token as string, viaForm.body.access_token as string];
    const read = await call(`${base}/api/v2/workplaces`, {
      headers: { authorization: `Bearer ${tokens[0]}`, 'x-request-id': 'req-bearer' },
    });
    assert.equal(read.status, 200);
    assert.equal(read.headers.get('x-request-id'), 'req-bearer');
    const forged = forgeSignature(tokens[1] as string);
    const rejected = await call(`${base}/api/v2/workplaces`, {
      headers: { authorization: `Bearer ${forged}` },
    });
    assert.equal(rejected.status, 401);
    // Without the header a request id is made up, returned, and logged.
    const anonymous = await call(`${base}/health/live`);
    const generated = anonymous.headers.get('x-request-id');
    assert.ok(generated, 'a generated x-request-id is returned');

    await stopGracefully(bridge, 'SIGTERM');

    const logs = bridge.logs();
    for (const reqId of ['req-basic', 'req-bearer', generated]) {
      const lines = logs.filter((line) => line.reqId === reqId).map((line) => line.msg);
      assert.ok(lines.includes('incoming request'), `no 'incoming request' with reqId ${reqId}`);
      assert.ok(lines.includes('request completed'), `no 'request completed' with reqId ${reqId}`);
    }
    const completed = logs.find((line) => line.reqId === 'req-bearer' && line.msg === 'request completed');
    assert.equal((completed?.res as { statusCode?: number } | undefined)?.statusCode, 200);
    // Every request log line has a request id.
    assert.deepEqual(
      logs.filter((line) => 'req' in line && !('reqId' in line)),
      [],
    );

    const output = bridge.output();
    const secrets = {
      'client secret': client.secret,
      'URL-encoded client secret': encodeURIComponent(client.secret),
      'Basic credentials': basic(client.id, client.secret).slice('Basic '.length),
      'wrong secret': wrongSecret,
      'token (Basic)': tokens[0],
      'token (form)': tokens[1],
      'forged token': forged,
    };
    for (const [name, value] of Object.entries(secrets)) {
      assert.ok(value && value.length > 10);
      assert.equal(output.includes(value), false, `the ${name} appears in the output`);
    }
    // A JWT's signature alone is a secret-bearing fragment worth checking too.
    for (const value of tokens) {
      const signature = String(value).split('.')[2];
      assert.ok(signature);
      assert.equal(output.includes(signature), false, 'a token signature appears in the output');
    }
  });
});

describe('process on PostgreSQL (DATABASE_URL)', {
  skip: !BACKENDS.includes('postgres') && 'no PostgreSQL',
}, () => {
  let database: TestDatabase | undefined;
  before(async () => {
    database = await freshDatabase('postgres');
  });
  after(async () => {
    await killAll();
    await database?.drop();
  });

  test('starts on PostgreSQL: credentials, token, workplaces, graceful SIGTERM; no data directory', async () => {
    assert.ok(database?.url);
    const dataDir = join(tempDir('postgres'), 'data');
    const bridge = spawnBridge({ DATABASE_URL: database.url, BRIDGE_DATA_DIR: dataDir });
    const base = await bridge.listening();
    await waitUntil(() => bridge.stdout().includes('Get a token with:'), {
      what: 'the credentials',
      process: bridge,
    });
    const { id, secret } = credentialsIn(bridge.stdout());
    assert.ok(id && secret, `no credentials printed:\n${bridge.stdout()}`);
    const answer = await token(base, id, secret);
    assert.equal(answer.scope, 'read write admin');
    await assertWorkplacesReachable(base, answer.access_token);

    // The client lives in that PostgreSQL database, and PGlite was never opened.
    const rows = await database.db.query<{ client_id: string }>('SELECT client_id FROM oauth_clients');
    assert.deepEqual(rows, [{ client_id: id }]);
    assert.equal(existsSync(dataDir), false);

    await stopGracefully(bridge, 'SIGTERM');
  });
});
