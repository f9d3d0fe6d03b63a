// Upgrades (R12): a database made by the previous release (its migrations are a fixture, applied by
// the runner of that time), filled with rows, starts on the current service with every row intact
// and today's schema; so do databases made by the earlier contents of the two migrations edited in
// place. An applied migration that changed is refused at start, in process and by `bridge migrate`.
import assert from 'node:assert/strict';
import { cpSync, readdirSync } from 'node:fs';
import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { listMigrations, MigrationChangedError, migrate } from '../../src/db/migrate.ts';
import { MAINTAINED_COUNTS, readCount } from '../../src/db/rowCounts.ts';
import { OPERATING_STATES } from '../../src/domain/masterData.ts';
import { BACKENDS, type Backend, freshDatabase } from '../support/databases.ts';
import { allRows, emptyDatabase, migrateLikeOldRunner, schemaOf } from '../support/legacyDatabases.ts';
import { runBridge } from '../support/process.ts';
import { sweepSkip } from '../support/suite.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PRODUCTION_STATE = OPERATING_STATES.find((state) => state.code === '000')?.id;
const FIXTURES = join(ROOT, 'test/fixtures/migrations');
const RELEASE = join(FIXTURES, 'release-b72bf3d');
const releaseFiles = readdirSync(RELEASE)
  .sort()
  .map((file) => join(RELEASE, file));
const withFile = (files: string[], version: string, replacement: string) =>
  files.map((file) => (file.includes(`/${version}_`) ? join(FIXTURES, 'edited', replacement) : file));

// Schemas made by earlier commits of main: the edited migration's content at that commit.
const EARLIER_SCHEMAS: Record<string, string[]> = {
  '2e1dc09 (callbacks without after_event_sequence)': [
    join(RELEASE, '001_foundation.sql'),
    join(FIXTURES, 'edited', '002_callbacks@2e1dc09.sql'),
  ],
  'd065590 (no index of claimed notifications)': [
    join(RELEASE, '001_foundation.sql'),
    join(FIXTURES, 'edited', '002_callbacks@d065590.sql'),
  ],
  'b72bf3d (the previous release: single-column workplace index)': releaseFiles,
  '22440a9 (three-column phase index)': withFile(releaseFiles, '003', '003_production_orders@22440a9.sql'),
};

const ID = {
  group: '00000000-0000-4000-8000-000000000001',
  workplace: '00000000-0000-4000-8000-000000000002',
  order: '00000000-0000-4000-8000-000000000003',
  operation: '00000000-0000-4000-8000-000000000004',
  event: '00000000-0000-4000-8000-000000000005',
  callback: '00000000-0000-4000-8000-000000000006',
  staff: '00000000-0000-4000-8000-000000000007',
  device: '00000000-0000-4000-8000-000000000008',
};
const AT = '2026-11-20T08:00:00Z';

