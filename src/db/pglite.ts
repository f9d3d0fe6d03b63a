import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { type Database, withTimeout } from './database.ts';

export interface PgliteOptions {
  /** Directory of the database files; undefined keeps the database in memory (tests). */
  dataDir: string | undefined;
  timeoutMs: number;
  /** A dump of a migrated database to start from (tests load a template this way). */
  loadDataDir?: Blob;
}

/** Embedded PostgreSQL in WebAssembly: one connection, so transactions are kept short. */
export async function openPglite(options: PgliteOptions): Promise<Database & { dump(): Promise<Blob> }> {
  const releaseLock = options.dataDir === undefined ? () => {} : lockDataDir(options.dataDir);
  let pg: PGlite;
  try {
    pg = await PGlite.create({
      ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
      ...(options.loadDataDir === undefined ? {} : { loadDataDir: options.loadDataDir }),
    });
  } catch (error) {
    releaseLock();
    throw error;
  }
  const { timeoutMs } = options;
  const rowsOf = async <Row>(target: Pick<PGlite, 'query'>, sql: string, params?: readonly unknown[]) =>
    (await target.query<Row>(sql, params as unknown[])).rows;
  return {
    kind: 'pglite',
    query: (sql, params) => withTimeout(rowsOf(pg, sql, params), timeoutMs),
    exec: async (sql) => {
      await withTimeout(pg.exec(sql), timeoutMs);
    },
    transaction: (work) =>
      withTimeout(
        pg.transaction((tx) => work({ query: (sql, params) => rowsOf(tx, sql, params) })),
        timeoutMs,
      ),
    dump: () => pg.dumpDataDir('none'),
    close: async () => {
      try {
        if (!pg.closed) await pg.close();
      } finally {
        releaseLock();
      }
    },
  };
}

/**
 * PGlite files must never be opened by two processes at once (it would corrupt them), so the
 * data directory carries a lock file with the owner's pid; a stale lock of a dead process is taken over.
 */
function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lockFile = join(dataDir, 'bridge.lock');
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = openSync(lockFile, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(lockFile, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(readFileSync(lockFile, 'utf8'));
      if (Number.isInteger(owner) && owner > 0 && processIsAlive(owner)) {
        throw new Error(
          `The data directory ${dataDir} is in use by process ${owner}. Stop that process first ` +
            '(or use PostgreSQL via DATABASE_URL to share one database between processes).',
        );
      }
      rmSync(lockFile, { force: true });
    }
  }
  throw new Error(`Could not lock the data directory ${dataDir}`);
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
