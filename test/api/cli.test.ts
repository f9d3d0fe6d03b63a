// The `bridge clients` CLI run as a real child process, against a PGlite data directory and (when
// reachable) a fresh PostgreSQL database: add shows the secret once, list never shows it, only an
// scrypt hash is stored, the printed credentials get a token, remove deletes, bad input exits 2.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createApp } from '../../src/app.ts';
import { verifySecret } from '../../src/auth/secrets.ts';
import { loadConfig } from '../../src/config.ts';
import type { Database } from '../../src/db/database.ts';
import { openDatabase } from '../../src/db/open.ts';
import { BACKENDS, freshDatabase, migratedDataDir } from '../support/databases.ts';
import { type Run, runBridge } from '../support/process.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const NODE = join(ROOT, 'node_modules/.bin/node');
const SAVED_ONCE = 'The secret is stored only as a hash: keep it now, it cannot be shown again.';

const bridge = runBridge;

const configFor = (env: Record<string, string>) =>
  loadConfig({ BRIDGE_LOG_LEVEL: 'silent', BRIDGE_DELIVERY_ENABLED: 'false', ...env });

/**
 * Opens the CLI's database in this process for a look, and closes it again: a PGlite data
 * directory must not be open in two processes, so this only runs between CLI calls.
 */
async function inspect<T>(env: Record<string, string>, look: (db: Database) => Promise<T>): Promise<T> {
  const db = await openDatabase(configFor(env));
  try {
    return await look(db);
  } finally {
    await db.close();
  }
}

/** The client lines of `clients list`: id, scopes, created, name (tab-separated). */
const listed = (run: Run) =>
  run.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.split('\t'));

const USAGE_START = 'Usage: bridge <command>\n';