// Rows as the previous release wrote them, in tables of most migrations.
const FILL = [
  `INSERT INTO oauth_clients VALUES ('legacy-client', 'Legacy', 'scrypt$not-used', '{read,write}', '${AT}')`,
  `INSERT INTO signing_keys VALUES ('access-token', 'legacy-signing-key-0123456789abcdef0123456789', '${AT}')`,
  `INSERT INTO workplace_groups VALUES ('${ID.group}', 'CG-1', 'Group', 'CAPACITY_GROUP', '${AT}', '${AT}')`,
  `INSERT INTO workplaces VALUES ('${ID.workplace}', 'WP-1', 'Press', false,
     'b6ec1cd6-d254-5106-99ea-43edce9543dd', '${ID.group}', NULL, '${AT}', '${AT}')`,
  `INSERT INTO recorded_operating_states VALUES ('${ID.event}', '${ID.workplace}',
     'b6ec1cd6-d254-5106-99ea-43edce9543dd', '${AT}', NULL)`,
  `INSERT INTO events (id, event_type, object_type, object_id, data, "timestamp", recorded_at, dispatched_at)
     VALUES ('${ID.event}', 'WORKPLACE_CREATED', 'WORKPLACE', '${ID.workplace}', '{"number": "WP-1"}',
     '${AT}', '${AT}', '${AT}')`,
  `INSERT INTO callbacks (id, client_id, event_type, url, max_redeliver_attempts, max_unconfirmed_messages,
     creation_date, failed_attempts, last_sequence, after_event_sequence)
     VALUES ('${ID.callback}', 'legacy-client', 'WORKPLACE_CREATED', 'http://127.0.0.1:9/hook', 5, 100,
     '${AT}', 2, 1, 0)`,
  `INSERT INTO notifications (callback_id, event_id, sequence, attempts, next_attempt_at)
     VALUES ('${ID.callback}', '${ID.event}', 1, 2, '${AT}')`,
  `INSERT INTO delivery_attempts (callback_id, event_id, sequence, attempt, attempted_at, outcome, error, duration_ms)
     VALUES ('${ID.callback}', '${ID.event}', 1, 1, '${AT}', 'FAILED', 'connection refused', 3)`,
  `INSERT INTO production_orders (id, number, target_quantity, created_at, updated_at)
     VALUES ('${ID.order}', 'PO-1', 10, '${AT}', '${AT}')`,
  `INSERT INTO operations (id, production_order_id, sequence, number, operation_phase_id, workplace_id,
     target_setup_time, created_at, updated_at)
     VALUES ('${ID.operation}', '${ID.order}', 1, 'OP-1', 'RELEASED', '${ID.workplace}', 60000, '${AT}', '${AT}')`,
  `INSERT INTO recorded_operation_phases VALUES ('${ID.event}', '${ID.operation}', 'RELEASED',
     '${ID.workplace}', NULL, '${AT}', NULL)`,
  `INSERT INTO staff_members (id, staff_number, first_name, last_name, qualifications, created_at, updated_at)
     VALUES ('${ID.staff}', 'S-1', 'Ada', 'Lovelace', '{welding}', '${AT}', '${AT}')`,
  `INSERT INTO devices (id, name, type, workplace_id, recorded_physical_quantities, created_at, updated_at)
     VALUES ('${ID.device}', 'Sensor', 'SENSOR', '${ID.workplace}', '["TEMPERATURE"]', '${AT}', '${AT}')`,
  `INSERT INTO recorded_time_series VALUES ('${ID.event}', '${ID.device}', 't', '${AT}', 21.5)`,
];

// Columns dropped since the release, whose meaning moved: an event's dispatch is its row in
// delivery_positions, or its absence from delivery_pending (migration 165).
const MOVED_COLUMNS: Record<string, string[]> = { events: ['dispatched_at'] };

// Retention off: the rows carry a fixed date, and every row must be found intact.
const configFor = (env: Record<string, string>) =>
  loadConfig({
    BRIDGE_LOG_LEVEL: 'silent',
    BRIDGE_DELIVERY_ENABLED: 'false',
    BRIDGE_RETENTION_EVENTS_DAYS: '0',
    BRIDGE_RETENTION_SAMPLES_DAYS: '0',
    ...env,
  });

/** Today's schema, from a database the current migrations made. */
async function currentSchema(backend: Backend) {
  const fresh = await freshDatabase(backend);
  try {
    return await schemaOf(fresh.db);
  } finally {
    await fresh.drop();
  }
}

/** `bridge migrate` as a child process with only the given settings. */
const bridgeMigrate = (env: Record<string, string>) => runBridge(env, 'migrate');

describe('migration files', () => {
  test("the previous release's migrations are unchanged (003 was edited before they were immutable)", () => {
    const current = new Map(listMigrations().map((migration) => [migration.file, migration.checksum]));
    const changed = listMigrations(new URL(`file://${RELEASE}/`))
      .filter((migration) => current.get(migration.file) !== migration.checksum)
      .map((migration) => migration.file);
    assert.deepEqual(changed, ['003_production_orders.sql']);
  });
});

