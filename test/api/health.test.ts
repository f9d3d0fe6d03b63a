// Health endpoints (docs/operations.md; README "Running it"): liveness and readiness outside auth; readiness follows the
// database (DOWN with 503 when it cannot be reached, UP again when it can); the base path moves them.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import pg from 'pg';
import { json, startTestApp, type TestApp } from '../support/app.ts';
import { BACKENDS } from '../support/databases.ts';
import { waitUntil } from '../support/process.ts';

// Delivery off: it has nothing to do here, and its worker must not outlive the test app.
const ENV = { BRIDGE_DELIVERY_ENABLED: 'false' };

/** Starts a test app, hands it to `work`, and always closes it. */
async function withApp(
  backend: (typeof BACKENDS)[number],
  env: Record<string, string>,
  work: (t: TestApp) => Promise<void>,
) {
  const t = await startTestApp(backend, { ...ENV, ...env });
  try {
    await work(t);
  } finally {
    await t.close().catch(() => {});
  }
}

/** Runs SQL on the server's maintenance database, beside the test database `url`. */
async function onAdminDatabase(url: string, sql: string): Promise<void> {
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

for (const backend of BACKENDS) {
  describe(`health [${backend}]`, () => {
    test('live and ready answer UP without a token', async () => {
      await withApp(backend, {}, async (t) => {
        const live = await t.request({ url: '/health/live', anonymous: true });
        assert.equal(live.statusCode, 200);
        assert.deepEqual(json(live), { status: 'UP' });
        assert.match(String(live.headers['content-type']), /^application\/json/);
        const ready = await t.request({ url: '/health/ready', anonymous: true });
        assert.equal(ready.statusCode, 200);
        assert.deepEqual(json(ready), { status: 'UP', database: 'UP' });
      });
    });

    test('a bad Authorization header does not matter on health routes', async () => {
      await withApp(backend, {}, async (t) => {
        const ready = await t.request({ url: '/health/ready', headers: { authorization: 'Bearer forged' } });
        assert.equal(ready.statusCode, 200);
        assert.deepEqual(json(ready), { status: 'UP', database: 'UP' });
      });
    });

    test('ready is 503 DOWN while the database cannot be reached; live stays UP', async () => {
      await withApp(backend, {}, async (t) => {
        if (backend === 'pglite') {
          // The embedded database closed: nothing can answer any more.
          await t.app.db.close();
        } else {
          // No new connections to the test database, and the open ones are cut.
          const name = new URL(t.database.url ?? '').pathname.slice(1);
          await onAdminDatabase(t.database.url ?? '', `ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
          await onAdminDatabase(
            t.database.url ?? '',
            `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}'`,
          );
        }
        try {
          const ready = await t.request({ url: '/health/ready', anonymous: true });
          assert.equal(ready.statusCode, 503);
          assert.deepEqual(json(ready), { status: 'DOWN', database: 'DOWN' });
          const live = await t.request({ url: '/health/live', anonymous: true });
          assert.equal(live.statusCode, 200);
          assert.deepEqual(json(live), { status: 'UP' });
        } finally {
          if (backend === 'postgres') {
            const name = new URL(t.database.url ?? '').pathname.slice(1);
            await onAdminDatabase(t.database.url ?? '', `ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
          }
        }
        if (backend === 'postgres') {
          // The pool reconnects: ready follows the database back up (a connection cut a moment
          // ago may still fail one check, hence the bounded polling).
          let body: unknown;
          await waitUntil(
            async () => {
              const ready = await t.request({ url: '/health/ready', anonymous: true });
              body = json(ready);
              return ready.statusCode === 200;
            },
            { what: 'ready to answer 200 again' },
          );
          assert.deepEqual(body, { status: 'UP', database: 'UP' });
        }
      });
    });
  });
}

describe('health under BRIDGE_BASE_PATH', () => {
  test('the health routes move under the base path', async () => {
    await withApp(BACKENDS[0] ?? 'pglite', { BRIDGE_BASE_PATH: '/ffwebservices' }, async (t) => {
      const live = await t.request({ url: '/ffwebservices/health/live', anonymous: true });
      assert.equal(live.statusCode, 200);
      assert.deepEqual(json(live), { status: 'UP' });
      const ready = await t.request({ url: '/ffwebservices/health/ready', anonymous: true });
      assert.equal(ready.statusCode, 200);
      assert.deepEqual(json(ready), { status: 'UP', database: 'UP' });
      // Not at the root any more.
      const old = await t.request({ url: '/health/live', anonymous: true });
      assert.equal(old.statusCode, 404);
      assert.equal(json(old).code, 'ROUTE_NOT_FOUND');
    });
  });
});