for (const backend of BACKENDS) {
  describe(`bridge clients CLI [${backend}]`, () => {
    let env: Record<string, string> = {};
    let cleanup: (() => Promise<void>) | undefined;
    // The client made by the first test, used by the ones after it (tests in a describe run in order).
    let clientId = '';
    let clientSecret = '';

    before(async () => {
      if (backend === 'pglite') {
        const dir = await mkdtemp(join(tmpdir(), 'bridge-cli-'));
        env = { BRIDGE_DATA_DIR: join(dir, 'data') };
        await migratedDataDir(join(dir, 'data'));
        cleanup = () => rm(dir, { recursive: true, force: true });
      } else {
        // The database's own pool stays open (idle) until drop(): drop() closes it itself, and
        // closing it twice fails before the database is dropped.
        const database = await freshDatabase('postgres');
        env = { DATABASE_URL: String(database.url) };
        cleanup = () => database.drop();
      }
    });
    after(async () => {
      await cleanup?.();
    });

    test('clients add prints the id and the secret, once', async () => {
      const run = await bridge(env, 'clients', 'add', '--scopes', 'read,write', '--name', 'x');
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stderr, '');
      const match = /^client_id: +(\S+)\nclient_secret: +(\S+)\nscopes: +read write\n(.*)\n$/.exec(
        run.stdout,
      );
      assert.ok(match, run.stdout);
      [, clientId = '', clientSecret = ''] = match;
      assert.equal(match[3], SAVED_ONCE);
      assert.match(clientId, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      assert.ok(clientSecret.length >= 32, 'secret too short');
      assert.equal(run.stdout.split(clientSecret).length - 1, 1, 'the secret is printed exactly once');
    });

    test('clients list shows the client but never its secret or hash', async () => {
      const run = await bridge(env, 'clients', 'list');
      assert.equal(run.code, 0, run.stderr);
      const line = listed(run).find(([id]) => id === clientId);
      assert.ok(line, run.stdout);
      assert.equal(line.length, 4);
      assert.deepEqual([line[0], line[1], line[3]], [clientId, 'read write', 'x']);
      assert.ok(!Number.isNaN(Date.parse(String(line[2]))), `created: ${line[2]}`);
      assert.ok(!run.stdout.includes(clientSecret), 'list printed the secret');
      assert.ok(!run.stdout.includes('scrypt$'), 'list printed the hash');
    });

    test('the secret is stored only as an scrypt hash', async () => {
      const rows = await inspect(env, (db) =>
        db.query<Record<string, unknown>>('SELECT * FROM oauth_clients WHERE client_id = $1', [clientId]),
      );
      assert.equal(rows.length, 1);
      const row = rows[0] ?? {};
      const hash = String(row.secret_hash);
      // scrypt$N$r$p$salt$key: 16-byte salt and 32-byte key in base64url.
      assert.match(hash, /^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
      assert.ok(!JSON.stringify(row).includes(clientSecret), 'the row holds the secret in clear');
      assert.equal(await verifySecret(clientSecret, hash), true);
      assert.equal(await verifySecret(`${clientSecret}x`, hash), false);
    });

    test('the printed credentials get a token that works on the API', async () => {
      const app = await createApp(configFor(env));
      try {
        // The database already has a client, so the app must not make a bootstrap one.
        assert.equal(app.createdClient, undefined);
        const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`);
        const response = await app.server.inject({
          method: 'POST',
          url: '/oauth/token',
          headers: {
            authorization: `Basic ${basic.toString('base64')}`,
            'content-type': 'application/x-www-form-urlencoded',
          },
          payload: 'grant_type=client_credentials',
        });
        assert.equal(response.statusCode, 200, response.body);
        const body = response.json();
        assert.equal(body.scope, 'read write');
        const entry = await app.server.inject({
          method: 'GET',
          url: '/api/v2',
          headers: { authorization: `Bearer ${body.access_token}` },
        });
        assert.equal(entry.statusCode, 200, entry.body);
      } finally {
        await app.close();
      }
    });

    test('clients add --scopes read --id makes a read-only client with that id; the id cannot repeat', async () => {
      const run = await bridge(env, 'clients', 'add', '--scopes', 'read', '--id', 'line 7 robot');
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /^client_id: +line 7 robot\nclient_secret: +\S+\nscopes: +read\n/);

      const again = await bridge(env, 'clients', 'add', '--scopes', 'read', '--id', 'line 7 robot');
      assert.deepEqual(again, {
        code: 2,
        stdout: '',
        stderr: 'a client with id line 7 robot already exists\n',
      });

      const list = await bridge(env, 'clients', 'list');
      assert.deepEqual(
        listed(list).map(([id, scopes]) => [id, scopes]),
        [
          [clientId, 'read write'],
          ['line 7 robot', 'read'],
        ],
      );
    });

    test('bad scopes exit 2 with a clear message and create nothing', async () => {
      for (const scopes of ['read,root', '']) {
        const run = await bridge(env, 'clients', 'add', '--scopes', scopes);
        assert.deepEqual(run, {
          code: 2,
          stdout: '',
          stderr: `--scopes takes read, write, admin, comma-separated (got "${scopes}")\n`,
        });
      }
      const count = await inspect(env, (db) => db.query('SELECT client_id FROM oauth_clients'));
      assert.equal(count.length, 2);
    });

    test('clients remove deletes the client; removing it again exits 2', async () => {
      const run = await bridge(env, 'clients', 'remove', clientId);
      assert.deepEqual(run, { code: 0, stdout: `removed ${clientId}\n`, stderr: '' });

      const list = await bridge(env, 'clients', 'list');
      assert.deepEqual(
        listed(list).map(([id]) => id),
        ['line 7 robot'],
      );
      const rows = await inspect(env, (db) =>
        db.query('SELECT 1 FROM oauth_clients WHERE client_id = $1', [clientId]),
      );
      assert.equal(rows.length, 0);

      const again = await bridge(env, 'clients', 'remove', clientId);
      assert.deepEqual(again, { code: 2, stdout: '', stderr: `no client with id ${clientId}\n` });
    });
  });
}

// Usage errors need no database; the data directory given must not even be created.
describe('bridge CLI usage errors', () => {
  let dir = '';
  let env: Record<string, string> = {};
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bridge-cli-usage-'));
    env = { BRIDGE_DATA_DIR: join(dir, 'data') };
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  test('an unknown command says so before the usage and exits 2', async () => {
    const run = await bridge(env, 'frobnicate');
    assert.equal(run.code, 2, run.stderr);
    assert.equal(run.stdout, '');
    assert.ok(run.stderr.startsWith(`unknown command: frobnicate\n${USAGE_START}`), run.stderr);
    assert.equal(existsSync(env.BRIDGE_DATA_DIR ?? ''), false);
  });

  for (const [args, first] of [
    [['clients', 'rename'], 'clients: unexpected "rename"'],
    [['clients', 'remove'], 'clients: remove needs a client id'],
    [['clients'], 'clients: an action is needed'],
  ] as const) {
    test(`"bridge ${args.join(' ')}" says what is wrong, prints the clients help and exits 2`, async () => {
      const run = await bridge(env, ...args);
      assert.equal(run.code, 2, run.stderr);
      assert.equal(run.stdout, '');
      assert.ok(run.stderr.startsWith(`${first}\nUsage: bridge clients`), run.stderr);
      for (const command of ['clients add', 'clients list', 'clients remove <client-id>']) {
        assert.ok(run.stderr.includes(command), `help lacks "${command}"`);
      }
      assert.equal(existsSync(env.BRIDGE_DATA_DIR ?? ''), false);
    });
  }

  test('an unknown option names the option, prints the command help and exits 2', async () => {
    const run = await bridge(env, 'clients', 'add', '--bogus');
    assert.equal(run.code, 2, run.stderr);
    assert.equal(run.stdout, '');
    assert.ok(run.stderr.startsWith(`Unknown option '--bogus'`), run.stderr);
    assert.ok(run.stderr.includes('Usage: bridge clients'), run.stderr);
    assert.equal(existsSync(env.BRIDGE_DATA_DIR ?? ''), false);
  });

  for (const command of [
    'start',
    'migrate',
    'seed',
    'simulate',
    'clients',
    'events',
    'callbacks',
    'connectors',
  ]) {
    test(`"bridge ${command} --help" prints that command's help and exits 0`, async () => {
      const run = await bridge(env, command, '--help');
      assert.equal(run.code, 0, run.stderr);
      assert.ok(run.stdout.startsWith(`Usage: bridge ${command}`), run.stdout);
      assert.ok(!run.stdout.startsWith(USAGE_START), run.stdout);
      assert.match(run.stdout, /Exit codes:/);
      assert.equal(existsSync(env.BRIDGE_DATA_DIR ?? ''), false);
    });
  }

  test('seed and simulate refuse an option of the other command', async () => {
    const run = await bridge(env, 'seed', '--rate', '5');
    assert.equal(run.code, 2, run.stderr);
    assert.ok(run.stderr.startsWith(`Unknown option '--rate'`), run.stderr);
    assert.ok(run.stderr.includes('Usage: bridge seed'), run.stderr);
    assert.equal(existsSync(env.BRIDGE_DATA_DIR ?? ''), false);
  });
});

// The young-generation bound (docs/operations.md, "Memory") holds however the service is started:
// `bridge` through its shebang line, `npm start` and `npm run bridge` through package.json.
test('the bridge command and the npm scripts run Node with the same flags', async () => {
  const shebang = readFileSync(join(ROOT, 'src/cli/main.ts'), 'utf8').split('\n')[0] ?? '';
  const flags = /^#!\/usr\/bin\/env -S node (.+)$/.exec(shebang)?.[1];
  assert.ok(flags?.includes('--max-semi-space-size='), shebang);
  assert.ok(flags?.includes('--heap-growing-percent='), shebang);
  const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  assert.equal(scripts.start, `node ${flags} src/cli/main.ts start`);
  assert.equal(scripts.bridge, `node ${flags} src/cli/main.ts`);
  // Node accepts them (a misspelt V8 flag would stop every start).
  const run = spawnSync(NODE, [...(flags ?? '').split(' '), '-e', ''], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
});