for (const backend of BACKENDS) {
  describe(`upgrades [${backend}]`, () => {
    test('a filled database of the previous release starts on the current service with every row intact', async () => {
      const target = await emptyDatabase(backend);
      try {
        const legacy = await target.open();
        await migrateLikeOldRunner(legacy, releaseFiles);
        for (const statement of FILL) await legacy.query(statement);
        const before = await allRows(legacy);
        await legacy.close();

        const app = await createApp(configFor(target.env));
        try {
          const after = await allRows(app.db);
          for (const [table, rows] of Object.entries(before)) {
            const moved = MOVED_COLUMNS[table] ?? [];
            const columns = Object.keys(rows[0] ?? {});
            assert.deepEqual(
              columns.filter((key) => !(key in (after[table]?.[0] ?? {}))),
              rows.length === 0 ? [] : moved,
              `columns of ${table} that are gone`,
            );
            const kept = after[table]?.map((row) =>
              Object.fromEntries(
                (rows.length === 0 ? Object.keys(row) : columns)
                  .filter((key) => !moved.includes(key))
                  .map((key) => [key, row[key]]),
              ),
            );
            const expected = rows.map((row) =>
              Object.fromEntries(Object.entries(row).filter(([key]) => !moved.includes(key))),
            );
            assert.deepEqual(kept, expected, `rows of ${table}`);
          }
          // The event the release had dispatched (before positions existed) waits for nothing.
          assert.deepEqual([after.delivery_pending, after.delivery_positions], [[], []]);
          assert.ok(
            before.operations?.length === 1 &&
              before.callbacks?.length === 1 &&
              before.recorded_time_series?.length === 1,
          );
          assert.deepEqual(await schemaOf(app.db), await currentSchema(backend));
          // Migration 016 counted the rows already stored: totals read them from now on.
          for (const table of Object.keys(MAINTAINED_COUNTS)) {
            const [stored] = await app.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
            assert.equal(await readCount(app.db, { table, scope: '' }), stored?.n, `count of ${table}`);
          }

          // Checksums of the files as they are now, recorded for the versions applied before.
          const stored = await app.db.query<{ version: number; checksum: string }>(
            'SELECT version, checksum FROM schema_migrations ORDER BY version',
          );
          assert.deepEqual(
            stored,
            listMigrations().map(({ version, checksum }) => ({ version, checksum })),
          );

          // The old rows serve and take changes through the API.
          const token = await app.tokens.issue('legacy-client', ['read', 'write']);
          const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
          const operation = await app.server.inject({ url: `/api/v2/operations/${ID.operation}`, headers });
          assert.equal(operation.statusCode, 200, operation.body);
          assert.equal(operation.json().properties.number, 'OP-1');
          const callback = await app.server.inject({ url: `/api/v2/callbacks/${ID.callback}`, headers });
          assert.equal(callback.statusCode, 200, callback.body);
          const added = await app.server.inject({
            method: 'POST',
            url: '/api/v2/operations',
            headers,
            payload: JSON.stringify({
              productionOrderId: ID.order,
              number: 'OP-2',
              workplaceId: ID.workplace,
            }),
          });
          assert.equal(added.statusCode, 201, added.body);
          const page = await app.server.inject({
            url: `/api/v2/operations?workplaceId=${ID.workplace}`,
            headers,
          });
          assert.equal(page.statusCode, 200, page.body);
          for (const id of [ID.operation, added.json().properties.id])
            assert.ok(page.body.includes(id), page.body);
          const all = await app.server.inject({ url: '/api/v2/operations', headers });
          assert.equal(all.json().pagination.total, 2, all.body);
        } finally {
          await app.close();
        }
      } finally {
        await target.drop();
      }
    });

    // The migrations are the same SQL on both backends: the fast suite sweeps the earlier
    // schemas on one, the full suite on every one (sweepSkip). The release above runs on both.
    for (const [made, files] of Object.entries(EARLIER_SCHEMAS)) {
      test(`a database made at ${made} migrates to today's schema`, {
        skip: sweepSkip(backend),
      }, async () => {
        const target = await emptyDatabase(backend, { inMemory: true });
        try {
          const db = await target.open();
          try {
            await migrateLikeOldRunner(db, files);
            await migrate(db);
            assert.deepEqual(await schemaOf(db), await currentSchema(backend));
            // A second start changes nothing.
            assert.deepEqual(await migrate(db), []);
          } finally {
            await db.close();
          }
        } finally {
          await target.drop();
        }
      });
    }

    test('positions given in the events table carry over to delivery_positions; events without one are queued', async () => {
      const target = await emptyDatabase(backend, { inMemory: true });
      const directory = await mkdtemp(join(tmpdir(), 'bridge-migrations-'));
      try {
        const db = await target.open();
        try {
          for (const { file } of listMigrations().filter(({ version }) => version < 165))
            cpSync(join(ROOT, 'src/db/migrations', file), join(directory, file));
          await migrate(db, new URL(`file://${directory}/`));
          // Sequences 1-4: positioned 7, not yet positioned, dispatched before positions existed,
          // positioned 8.
          for (const [n, position, dispatched] of [
            [1, 7, true],
            [2, null, false],
            [3, null, true],
            [4, 8, true],
          ] as const) {
            await db.query(
              `INSERT INTO events (id, event_type, object_type, data, "timestamp", recorded_at, dispatched_at,
                 delivery_position)
               VALUES ($1, 'WORKPLACE_CREATED', 'WORKPLACE', '{}', $2, $2, $3, $4)`,
              [`00000000-0000-4000-8000-00000000010${n}`, AT, dispatched ? AT : null, position],
            );
          }
          assert.ok((await migrate(db)).includes(165));
          const rows = async (sql: string) =>
            (await db.query<Record<string, string | number>>(sql)).map((row) =>
              Object.values(row).map(Number),
            );
          assert.deepEqual(await rows('SELECT position, sequence FROM delivery_positions ORDER BY 1'), [
            [7, 1],
            [8, 4],
          ]);
          assert.deepEqual(await rows('SELECT sequence FROM delivery_pending'), [[2]]);
          // The queued event is positioned after the highest carried-over position.
          const [poll] = await db.query<{ sequenced: number; head: string }>(
            `SELECT * FROM delivery_poll('00000000-0000-4000-8000-0000000000ff', 10, now())`,
          );
          assert.deepEqual([poll?.sequenced, Number(poll?.head)], [1, 9]);
          assert.deepEqual(
            await rows('SELECT position, sequence FROM delivery_positions WHERE sequence = 2'),
            [[9, 2]],
          );
          assert.deepEqual(await rows('SELECT sequence FROM delivery_pending'), []);
        } finally {
          await db.close();
        }
      } finally {
        await rm(directory, { recursive: true, force: true });
        await target.drop();
      }
    });

    test('callbacks registered before after_event_sequence existed get 0: every event not yet fanned out, as before', async () => {
      const target = await emptyDatabase(backend, { inMemory: true });
      try {
        const db = await target.open();
        try {
          await migrateLikeOldRunner(
            db,
            EARLIER_SCHEMAS['2e1dc09 (callbacks without after_event_sequence)'] ?? [],
          );
          await db.query(`INSERT INTO oauth_clients VALUES ('legacy-client', '', 'x', '{read}', '${AT}')`);
          await db.query(
            `INSERT INTO callbacks (id, client_id, event_type, url, max_redeliver_attempts, max_unconfirmed_messages, creation_date)
             VALUES ('${ID.callback}', 'legacy-client', '*', 'http://127.0.0.1:9/hook', 5, 100, '${AT}')`,
          );
          await migrate(db);
          const rows = await db.query<{ after_event_sequence: string }>(
            'SELECT after_event_sequence FROM callbacks',
          );
          assert.deepEqual(
            rows.map((row) => Number(row.after_event_sequence)),
            [0],
          );
        } finally {
          await db.close();
        }
      } finally {
        await target.drop();
      }
    });

    test('an instance of the previous release writes workplaces during a rolling upgrade: the type follows the flag', async () => {
      const fresh = await freshDatabase(backend);
      try {
        const { db } = fresh;
        const groupId = '01900000-0000-7000-8000-0000000000a1';
        await db.query(
          `INSERT INTO workplace_groups (id, number, type, created_at, updated_at)
           VALUES ($1, 'CG-OLD', 'CAPACITY_GROUP', now(), now())`,
          [groupId],
        );
        // The previous release's statements: no workplace_type column in them.
        const insertOld = (id: string, number: string, manual: boolean) =>
          db.query(
            `INSERT INTO workplaces (id, number, description, is_manual_workplace, operating_state_id,
               capacity_group_id, production_line_id, created_at, updated_at)
             VALUES ($1, $2, NULL, $3, $4, $5, NULL, now(), now())`,
            [id, number, manual, PRODUCTION_STATE, groupId],
          );
        const machine = '01900000-0000-7000-8000-0000000000b1';
        const manual = '01900000-0000-7000-8000-0000000000b2';
        await insertOld(machine, 'WP-OLD-1', false);
        await insertOld(manual, 'WP-OLD-2', true);
        const typeOf = async (id: string) =>
          (
            await db.query<{ workplace_type: string }>(
              'SELECT workplace_type FROM workplaces WHERE id = $1',
              [id],
            )
          )[0]?.workplace_type;
        assert.equal(await typeOf(machine), 'MACHINE_WORKPLACE');
        assert.equal(await typeOf(manual), 'MANUAL_WORKPLACE');
        // The old release flips the flag alone: the type follows it.
        await db.query('UPDATE workplaces SET is_manual_workplace = true WHERE id = $1', [machine]);
        assert.equal(await typeOf(machine), 'MANUAL_WORKPLACE');
        // The current release's own consistent writes are kept as they are.
        await db.query("UPDATE workplaces SET workplace_type = 'MANUAL_MACHINE_WORKPLACE' WHERE id = $1", [
          manual,
        ]);
        assert.equal(await typeOf(manual), 'MANUAL_MACHINE_WORKPLACE');
      } finally {
        await fresh.drop();
      }
    });

    test('an applied migration that changed is refused before anything is applied', async () => {
      const fresh = await freshDatabase(backend);
      const directory = await mkdtemp(join(tmpdir(), 'bridge-migrations-'));
      try {
        cpSync(join(ROOT, 'src/db/migrations'), directory, { recursive: true });
        await appendFile(
          join(directory, '002_callbacks.sql'),
          'CREATE INDEX callbacks_by_url ON callbacks (url);\n',
        );
        await writeFile(join(directory, '099_later.sql'), 'CREATE TABLE later (id integer);\n');
        const url = new URL(`file://${directory}/`);
        await assert.rejects(migrate(fresh.db, url), (error: Error) => {
          assert.ok(error instanceof MigrationChangedError);
          assert.match(
            error.message,
            /002_callbacks\.sql: applied sha256 [0-9a-f]{64}, file now [0-9a-f]{64}/,
          );
          assert.match(error.message, /Applied migrations are immutable/);
          return true;
        });
        const later = await fresh.db.query(
          "SELECT 1 FROM information_schema.tables WHERE table_name = 'later'",
        );
        assert.equal(later.length, 0);
        // Restored, it runs again.
        cpSync(join(ROOT, 'src/db/migrations/002_callbacks.sql'), join(directory, '002_callbacks.sql'));
        assert.deepEqual(await migrate(fresh.db, url), [99]);
      } finally {
        await rm(directory, { recursive: true, force: true });
        await fresh.drop();
      }
    });

    test('the service and `bridge migrate` refuse a database whose applied migration differs', async () => {
      const target = await emptyDatabase(backend);
      try {
        const db = await target.open();
        await migrate(db);
        // As if 003 had been applied with other content than the file has now.
        await db.query("UPDATE schema_migrations SET checksum = repeat('0', 64) WHERE version = 3");
        await db.close();

        const run = await bridgeMigrate(target.env);
        assert.equal(run.code, 1, run.stderr);
        assert.match(
          run.stderr,
          /^refusing to run: a migration was changed after being applied to this database:\n/,
        );
        assert.match(run.stderr, /003_production_orders\.sql: applied sha256 0{64}, file now [0-9a-f]{64}/);
        await assert.rejects(createApp(configFor(target.env)), MigrationChangedError);
      } finally {
        await target.drop();
      }
    });
  });
}
