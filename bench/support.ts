// Helpers shared by the benchmarks (bench/*.ts): a fresh seeded database per backend, medians and
// percentiles, timing one call, the statements a repository call sends, the machine's state, and
// the results file.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { addClient } from '../src/auth/clients.ts';
import { TokenService } from '../src/auth/tokens.ts';
import type { Database, Queryable } from '../src/db/database.ts';
import { migrate } from '../src/db/migrate.ts';
import { openPglite } from '../src/db/pglite.ts';
import { openPostgres } from '../src/db/postgres.ts';
import { createWorkplaceGroup } from '../src/services/workplaceGroupService.ts';
import { createWorkplace } from '../src/services/workplaceService.ts';

export type Backend = 'postgres' | 'pglite';

/** PostgreSQL to create the benchmark databases in (BENCH_ADMIN_URL). */
export const ADMIN_URL = process.env.BENCH_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface Seeded {
  /** DATABASE_URL or PGlite data directory. */
  target: string;
  /** A read/write token of the client `bench`. */
  token: string;
  /** The workplaces, in creation order. */
  workplaceIds: string[];
  /** Drops the database (PostgreSQL) or removes the data directory (PGlite). */
  drop(): Promise<void>;
}

/** Migrates, seeds through the service layer, creates a client and a token; closes `db`. */
async function seed(db: Database, workplaces: number): Promise<{ token: string; workplaceIds: string[] }> {
  try {
    await migrate(db);
    const group = await createWorkplaceGroup(db, {
      number: 'CG-BENCH',
      description: 'Benchmark capacity group',
      type: 'CAPACITY_GROUP',
      erpContextId: null,
    });
    const workplaceIds: string[] = [];
    for (let i = 0; i < workplaces; i += 1) {
      const workplace = await createWorkplace(db, {
        number: `WP-${String(i).padStart(4, '0')}`,
        description: `Benchmark workplace ${i}`,
        erpContextId: null,
        isManualWorkplace: false,
        capacityGroupId: group.id,
        productionLineId: null,
      });
      workplaceIds.push(workplace.id);
    }
    const client = await addClient(db, { name: 'bench', scopes: ['read', 'write'] });
    // No secret given: the key is stored in the database, where the service child finds it.
    const tokens = await TokenService.create(db, undefined, 3600);
    const token = await tokens.issue(client.clientId, client.scopes);
    return { token, workplaceIds };
  } finally {
    await db.close();
  }
}

/**
 * A fresh database seeded with 1 capacity group, `workplaces` workplaces and one client: the
 * PostgreSQL database `bench_<label>_<pid>` or a PGlite data directory in the temp dir.
 */
export async function seedDatabase(backend: Backend, label: string, workplaces: number): Promise<Seeded> {
  if (backend === 'pglite') {
    const dataDir = mkdtempSync(join(tmpdir(), `bench-${label}-pglite-`));
    const drop = async () => rmSync(dataDir, { recursive: true, force: true });
    try {
      const db = await openPglite({ dataDir, timeoutMs: 60_000 });
      return { target: dataDir, ...(await seed(db, workplaces)), drop };
    } catch (error) {
      await drop();
      throw error;
    }
  }
  const name = `bench_${label}_${process.pid}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  const drop = async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  };
  try {
    const db = await openPostgres({ url: url.href, timeoutMs: 30_000, poolSize: 2 });
    return { target: url.href, ...(await seed(db, workplaces)), drop };
  } catch (error) {
    await drop();
    throw error;
  }
}

export const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

/** Median time of `work` in ms over `iterations` calls, after `warmup` calls not counted. */
export async function medianMs(
  work: () => Promise<unknown>,
  { warmup, iterations }: { warmup: number; iterations: number },
): Promise<number> {
  for (let i = 0; i < warmup; i += 1) await work();
  const runs: number[] = [];
  for (let i = 0; i < iterations; i += 1) {
    const started = performance.now();
    await work();
    runs.push(performance.now() - started);
  }
  return median(runs);
}

export interface Statement {
  sql: string;
  params: readonly unknown[];
}

/** The statements `work` sends through the database it is given (to time or EXPLAIN them alone). */
export async function statementsOf(
  db: Queryable,
  work: (db: Queryable) => Promise<unknown>,
): Promise<Statement[]> {
  const sent: Statement[] = [];
  await work({
    query: (sql, params = []) => {
      sent.push({ sql, params });
      return db.query(sql, params);
    },
  });
  return sent;
}

/**
 * What a keyset page statement is for: the page itself, the `total` (counted, or read from the
 * maintained `row_counts`), or the "anything behind?" probe.
 */
export type StatementKind = 'page' | 'count' | 'behind';
export const statementKind = (sql: string): StatementKind =>
  sql.includes('count(*)') || sql.includes('row_counts')
    ? 'count'
    : sql.includes('SELECT 1')
      ? 'behind'
      : 'page';

/** A measured window in ms since the epoch: what comes after the warm-up. */
export interface Window {
  from: number;
  to: number;
}
export const inWindow = (time: number, { from, to }: Window) => time >= from && time < to;
/** The window of `seconds` that starts once `warmupS` from now have passed. */
export const windowAfter = (warmupS: number, seconds: number): Window => {
  const from = Date.now() + warmupS * 1000;
  return { from, to: from + seconds * 1000 };
};

/** Milliseconds with one decimal ('-' when there is no figure) and rates as whole numbers, for tables. */
export const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : '-');
export const rate = (value: number) => value.toFixed(0);

/**
 * A text table's row formatter: `columns` are [title, width], a negative width aligning left.
 * `header()` is the titles' row.
 */
export function textTable(columns: readonly [string, number][]) {
  const row = (cells: readonly string[]) =>
    columns
      .map(([, width], i) => (width < 0 ? (cells[i] ?? '').padEnd(-width) : (cells[i] ?? '').padStart(width)))
      .join('  ')
      .trimEnd();
  return { row, header: () => row(columns.map(([title]) => title)) };
}

/** The largest of any number of values (spreading 500,000 into Math.max overflows the stack); -Infinity for none. */
export const largest = (values: readonly number[]) =>
  values.reduce((max, value) => Math.max(max, value), -Infinity);

/** Nearest-rank percentile (p in 0..100) of unsorted values; NaN for none. */
export const percentile = (values: number[], p: number) => {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] as number;
};

/** The machine: load averages show how busy the shared machine was (other work skews both sides). */
export const machineInfo = (loadAverageBefore: number[]) => ({
  cpus: availableParallelism(),
  node: process.version,
  loadAverageBefore,
  loadAverageAfter: loadavg(),
});

export function writeResults(file: URL, document: unknown): void {
  mkdirSync(new URL('.', file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(document, null, 2)}\n`);
}
