// Empty databases on either backend that a test fills the way an earlier release did, and the
// views of them that upgrade tests compare: every table's rows, and the schema as the catalog says.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import pg from 'pg';
import type { Database, Queryable } from '../../src/db/database.ts';
import { openPglite } from '../../src/db/pglite.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import { type Backend, pgliteTemplate } from './databases.ts';

const ADMIN_URL = process.env.BRIDGE_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface EmptyDatabase {
  /** The settings that point the service at this database. */
  env: Record<string, string>;
  /** Opens it without migrating (close it before the service opens a PGlite directory). */
  open(): Promise<Database>;
  drop(): Promise<void>;
}

/**
 * An empty PGlite data directory or PostgreSQL database. `inMemory` PGlite (faster) has no
 * directory for the service to start on, and opens once.
 */
export async function emptyDatabase(
  backend: Backend,
  options: { inMemory?: boolean } = {},
): Promise<EmptyDatabase> {
  if (backend === 'pglite' && options.inMemory) {
    const opened: Database[] = [];
    return {
      env: {},
      open: async () => {
        opened.push(
          await openPglite({
            dataDir: undefined,
            timeoutMs: 60_000,
            loadDataDir: await pgliteTemplate('empty'),
          }),
        );
        return opened[0] as Database;
      },
      drop: async () => {
        for (const db of opened) await db.close();
      },
    };
  }
  if (backend === 'pglite') {
    const dataDir = await mkdtemp(join(tmpdir(), 'bridge-upgrade-'));
    // The first open writes a new cluster from the template into the directory.
    let template: Blob | undefined = await pgliteTemplate('empty');
    return {
      env: { BRIDGE_DATA_DIR: dataDir },
      open: () => {
        const loadDataDir = template;
        template = undefined;
        return openPglite({ dataDir, timeoutMs: 60_000, ...(loadDataDir ? { loadDataDir } : {}) });
      },
      drop: () => rm(dataDir, { recursive: true, force: true }),
    };
  }
  const name = `bridge_upgrade_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: ADMIN_URL });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    env: { DATABASE_URL: url.toString() },
    open: () => openPostgres({ url: url.toString(), timeoutMs: 60_000, poolSize: 2 }),
    drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/**
 * Applies migration files exactly as the runner of the releases before stored checksums did: a
 * schema_migrations table without a checksum, statements split at `;` line ends.
 */
export async function migrateLikeOldRunner(db: Database, files: readonly string[]): Promise<void> {
  await db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
  for (const file of files) {
    const [, version, name] = /^(\d{3})_([\w-]+?)(@\w+)?\.sql$/.exec(basename(file)) ?? [];
    if (version === undefined) throw new Error(`not a migration file: ${file}`);
    const statements = readFileSync(file, 'utf8')
      .replace(/^\s*--.*$/gm, '')
      .split(/;\s*$/m)
      .map((statement) => statement.trim())
      .filter((statement) => statement !== '');
    await db.transaction(async (tx) => {
      for (const statement of statements) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        Number(version),
        name,
      ]);
    });
  }
}

/** Every row of every table but schema_migrations, as JSON objects sorted by their text. */
export async function allRows(db: Queryable): Promise<Record<string, Record<string, unknown>[]>> {
  const tables = await db.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' AND table_name <> 'schema_migrations'
      ORDER BY table_name`,
  );
  const result: Record<string, Record<string, unknown>[]> = {};
  for (const { name } of tables) {
    const rows = await db.query<{ row: Record<string, unknown> }>(`SELECT to_jsonb(t) AS row FROM ${name} t`);
    result[name] = rows
      .map(({ row }) => row)
      .sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
  }
  return result;
}

/** Columns (type, nullability, default), indexes and constraints of the current schema. */
export async function schemaOf(db: Queryable): Promise<Record<string, string[]>> {
  const lines = async (sql: string) => (await db.query<{ line: string }>(sql)).map(({ line }) => line);
  return {
    columns: await lines(
      `SELECT concat_ws(' ', table_name || '.' || column_name, data_type, is_nullable, column_default,
              is_identity) AS line
         FROM information_schema.columns WHERE table_schema = current_schema() ORDER BY 1`,
    ),
    indexes: await lines(
      `SELECT indexname || ': ' || indexdef AS line FROM pg_indexes
        WHERE schemaname = current_schema() ORDER BY 1`,
    ),
    constraints: await lines(
      `SELECT conrelid::regclass::text || '.' || conname || ': ' || pg_get_constraintdef(oid) AS line
         FROM pg_constraint WHERE connamespace = current_schema()::regnamespace ORDER BY 1`,
    ),
  };
}
