// The first start as a newcomer meets it (README "Quick start"): the client is printed only once
// the service listens; a first start that cannot listen leaves the data directory (or the
// PostgreSQL database) as it found it, so the next start prints a client and seeds the demo; the
// port clash and database failures name the setting to change; the console log for people.
// A failing first start on PGlite creates its database before it tries the port: slow on a busy
// machine, hence the start-up bound for its exit.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { after, afterEach, describe, test } from 'node:test';
import { BACKENDS, freshDatabase, migratedDataDir } from '../support/databases.ts';
import {
  killAll,
  removeTempDirs,
  START_TIMEOUT_MS,
  spawnBridge,
  tempDir,
  waitUntil,
} from '../support/process.ts';

afterEach(killAll);
after(async () => {
  await killAll();
  removeTempDirs();
});

/** A TCP port held by another program for the test's duration. */
async function occupiedPort(): Promise<{ port: number; server: Server }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as { port: number }).port, server };
}

const closeServer = (server: Server) => new Promise((resolve) => server.close(resolve));

const PORT_MESSAGE = /^Port (\d+) is already in use \(127\.0\.0\.1:\1\).*BRIDGE_PORT/m;

describe('first start that cannot listen', () => {
  test('PGlite: exit 1 naming BRIDGE_PORT, no client printed, no data directory left; the next start is a first start (client, demo)', async () => {
    const blocker = await occupiedPort();
    const dataDir = join(tempDir('first-start-port'), 'data');
    try {
      const failed = spawnBridge({ BRIDGE_DATA_DIR: dataDir, BRIDGE_PORT: String(blocker.port) });
      assert.equal((await failed.exit(START_TIMEOUT_MS)).code, 1, failed.output());
      assert.match(failed.stderr(), PORT_MESSAGE);
      assert.doesNotMatch(failed.output(), /client_secret/);
      assert.equal(existsSync(dataDir), false, 'the data directory the start created is gone');
    } finally {
      await closeServer(blocker.server);
    }

    // The demo as the default run has it (BRIDGE_DEMO=auto), small so it seeds quickly.
    const next = spawnBridge({ BRIDGE_DATA_DIR: dataDir, BRIDGE_DEMO: 'auto', BRIDGE_DEMO_SIZE: '5' });
    // A real first start creates its database: the slowest start there is on a busy machine.
    await next.listening(2 * START_TIMEOUT_MS);
    await waitUntil(() => /client_secret:\s+\S+/.test(next.stdout()), {
      what: 'a new client',
      process: next,
    });
    const listening = next.stdout().indexOf('Server listening at');
    assert.ok(listening >= 0 && listening < next.stdout().indexOf('client_secret:'), next.stdout());
    // The banner comes again below the seeding's lines, so it does not scroll away.
    await waitUntil(
      () => /Demo plant seeded[\s\S]*Sign in .* with the first OAuth client/.test(next.stdout()),
      {
        what: 'the demo seeded and the credentials repeated',
        process: next,
        timeoutMs: 120_000,
      },
    );
    const secrets = [...next.stdout().matchAll(/client_secret:\s+(\S+)/g)].map((match) => match[1]);
    assert.equal(secrets.length, 2, next.stdout());
    assert.equal(secrets[0], secrets[1]);
    next.child.kill('SIGTERM');
    assert.equal((await next.exit()).code, 0, next.output());
  });

  test('PGlite: an empty data directory that existed is left existing and empty', async () => {
    const blocker = await occupiedPort();
    const dataDir = join(tempDir('first-start-empty'), 'data');
    mkdirSync(dataDir);
    try {
      const failed = spawnBridge({ BRIDGE_DATA_DIR: dataDir, BRIDGE_PORT: String(blocker.port) });
      assert.equal((await failed.exit(START_TIMEOUT_MS)).code, 1, failed.output());
      assert.match(failed.stderr(), PORT_MESSAGE);
      assert.deepEqual(readdirSync(dataDir), []);
    } finally {
      await closeServer(blocker.server);
    }
  });

  test('PGlite: a data directory in use keeps everything when the port is taken', async () => {
    const dataDir = join(tempDir('first-start-kept'), 'data');
    await migratedDataDir(dataDir);
    const before = readdirSync(dataDir).sort();
    const blocker = await occupiedPort();
    try {
      const failed = spawnBridge({ BRIDGE_DATA_DIR: dataDir, BRIDGE_PORT: String(blocker.port) });
      assert.equal((await failed.exit(START_TIMEOUT_MS)).code, 1, failed.output());
      assert.match(failed.stderr(), PORT_MESSAGE);
      assert.deepEqual(readdirSync(dataDir).sort(), before);
    } finally {
      await closeServer(blocker.server);
    }
    const again = spawnBridge({ BRIDGE_DATA_DIR: dataDir });
    // The untouched directory still opens.
    await again.listening();
    again.child.kill('SIGTERM');
    await again.exit();
  });

  test('PostgreSQL: the client of a start that cannot listen is not kept; the next start prints one', {
    skip: !BACKENDS.includes('postgres') && 'no PostgreSQL',
  }, async () => {
    const database = await freshDatabase('postgres');
    const blocker = await occupiedPort();
    try {
      const failed = spawnBridge({ DATABASE_URL: String(database.url), BRIDGE_PORT: String(blocker.port) });
      assert.equal((await failed.exit(START_TIMEOUT_MS)).code, 1, failed.output());
      assert.match(failed.stderr(), PORT_MESSAGE);
      assert.doesNotMatch(failed.output(), /client_secret/);
      assert.deepEqual(await database.db.query('SELECT client_id FROM oauth_clients'), []);
      await closeServer(blocker.server);
      const next = spawnBridge({ DATABASE_URL: String(database.url) });
      await next.listening();
      await waitUntil(() => /client_secret:\s+\S+/.test(next.stdout()), { what: 'a client', process: next });
      const rows = await database.db.query<{ scopes: string[] }>('SELECT scopes FROM oauth_clients');
      assert.deepEqual(
        rows.map((row) => row.scopes),
        [['read', 'write', 'admin']],
      );
      next.child.kill('SIGTERM');
      await next.exit();
    } finally {
      if (blocker.server.listening) await closeServer(blocker.server);
      await database.drop();
    }
  });
});

