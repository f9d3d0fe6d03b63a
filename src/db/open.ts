import type { Config } from '../config.ts';
import type { Database } from './database.ts';
import { migrate } from './migrate.ts';

/** Opens the configured database (PostgreSQL when DATABASE_URL is set, else PGlite) and migrates it. */
export async function openDatabase(config: Config): Promise<Database> {
  // Only the driver in use is loaded: PGlite's module is not needed on PostgreSQL, nor pg on PGlite.
  const db = config.databaseUrl
    ? await (await import('./postgres.ts')).openPostgres({
        url: config.databaseUrl,
        timeoutMs: config.dbTimeoutMs,
        poolSize: config.dbPoolSize,
      })
    : await (await import('./pglite.ts')).openPglite({
        dataDir: config.dataDir,
        timeoutMs: config.dbTimeoutMs,
      });
  try {
    await migrate(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}
