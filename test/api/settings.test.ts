// Settings (docs/settings.md): loadConfig is pure (it takes the environment as an object), so the
// rules are tested directly; the last tests check that the real process refuses bad settings.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { type Config, ConfigError, loadConfig, SETTINGS } from '../../src/config.ts';
import { killAll, ROOT, removeTempDirs, spawnBridge, tempDir } from '../support/process.ts';

/** The problems loadConfig reports for `env`; fails the test when it accepts the settings. */
function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError, `expected a ConfigError, got ${String(error)}`);
    return error.problems;
  }
  assert.fail(`settings were accepted: ${JSON.stringify(env)}`);
}

/** Exactly one problem, naming the variable (and the rejected value when it is shown). */
function assertOneProblem(env: Record<string, string>, variable: string, rule: RegExp): void {
  const problems = problemsOf(env);
  assert.equal(problems.length, 1, `one problem expected, got: ${problems.join(' | ')}`);
  const [problem = ''] = problems;
  assert.ok(problem.includes(variable), `"${problem}" does not name ${variable}`);
  assert.match(problem, rule);
}

// Every setting docs/settings.md documents, with its documented default and where it lands.
const DOCUMENTED_DEFAULTS: {
  variable: string;
  docs: string;
  value: (c: Config) => unknown;
  expected: unknown;
}[] = [
  { variable: 'BRIDGE_HOST', docs: '0.0.0.0', value: (c) => c.host, expected: '0.0.0.0' },
  { variable: 'BRIDGE_PORT', docs: '8080', value: (c) => c.port, expected: 8080 },
  { variable: 'BRIDGE_DATA_DIR', docs: './data', value: (c) => c.dataDir, expected: './data' },
  { variable: 'DATABASE_URL', docs: 'unset', value: (c) => c.databaseUrl, expected: undefined },
  { variable: 'BRIDGE_DB_POOL_SIZE', docs: '10', value: (c) => c.dbPoolSize, expected: 10 },
  { variable: 'BRIDGE_DB_TIMEOUT_MS', docs: '5000', value: (c) => c.dbTimeoutMs, expected: 5000 },
  { variable: 'BRIDGE_BASE_PATH', docs: 'empty', value: (c) => c.basePath, expected: '' },
  { variable: 'BRIDGE_PUBLIC_URL', docs: 'unset', value: (c) => c.publicUrl, expected: undefined },
  { variable: 'BRIDGE_TOKEN_SECRET', docs: 'unset', value: (c) => c.tokenSecret, expected: undefined },
  { variable: 'BRIDGE_TOKEN_TTL_SECONDS', docs: '3600', value: (c) => c.tokenTtlSeconds, expected: 3600 },
  { variable: 'BRIDGE_DASHBOARD', docs: 'on', value: (c) => c.dashboard, expected: true },
  {
    variable: 'BRIDGE_REFRESH_TOKEN_TTL_SECONDS',
    docs: '86400',
    value: (c) => c.refreshTokenTtlSeconds,
    expected: 86_400,
  },
  { variable: 'BRIDGE_TRUST_PROXY', docs: 'false', value: (c) => c.trustProxy, expected: false },
  {
    variable: 'BRIDGE_BOOTSTRAP_CLIENT_ID',
    docs: 'unset',
    value: (c) => c.bootstrapClient,
    expected: undefined,
  },
  { variable: 'BRIDGE_TLS_CERT_FILE', docs: 'unset', value: (c) => c.tlsCertFile, expected: undefined },
  { variable: 'BRIDGE_TLS_KEY_FILE', docs: 'unset', value: (c) => c.tlsKeyFile, expected: undefined },
  {
    variable: 'BRIDGE_BODY_LIMIT_BYTES',
    docs: '1048576',
    value: (c) => c.bodyLimitBytes,
    expected: 1_048_576,
  },
  { variable: 'BRIDGE_LOG_LEVEL', docs: 'info', value: (c) => c.logLevel, expected: 'info' },
  {
    variable: 'BRIDGE_RETENTION_EVENTS_DAYS',
    docs: '30',
    value: (c) => c.retention.eventsDays,
    expected: 30,
  },
  {
    variable: 'BRIDGE_RETENTION_SAMPLES_DAYS',
    docs: '90',
    value: (c) => c.retention.samplesDays,
    expected: 90,
  },
  // Token endpoint limits and HTTP server limits (docs/api.md, Limits).
  ...(
    [
      ['BRIDGE_TOKEN_FAILURES_PER_ADDRESS', 10, (c) => c.tokenEndpoint.failuresPerAddress],
      ['BRIDGE_TOKEN_FAILURE_WINDOW_SECONDS', 60, (c) => c.tokenEndpoint.failureWindowSeconds],
      ['BRIDGE_TOKEN_HASH_QUEUE', 32, (c) => c.tokenEndpoint.hashQueue],
      ['BRIDGE_TOKEN_HASH_QUEUE_PER_CLIENT', 8, (c) => c.tokenEndpoint.hashQueuePerClient],
      ['BRIDGE_TOKEN_VERIFIED_CACHE_SECONDS', 300, (c) => c.tokenEndpoint.verifiedCacheSeconds],
      ['BRIDGE_TOKEN_BACKOFF_AFTER_FAILURES', 5, (c) => c.tokenEndpoint.backoffAfterFailures],
      ['BRIDGE_TOKEN_BACKOFF_MAX_SECONDS', 60, (c) => c.tokenEndpoint.backoffMaxSeconds],
      ['BRIDGE_TOKEN_REFUSAL_DELAY_MS', 1000, (c) => c.tokenEndpoint.refusalDelayMs],
      ['BRIDGE_TOKEN_CLOCK_SKEW_SECONDS', 60, (c) => c.tokenEndpoint.clockSkewSeconds],
      ['BRIDGE_TOKEN_RECHECK_SECONDS', 30, (c) => c.tokenEndpoint.recheckSeconds],
      ['BRIDGE_HTTP_REQUEST_TIMEOUT_MS', 120_000, (c) => c.http.requestTimeoutMs],
      ['BRIDGE_HTTP_HEADERS_TIMEOUT_MS', 10_000, (c) => c.http.headersTimeoutMs],
      ['BRIDGE_HTTP_KEEP_ALIVE_TIMEOUT_MS', 72_000, (c) => c.http.keepAliveTimeoutMs],
      ['BRIDGE_HTTP_MAX_CONNECTIONS', 1000, (c) => c.http.maxConnections],
      ['BRIDGE_HTTP_SHUTDOWN_GRACE_MS', 10_000, (c) => c.http.shutdownGraceMs],
      ['BRIDGE_HTTP_MAX_CONNECTIONS_PER_ADDRESS', 100, (c) => c.connections.perAddress],
      ['BRIDGE_HTTP_BODY_TIMEOUT_MS', 10_000, (c) => c.connections.bodyTimeoutMs],
      ['BRIDGE_HTTP_SEND_TIMEOUT_MS', 30_000, (c) => c.connections.sendTimeoutMs],
      ['BRIDGE_LARGE_RESPONSE_BUDGET_BYTES', 12_582_912, (c) => c.memory.largeResponseBytes],
      ['BRIDGE_LARGE_RESPONSE_QUEUE', 1000, (c) => c.memory.largeResponseQueue],
      ['BRIDGE_LARGE_RESPONSE_WAIT_MS', 30_000, (c) => c.memory.largeResponseWaitMs],
      ['BRIDGE_EVENT_STREAM_TOTAL_BUFFER_BYTES', 16_777_216, (c) => c.memory.streamBufferTotalBytes],
    ] as [string, number, (c: Config) => unknown][]
  ).map(([variable, expected, value]) => ({ variable, docs: String(expected), value, expected })),
];

