import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type { Database, Queryable } from './database.ts';

const MIGRATIONS_DIR = new URL('./migrations/', import.meta.url);

export interface Migration {
  version: number;
  name: string;
  /** The file name, `NNN_name.sql`. */
  file: string;
  sql: string;
  /** sha256 of the file (line endings normalized), stored with the version when it is applied. */
  checksum: string;
}

/** The checksum a migration file is known by; CRLF and LF checkouts of one file agree. */
const checksumOf = (sql: string): string =>
  createHash('sha256').update(sql.replace(/\r\n/g, '\n')).digest('hex');

/** Numbered, forward-only SQL files: `001_name.sql`, `002_name.sql`, ... */
export function listMigrations(directory: URL = MIGRATIONS_DIR): Migration[] {
  return readdirSync(directory)
    .filter((file) => /^\d{3}_[\w-]+\.sql$/.test(file))
    .sort()
    .map((file) => {
      const sql = readFileSync(new URL(file, directory), 'utf8');
      return {
        version: Number(file.slice(0, 3)),
        name: file.slice(4, -4),
        file,
        sql,
        checksum: checksumOf(sql),
      };
    });
}

/** An applied migration's file is no longer what was applied: the service refuses to start. */
export class MigrationChangedError extends Error {}

const lock = (tx: Queryable) => tx.query("SELECT pg_advisory_xact_lock(hashtext('bridge-migrations'))");

/**
 * Checks that every applied migration file is unchanged, then applies every migration not yet
 * applied, each in its own transaction. An advisory lock makes concurrent starts of several
 * instances on one PostgreSQL apply each migration exactly once. `directory` is for tests.
 */
export async function migrate(db: Database, directory: URL = MIGRATIONS_DIR): Promise<number[]> {
  const migrations = listMigrations(directory);
  await db.transaction(async (tx) => {
    await lock(tx);
    await tx.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now(),
      checksum text)`);
    // Databases made before checksums were stored (docs/operations.md, "Upgrades and migrations").
    await tx.query('ALTER TABLE schema_migrations ADD COLUMN IF NOT EXISTS checksum text');
    await verifyApplied(tx, migrations);
  });
  const applied: number[] = [];
  for (const migration of migrations) {
    const done = await db.transaction(async (tx) => {
      await lock(tx);
      const rows = await tx.query('SELECT 1 FROM schema_migrations WHERE version = $1', [migration.version]);
      if (rows.length > 0) return false;
      for (const statement of splitStatements(migration.sql)) await tx.query(statement);
      await tx.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
        migration.version,
        migration.name,
        migration.checksum,
      ]);
      return true;
    });
    if (done) applied.push(migration.version);
  }
  return applied;
}

/**
 * Refuses when an applied file changed. A version applied before checksums were stored gets the
 * checksum of its file as it is now: nothing can tell which content was applied, and migration 011
 * brings every earlier published content of an edited file to today's schema.
 */
async function verifyApplied(tx: Queryable, migrations: Migration[]): Promise<void> {
  const files = new Map(migrations.map((migration) => [migration.version, migration]));
  const rows = await tx.query<{ version: number; checksum: string | null }>(
    'SELECT version, checksum FROM schema_migrations ORDER BY version',
  );
  const changed: string[] = [];
  for (const row of rows) {
    const migration = files.get(row.version);
    // A version this service does not know was applied by a newer release: it is left alone.
    if (migration === undefined) continue;
    if (row.checksum === null) {
      await tx.query('UPDATE schema_migrations SET checksum = $2 WHERE version = $1', [
        row.version,
        migration.checksum,
      ]);
    } else if (row.checksum !== migration.checksum) {
      changed.push(`  ${migration.file}: applied sha256 ${row.checksum}, file now ${migration.checksum}`);
    }
  }
  if (changed.length > 0) {
    throw new MigrationChangedError(
      `refusing to run: ${changed.length === 1 ? 'a migration was' : 'migrations were'} changed after being applied to this database:\n` +
        `${changed.join('\n')}\n` +
        'Applied migrations are immutable: restore the file as it was applied and put the change in a new ' +
        'migration (docs/operations.md, "Upgrades and migrations").',
    );
  }
}

// Statements end with `;` at a line end; `$$`-quoted bodies (DO blocks) are kept whole.
function splitStatements(sql: string): string[] {
  const statements: string[] = [];
  let current: string[] = [];
  let quoted = false;
  for (const line of sql.split('\n')) {
    if (/^\s*--/.test(line)) continue;
    current.push(line);
    if ((line.match(/\$\$/g)?.length ?? 0) % 2 === 1) quoted = !quoted;
    if (!quoted && /;\s*$/.test(line)) {
      statements.push(current.join('\n').replace(/;\s*$/, ''));
      current = [];
    }
  }
  statements.push(current.join('\n'));
  return statements.map((statement) => statement.trim()).filter((statement) => statement !== '');
}
