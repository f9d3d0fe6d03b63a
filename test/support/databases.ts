// Fresh databases for tests: every test file gets its own, on PGlite always and on the
// PostgreSQL at 127.0.0.1:5432 when it is reachable (required when CI=true).
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import type { Database } from '../../src/db/database.ts';
import { listMigrations, migrate } from '../../src/db/migrate.ts';
import { openPglite } from '../../src/db/pglite.ts';
import { openPostgres } from '../../src/db/postgres.ts';

export type Backend = 'pglite' | 'postgres';

const ADMIN_URL = process.env.BRIDGE_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const TMP_DIR = new URL('../../.tmp/', import.meta.url).pathname;
const DEFAULT_TIMEOUT_MS = 10_000;

// Templates are keyed by the migrations, so a changed migration builds a new template.
const schemaHash = createHash('sha1')
  .update(
    listMigrations()
      .map((migration) => migration.sql)
      .join('\n'),
  )
  .digest('hex')
  .slice(0, 12);

async function postgresAnswers(timeoutMs: number): Promise<boolean> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: timeoutMs });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * Whether the local PostgreSQL is there. Absent, a machine with only Node.js answers at once;
 * when CI requires it, a busy machine gets a few longer tries before the run fails.
 */
async function postgresReachable(): Promise<boolean> {
  if (await postgresAnswers(1500)) return true;
  if (process.env.CI !== 'true') return false;
  for (let attempt = 0; attempt < 3; attempt += 1) {
    if (await postgresAnswers(5000)) return true;
  }
  return false;
}

/** The backends this run covers. */
export async function availableBackends(): Promise<Backend[]> {
  if (await postgresReachable()) return ['pglite', 'postgres'];
  if (process.env.CI === 'true') throw new Error(`CI=true but PostgreSQL at ${ADMIN_URL} is not reachable`);
  return ['pglite'];
}

export const BACKENDS = await availableBackends();

export interface TestDatabase {
  db: Database;
  /** Connection URL for PostgreSQL databases (to start a second process on the same data). */
  url: string | undefined;
  drop(): Promise<void>;
}

/** A fresh, migrated database; `timeoutMs` bounds every call (short values test the 504 path). */
export async function freshDatabase(backend: Backend, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<TestDatabase> {
  return backend === 'pglite' ? freshPglite(timeoutMs) : freshPostgres(timeoutMs);
}

/**
 * A PGlite dump made once per schema and kept in .tmp: `migrated` (every migration applied) or
 * `empty` (a new cluster, nothing applied). Loading one takes 0.7 s; creating a cluster 2-3 s.
 */
export async function pgliteTemplate(kind: 'migrated' | 'empty'): Promise<Blob> {
  const templateFile = join(TMP_DIR, `pglite-${kind === 'migrated' ? schemaHash : 'empty'}.tar`);
  try {
    return new Blob([readFileSync(templateFile)]);
  } catch {
    const built = await openPglite({ dataDir: undefined, timeoutMs: 60_000 });
    if (kind === 'migrated') await migrate(built);
    const template = await built.dump();
    await built.close();
    mkdirSync(TMP_DIR, { recursive: true });
    // Write then rename: a test file running in parallel never reads half a template.
    const partial = `${templateFile}.${process.pid}`;
    writeFileSync(partial, Buffer.from(await template.arrayBuffer()));
    renameSync(partial, templateFile);
    return template;
  }
}

/**
 * Writes a migrated PGlite data directory from the template, for process and CLI tests whose
 * subject is not the first start: the process opens it in 0.4 s instead of creating a cluster.
 */
export async function migratedDataDir(dataDir: string): Promise<void> {
  const db = await openPglite({ dataDir, timeoutMs: 60_000, loadDataDir: await pgliteTemplate('migrated') });
  await db.close();
}

/** A migrated in-memory PGlite, loaded from the template. */
async function freshPglite(timeoutMs: number): Promise<TestDatabase> {
  const db = await openPglite({
    dataDir: undefined,
    timeoutMs,
    loadDataDir: await pgliteTemplate('migrated'),
  });
  return { db, url: undefined, drop: () => db.close() };
}

const urlFor = (database: string) => {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${database}`;
  return url.toString();
};

async function freshPostgres(timeoutMs: number): Promise<TestDatabase> {
  const template = `bridge_template_${schemaHash}`;
  const name = `bridge_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    // One process builds the template; the others wait on the lock and then find it.
    await admin.query('SELECT pg_advisory_lock(hashtext($1))', [template]);
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]);
    if (exists.rowCount === 0) {
      await admin.query(`CREATE DATABASE ${template}`);
      const built = await openPostgres({ url: urlFor(template), timeoutMs: 60_000, poolSize: 1 });
      await migrate(built);
      await built.close();
    }
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
    await admin.query('SELECT pg_advisory_unlock(hashtext($1))', [template]);
  } finally {
    await admin.end();
  }
  const url = urlFor(name);
  const db = await openPostgres({ url, timeoutMs, poolSize: 5 });
  return {
    db,
    url,
    drop: async () => {
      await db.close();
      const cleanup = new pg.Client({ connectionString: ADMIN_URL });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