/** The variable -> default column of the table in docs/settings.md. */
function documentedTable(): Map<string, string> {
  const table = new Map<string, string>();
  for (const line of readFileSync(join(ROOT, 'docs/settings.md'), 'utf8').split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim().replaceAll('`', ''));
    const [, variable, fallback] = cells;
    if (variable && fallback !== undefined && /^[A-Z_]+$/.test(variable)) table.set(variable, fallback);
  }
  return table;
}

describe('settings: defaults', () => {
  test('an empty environment gives the documented defaults', () => {
    const config = loadConfig({});
    for (const { variable, value, expected } of DOCUMENTED_DEFAULTS) {
      assert.deepEqual(value(config), expected, `default of ${variable}`);
    }
  });

  test('docs/settings.md states the default the code uses', () => {
    const table = documentedTable();
    for (const { variable, docs } of DOCUMENTED_DEFAULTS) {
      assert.equal(table.get(variable), docs, `docs/settings.md row of ${variable}`);
    }
    assert.equal(table.get('BRIDGE_BOOTSTRAP_CLIENT_SCOPES'), 'read write');
  });

  test('every variable src/config.ts reads is documented in docs/settings.md', () => {
    // The issue asks for every setting documented with its default; a new setting must add a row.
    const table = documentedTable();
    const missing = Object.keys(SETTINGS).filter((variable) => !table.has(variable));
    assert.deepEqual(missing, [], `settings read in src/config.ts but missing in docs/settings.md`);
  });

  test('blank values count as unset and values are trimmed', () => {
    const config = loadConfig({ BRIDGE_PORT: '  ', BRIDGE_DATA_DIR: '', BRIDGE_LOG_LEVEL: ' warn ' });
    assert.equal(config.port, 8080);
    assert.equal(config.dataDir, './data');
    assert.equal(config.logLevel, 'warn');
  });

  test('valid values are taken as given', () => {
    const config = loadConfig({
      BRIDGE_PORT: '0',
      BRIDGE_DATA_DIR: '/var/lib/bridge',
      DATABASE_URL: 'postgresql://bridge:pw@db.example:5432/bridge',
      BRIDGE_BASE_PATH: '/ffwebservices/',
      BRIDGE_PUBLIC_URL: 'https://bridge.plant.example/ffwebservices/',
      BRIDGE_TOKEN_SECRET: 'x'.repeat(32),
      BRIDGE_TOKEN_TTL_SECONDS: '60',
      BRIDGE_TLS_CERT_FILE: '/etc/bridge/cert.pem',
      BRIDGE_TLS_KEY_FILE: '/etc/bridge/key.pem',
      BRIDGE_BODY_LIMIT_BYTES: '2048',
    });
    assert.equal(config.port, 0);
    assert.equal(config.dataDir, '/var/lib/bridge');
    assert.equal(config.databaseUrl, 'postgresql://bridge:pw@db.example:5432/bridge');
    // Trailing slashes are dropped so hrefs never get a double slash.
    assert.equal(config.basePath, '/ffwebservices');
    assert.equal(config.publicUrl, 'https://bridge.plant.example/ffwebservices');
    assert.equal(config.tokenSecret, 'x'.repeat(32));
    assert.equal(config.tokenTtlSeconds, 60);
    assert.equal(config.tlsCertFile, '/etc/bridge/cert.pem');
    assert.equal(config.tlsKeyFile, '/etc/bridge/key.pem');
    assert.equal(config.bodyLimitBytes, 2048);
  });

  test('a bootstrap client takes space-separated scopes, read and write by default', () => {
    const base = { BRIDGE_BOOTSTRAP_CLIENT_ID: 'line-3', BRIDGE_BOOTSTRAP_CLIENT_SECRET: 's'.repeat(16) };
    assert.deepEqual(loadConfig(base).bootstrapClient, {
      id: 'line-3',
      secret: 's'.repeat(16),
      scopes: ['read', 'write'],
    });
    assert.deepEqual(
      loadConfig({ ...base, BRIDGE_BOOTSTRAP_CLIENT_SCOPES: 'read' }).bootstrapClient?.scopes,
      ['read'],
    );
    assert.deepEqual(
      loadConfig({ ...base, BRIDGE_BOOTSTRAP_CLIENT_SCOPES: 'write   read' }).bootstrapClient?.scopes,
      ['write', 'read'],
    );
  });
});