describe('database failures at start name DATABASE_URL and the fix', {
  skip: !BACKENDS.includes('postgres') && 'no PostgreSQL',
}, () => {
  test('connection refused', async () => {
    const { port, server } = await occupiedPort();
    await closeServer(server);
    const bridge = spawnBridge({ DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/bridge` });
    assert.equal((await bridge.exit()).code, 1, bridge.output());
    assert.match(
      bridge.stderr(),
      new RegExp(
        `^Cannot connect to PostgreSQL at 127\\.0\\.0\\.1:${port} \\(DATABASE_URL\\): the connection was refused\\. Start PostgreSQL there, or correct DATABASE_URL`,
      ),
    );
  });

  test('unknown database', async () => {
    const bridge = spawnBridge({
      DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/bridge_no_such_database',
    });
    assert.equal((await bridge.exit()).code, 1, bridge.output());
    assert.match(
      bridge.stderr(),
      /^PostgreSQL at 127\.0\.0\.1:5432 has no database "bridge_no_such_database" \(DATABASE_URL\)\. Create it \(createdb bridge_no_such_database/m,
    );
  });

  test('a user the server refuses', async () => {
    const bridge = spawnBridge({ DATABASE_URL: 'postgres://bridge_no_such_user:pw@127.0.0.1:5432/postgres' });
    assert.equal((await bridge.exit()).code, 1, bridge.output());
    assert.match(
      bridge.stderr(),
      /^PostgreSQL at 127\.0\.0\.1:5432 refused user "bridge_no_such_user" \(DATABASE_URL\): .*Put the right user and password in DATABASE_URL/m,
    );
    assert.doesNotMatch(bridge.output(), /:pw@/);
  });
});

describe('console log', () => {
  test('BRIDGE_LOG_FORMAT=pretty: lines for people; request lines only at BRIDGE_LOG_REQUESTS=info', async () => {
    const dataDir = join(tempDir('pretty'), 'data');
    await migratedDataDir(dataDir);
    const quiet = spawnBridge({ BRIDGE_DATA_DIR: dataDir, BRIDGE_LOG_FORMAT: 'pretty' });
    const base = await quiet.listening();
    assert.match(quiet.stdout(), /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: Server listening at http/m);
    assert.equal(quiet.logs().length, 0, 'no JSON lines');
    await (await fetch(`${base}/health/live`, { headers: { 'x-request-id': 'quiet-1' } })).text();
    quiet.child.kill('SIGTERM');
    assert.equal((await quiet.exit()).code, 0);
    assert.match(quiet.stdout(), /INFO: stopped/);
    assert.doesNotMatch(quiet.stdout(), /request completed/);

    const loud = spawnBridge({
      BRIDGE_DATA_DIR: dataDir,
      BRIDGE_LOG_FORMAT: 'json',
      BRIDGE_LOG_REQUESTS: 'info',
    });
    const url = await loud.listening();
    await (await fetch(`${url}/health/live`, { headers: { 'x-request-id': 'loud-1' } })).text();
    await waitUntil(() => loud.logs().some((line) => line.reqId === 'loud-1'), {
      what: 'the request line',
      process: loud,
    });
    const line = loud.logs().find((entry) => entry.reqId === 'loud-1');
    assert.equal(line?.msg, 'request completed');
    assert.equal(line?.level, 30);
    loud.child.kill('SIGTERM');
    await loud.exit();
  });
});
