// The one storage interface the rest of the code sees. PGlite (embedded default) and PostgreSQL
// implement it with the same SQL; every call is bounded by the configured database timeout.

export interface Queryable {
  query<Row>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Runs several statements at once (migrations). */
  exec(sql: string): Promise<void>;
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Pool use for metrics (PostgreSQL; PGlite has one connection and no pool). */
  poolStats?(): { total: number; idle: number; waiting: number } | undefined;
  /**
   * The same database through connections of its own (PostgreSQL: a second pool of `poolSize`),
   * so a background loop never waits behind requests for a connection; closed by its user.
   * PGlite has one connection and none to give.
   */
  separate?(poolSize: number): Database;
  close(): Promise<void>;
}

/** The database did not answer within the configured time (mapped to 504). */
export class DatabaseTimeoutError extends Error {
  constructor(timeoutMs: number) {
    super(`database did not answer within ${timeoutMs} ms`);
  }
}

/** The database cannot be reached at all (mapped to 503). */
export class DatabaseUnavailableError extends Error {}

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EPIPE',
  '57P01',
  '57P03',
  '08000',
  '08003',
  '08006',
  '57P02',
  'ETIMEDOUT',
  'EHOSTUNREACH',
]);
const TIMEOUT_CODES = new Set(['57014', '55P03']); // statement / lock timeout on the server side

function sqlState(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}

export const isUniqueViolation = (error: unknown): boolean => sqlState(error) === '23505';

/** Rejects with DatabaseTimeoutError when `promise` takes longer than `timeoutMs`. */
export function withTimeout<T>(promise: Promise<T>, timeoutMs: number): Promise<T> {
  // One promise and one timer per call (every statement goes through here), no race of two.
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new DatabaseTimeoutError(timeoutMs)), timeoutMs);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(classify(error, timeoutMs));
      },
    );
  });
}

function classify(error: unknown, timeoutMs: number): unknown {
  if (error instanceof DatabaseTimeoutError || error instanceof DatabaseUnavailableError) return error;
  const code = sqlState(error);
  if (code !== undefined && TIMEOUT_CODES.has(code)) return new DatabaseTimeoutError(timeoutMs);
  if (error instanceof Error && /timeout exceeded when trying to connect/i.test(error.message)) {
    return new DatabaseTimeoutError(timeoutMs);
  }
  if (code !== undefined && UNAVAILABLE_CODES.has(code))
    return new DatabaseUnavailableError(error instanceof Error ? error.message : code);
  // pg's own words for a connection that is gone (terminated backend, cut socket, closed client).
  if (error instanceof Error && /Connection terminated|not queryable|connection error/i.test(error.message)) {
    return new DatabaseUnavailableError(error.message);
  }
  return error;
}
