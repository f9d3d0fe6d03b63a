// What a failure to reach the configured PostgreSQL at start means for the operator: the driver's
// own text (ECONNREFUSED, a SQLSTATE) names neither the setting nor the fix.

interface DriverError {
  code?: string;
  errno?: number;
  message?: string;
  errors?: DriverError[];
}

/** The database a postgres:// URL names, and where it points (never its password). */
function describeUrl(url: string): { where: string; database: string; user: string } {
  try {
    const parsed = new URL(url);
    return {
      where: `${parsed.hostname || 'localhost'}:${parsed.port || '5432'}`,
      database: decodeURIComponent(parsed.pathname.replace(/^\//, '')) || '(the user name)',
      user: decodeURIComponent(parsed.username) || '(the system user)',
    };
  } catch {
    return { where: '?', database: '?', user: '?' };
  }
}

/**
 * A sentence or two for a start that failed on DATABASE_URL; undefined when `error` is not a
 * connection, database or authentication failure (it is then shown as it is).
 */
export function explainDatabaseStartError(
  error: unknown,
  databaseUrl: string | undefined,
): string | undefined {
  if (databaseUrl === undefined || typeof error !== 'object' || error === null) return undefined;
  const failure = error as DriverError;
  // Node reports a refused connection to every address of a name as an AggregateError.
  // The driver's errors reach here classified (DatabaseUnavailableError) with the code only in
  // their message.
  const code =
    failure.code ??
    failure.errors?.[0]?.code ??
    /\b(ECONNREFUSED|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH)\b/.exec(
      failure.message ?? '',
    )?.[1];
  const { where, database, user } = describeUrl(databaseUrl);
  const fix =
    'Correct DATABASE_URL (postgres://user:password@host:port/database), or unset it to use the embedded database in BRIDGE_DATA_DIR.';
  switch (code) {
    case 'ECONNREFUSED':
      return `Cannot connect to PostgreSQL at ${where} (DATABASE_URL): the connection was refused. Start PostgreSQL there, or ${lower(fix)}`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `Cannot connect to PostgreSQL (DATABASE_URL): the host of ${where} is not known. ${fix}`;
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `Cannot connect to PostgreSQL at ${where} (DATABASE_URL): no answer (${code}). Check the address and any firewall, or ${lower(fix)}`;
    case '3D000':
      return `PostgreSQL at ${where} has no database "${database}" (DATABASE_URL). Create it (createdb ${quote(database)}, or CREATE DATABASE), or name an existing one in DATABASE_URL.`;
    case '28P01':
    case '28000':
      return `PostgreSQL at ${where} refused user "${user}" (DATABASE_URL): ${failure.message ?? 'authentication failed'}. Put the right user and password in DATABASE_URL, or allow the user in pg_hba.conf.`;
    default:
      if (/timeout expired|Connection terminated due to connection timeout/i.test(failure.message ?? '')) {
        return `Cannot connect to PostgreSQL at ${where} (DATABASE_URL): no answer within BRIDGE_DB_TIMEOUT_MS. Check the address, or ${lower(fix)}`;
      }
      return undefined;
  }
}

const lower = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);
const quote = (name: string) => (/^[\w-]+$/.test(name) ? name : `'${name.replaceAll("'", "'\\''")}'`);
