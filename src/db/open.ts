import type { Config } from '../config.ts';
import type { Database } from './database.ts';
import { migrate } from './migrate.ts';
import { openPglite } from './pglite.ts';
import { openPostgres } from './postgres.ts';

/** Opens the configured database (PostgreSQL when DATABASE_URL is set, else PGlite) and migrates it. */
export async function openDatabase(config: Config): Promise<Database> {
  const db = config.databaseUrl
    ? await openPostgres({
        url: config.databaseUrl,
        timeoutMs: config.dbTimeoutMs,
        poolSize: config.dbPoolSize,
      })
    : await openPglite({ dataDir: config.dataDir, timeoutMs: config.dbTimeoutMs });
  try {
    await migrate(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}