describe('settings: invalid values are refused with a message naming the variable', () => {
  test('the headers timeout may not exceed the request timeout (0 = no request timeout)', () => {
    assertOneProblem(
      { BRIDGE_HTTP_REQUEST_TIMEOUT_MS: '5000', BRIDGE_HTTP_HEADERS_TIMEOUT_MS: '6000' },
      'BRIDGE_HTTP_HEADERS_TIMEOUT_MS',
      /must not be above BRIDGE_HTTP_REQUEST_TIMEOUT_MS/,
    );
    const unlimited = loadConfig({
      BRIDGE_HTTP_REQUEST_TIMEOUT_MS: '0',
      BRIDGE_HTTP_HEADERS_TIMEOUT_MS: '6000',
    });
    assert.deepEqual([unlimited.http.requestTimeoutMs, unlimited.http.headersTimeoutMs], [0, 6000]);
  });

  test('the token hash concurrency defaults to half the cores, 1 to 4', () => {
    const { hashConcurrency } = loadConfig({}).tokenEndpoint;
    assert.ok(hashConcurrency >= 1 && hashConcurrency <= 4, String(hashConcurrency));
  });

  test('BRIDGE_PORT must be an integer from 0 to 65535', () => {
    for (const value of ['abc', '70000', '65536', '-1', '80.5', '8080abc']) {
      assertOneProblem({ BRIDGE_PORT: value }, 'BRIDGE_PORT', new RegExp(`"${value}".*0 to 65535`));
    }
  });

  test('BRIDGE_TOKEN_SECRET must have at least 32 characters', () => {
    assertOneProblem({ BRIDGE_TOKEN_SECRET: 'x'.repeat(31) }, 'BRIDGE_TOKEN_SECRET', /at least 32/);
    assert.equal(loadConfig({ BRIDGE_TOKEN_SECRET: 'x'.repeat(32) }).tokenSecret?.length, 32);
  });

  test('BRIDGE_BASE_PATH must start with a slash and hold only path characters', () => {
    assertOneProblem({ BRIDGE_BASE_PATH: 'ffwebservices' }, 'BRIDGE_BASE_PATH', /"ffwebservices".*"\/"/);
    assertOneProblem({ BRIDGE_BASE_PATH: '/ff web' }, 'BRIDGE_BASE_PATH', /"\/ff web"/);
    assertOneProblem({ BRIDGE_BASE_PATH: '/ff?x=1' }, 'BRIDGE_BASE_PATH', /"\/ff\?x=1"/);
  });

  test('BRIDGE_PUBLIC_URL must be an http(s) URL', () => {
    for (const value of ['ftp://bridge.example', 'bridge.example.com', 'https://', '/ffwebservices']) {
      assertOneProblem({ BRIDGE_PUBLIC_URL: value }, 'BRIDGE_PUBLIC_URL', /http\(s\) URL/);
    }
    assert.equal(loadConfig({ BRIDGE_PUBLIC_URL: 'http://10.0.0.5:8080' }).publicUrl, 'http://10.0.0.5:8080');
  });

  test('the TLS certificate and key are set together', () => {
    const rule = /BRIDGE_TLS_CERT_FILE and BRIDGE_TLS_KEY_FILE must be set together/;
    assertOneProblem({ BRIDGE_TLS_CERT_FILE: '/etc/cert.pem' }, 'BRIDGE_TLS_KEY_FILE', rule);
    assertOneProblem({ BRIDGE_TLS_KEY_FILE: '/etc/key.pem' }, 'BRIDGE_TLS_CERT_FILE', rule);
  });

  test('a bootstrap client needs its id, its secret, a long secret and known scopes', () => {
    const together = /BRIDGE_BOOTSTRAP_CLIENT_ID and BRIDGE_BOOTSTRAP_CLIENT_SECRET must be set together/;
    assertOneProblem({ BRIDGE_BOOTSTRAP_CLIENT_ID: 'line-3' }, 'BRIDGE_BOOTSTRAP_CLIENT_SECRET', together);
    assertOneProblem(
      { BRIDGE_BOOTSTRAP_CLIENT_SECRET: 's'.repeat(16) },
      'BRIDGE_BOOTSTRAP_CLIENT_ID',
      together,
    );
    assertOneProblem(
      { BRIDGE_BOOTSTRAP_CLIENT_SCOPES: 'read' },
      'BRIDGE_BOOTSTRAP_CLIENT_SCOPES',
      /needs BRIDGE_BOOTSTRAP_CLIENT_ID/,
    );
    const client = { BRIDGE_BOOTSTRAP_CLIENT_ID: 'line-3', BRIDGE_BOOTSTRAP_CLIENT_SECRET: 's'.repeat(16) };
    assertOneProblem(
      { ...client, BRIDGE_BOOTSTRAP_CLIENT_SECRET: 's'.repeat(15) },
      'BRIDGE_BOOTSTRAP_CLIENT_SECRET',
      /at least 16/,
    );
    assertOneProblem(
      { ...client, BRIDGE_BOOTSTRAP_CLIENT_SCOPES: 'read root' },
      'BRIDGE_BOOTSTRAP_CLIENT_SCOPES',
      /unknown scopes: root\b/,
    );
    // Comma-separated is not the documented form: "read,write" is one unknown scope.
    assertOneProblem(
      { ...client, BRIDGE_BOOTSTRAP_CLIENT_SCOPES: 'read,write' },
      'BRIDGE_BOOTSTRAP_CLIENT_SCOPES',
      /unknown scopes: read,write/,
    );
  });

  test('DATABASE_URL must be a postgres:// or postgresql:// URL', () => {
    for (const value of ['mysql://db.example/bridge', 'db.example:5432', 'file:./data']) {
      assertOneProblem({ DATABASE_URL: value }, 'DATABASE_URL', /postgres:\/\/ or postgresql:\/\//);
    }
    assert.equal(loadConfig({ DATABASE_URL: 'postgres://db/x' }).databaseUrl, 'postgres://db/x');
  });

  test('the other numbers, the log level and the delivery switch are checked too', () => {
    assertOneProblem({ BRIDGE_TOKEN_TTL_SECONDS: '59' }, 'BRIDGE_TOKEN_TTL_SECONDS', /"59".*60 to 86400/);
    assertOneProblem({ BRIDGE_BODY_LIMIT_BYTES: '1mb' }, 'BRIDGE_BODY_LIMIT_BYTES', /"1mb"/);
    assertOneProblem({ BRIDGE_DB_TIMEOUT_MS: '0' }, 'BRIDGE_DB_TIMEOUT_MS', /"0"/);
    assertOneProblem({ BRIDGE_DB_POOL_SIZE: '201' }, 'BRIDGE_DB_POOL_SIZE', /"201".*1 to 200/);
    assertOneProblem({ BRIDGE_LOG_LEVEL: 'verbose' }, 'BRIDGE_LOG_LEVEL', /"verbose".*info/);
    assertOneProblem({ BRIDGE_DELIVERY_ENABLED: 'yes' }, 'BRIDGE_DELIVERY_ENABLED', /"yes".*true, false/);
  });

  test('retention is a whole number of days from 0 (keep forever) to 36500', () => {
    for (const variable of ['BRIDGE_RETENTION_EVENTS_DAYS', 'BRIDGE_RETENTION_SAMPLES_DAYS']) {
      for (const value of ['-1', '1.5', '30d', 'forever', '36501']) {
        assertOneProblem({ [variable]: value }, variable, new RegExp(`"${value}".*0 to 36500`));
      }
    }
    const config = loadConfig({ BRIDGE_RETENTION_EVENTS_DAYS: '0', BRIDGE_RETENTION_SAMPLES_DAYS: '36500' });
    assert.deepEqual(config.retention, { eventsDays: 0, samplesDays: 36_500 });
  });

  test('several problems are reported at once, in one message', () => {
    const env = {
      BRIDGE_PORT: 'abc',
      BRIDGE_TOKEN_SECRET: 'short',
      BRIDGE_BASE_PATH: 'api',
      DATABASE_URL: 'mysql://db/x',
      BRIDGE_TLS_CERT_FILE: '/etc/cert.pem',
    };
    const problems = problemsOf(env);
    const named = ['BRIDGE_PORT', 'BRIDGE_TOKEN_SECRET', 'BRIDGE_BASE_PATH', 'DATABASE_URL', 'BRIDGE_TLS'];
    assert.equal(problems.length, named.length, problems.join(' | '));
    for (const variable of named) {
      assert.ok(
        problems.some((problem) => problem.includes(variable)),
        `${variable} missing in ${problems.join(' | ')}`,
      );
    }
    assert.throws(
      () => loadConfig(env),
      (error: Error) => {
        // The message itself lists every problem, so whoever prints it shows them all.
        assert.match(error.message, /^Invalid settings:/);
        for (const problem of problems) assert.ok(error.message.includes(problem));
        return true;
      },
    );
  });
});

describe('settings: the real process', () => {
  after(async () => {
    await killAll();
    removeTempDirs();
  });

  test('`bridge start` with bad settings exits with code 2 and names them on stderr', async () => {
    const dataDir = join(tempDir('settings'), 'data');
    const bridge = spawnBridge({
      BRIDGE_PORT: 'abc',
      BRIDGE_TOKEN_SECRET: 'short',
      BRIDGE_DATA_DIR: dataDir,
    });
    const exit = await bridge.exit();
    assert.deepEqual(exit, { code: 2, signal: null });
    assert.match(bridge.stderr(), /^Invalid settings:/);
    assert.match(bridge.stderr(), /BRIDGE_PORT="abc" must be an integer from 0 to 65535/);
    assert.match(bridge.stderr(), /BRIDGE_TOKEN_SECRET must be at least 32 characters long/);
    assert.match(bridge.stderr(), /docs\/settings\.md/);
    assert.equal(bridge.stdout(), '');
    // Refused before touching storage: no data directory was created.
    assert.equal(existsSync(dataDir), false);
  });

  test('the CLI commands refuse bad settings the same way', async () => {
    const bridge = spawnBridge({ DATABASE_URL: 'mysql://db.example/bridge' }, ['clients', 'list']);
    assert.deepEqual(await bridge.exit(), { code: 2, signal: null });
    assert.match(bridge.stderr(), /DATABASE_URL must be a postgres:\/\/ or postgresql:\/\/ URL/);
    assert.equal(bridge.stdout(), '');
  });
});
