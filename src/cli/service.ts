// How `bridge` commands reach a running service: its URL and the client's credentials (options,
// else settings through src/config.ts), and what to say when nothing answers there.
import { type BridgeClient, createBridgeClient } from '../../clients/typescript/src/index.ts';
import type { Config } from '../config.ts';

/** A mistake in how the command was called: printed with the command's help, exit 2. */
export class CliUsageError extends Error {}

/** The service did not answer at the URL tried: exit 1 with what to change. */
export class ServiceUnreachableError extends Error {}

export interface ConnectionOptions {
  url?: string | boolean | undefined;
  'client-id'?: string | boolean | undefined;
  'client-secret'?: string | boolean | undefined;
}

export interface Connection {
  url: string;
  /** Where the URL came from: the option or the setting to change. */
  urlFrom: string;
  clientId: string | undefined;
  clientSecret: string | undefined;
}

export function connectionOf(values: ConnectionOptions, config: Config, help: string): Connection {
  const given = typeof values.url === 'string' ? values.url.replace(/\/+$/, '') : undefined;
  const url = given ?? config.cli.serviceUrl;
  if (!/^https?:\/\/\S+$/.test(url))
    throw new CliUsageError(`--url must be an http(s) URL (got "${url}")\n${help}`);
  const option = (name: 'client-id' | 'client-secret') =>
    typeof values[name] === 'string' ? (values[name] as string) : undefined;
  return {
    url,
    urlFrom: given === undefined ? config.cli.serviceUrlFrom : '--url',
    clientId: option('client-id') ?? config.cli.clientId,
    clientSecret: option('client-secret') ?? config.cli.clientSecret,
  };
}

/** The typed API client of the service; credentials are required. */
export function apiClient(connection: Connection, help: string): BridgeClient {
  const { url, clientId, clientSecret } = connection;
  if (!clientId || !clientSecret) {
    throw new CliUsageError(
      `client credentials needed: --client-id/--client-secret or BRIDGE_CLIENT_ID/BRIDGE_CLIENT_SECRET\n${help}`,
    );
  }
  return createBridgeClient({ baseUrl: url, clientId, clientSecret });
}

/** The system error code behind a failed fetch (ECONNREFUSED, ENOTFOUND, ...), if it is one. */
function networkErrorCode(error: unknown): string | undefined {
  for (let cause = error; typeof cause === 'object' && cause !== null; ) {
    const { code, errors } = cause as { code?: unknown; errors?: unknown[] };
    if (typeof code === 'string' && /^E[A-Z_]+$/.test(code)) return code;
    if (Array.isArray(errors) && errors.length > 0) return networkErrorCode(errors[0]);
    cause = (cause as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The message for a service that did not answer at `connection.url`. */
function unreachable(connection: Connection, code: string): ServiceUnreachableError {
  const why =
    code === 'ECONNREFUSED'
      ? 'connection refused: is the service running?'
      : code === 'ENOTFOUND' || code === 'EAI_AGAIN'
        ? 'unknown host'
        : code;
  const change =
    connection.urlFrom === '--url'
      ? 'Check --url.'
      : connection.urlFrom === 'BRIDGE_SERVICE_URL'
        ? 'Set BRIDGE_SERVICE_URL to the address of the running service (or pass --url).'
        : 'If the service runs on another port or host, set BRIDGE_PORT as the service has it, or BRIDGE_SERVICE_URL to its address (or pass --url).';
  return new ServiceUnreachableError(`Cannot reach the service at ${connection.url} (${why}). ${change}`);
}

/** Runs `work`; a failure to reach the service becomes the message that says what to change. */
export async function reaching<T>(connection: Connection, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const code = networkErrorCode(error);
    throw code === undefined ? error : unreachable(connection, code);
  }
}

/** Whether a service answers at the URL (its liveness route), within a short time. */
export async function serviceAnswers(connection: Connection): Promise<boolean> {
  try {
    const response = await fetch(`${connection.url}/health/live`, { signal: AbortSignal.timeout(3000) });
    await response.body?.cancel();
    return true;
  } catch {
    return false;
  }
}
