// Typed settings: the only module that reads process.env. Every setting, its variable and its
// default are read in loadConfig below; docs/settings.md is the same list for people.

import { availableParallelism } from 'node:os';
import { parseNetworks } from './delivery/addressPolicy.ts';

export interface Config {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  basePath: string;
  publicUrl: string | undefined;
  tokenSecret: string | undefined;
  tokenTtlSeconds: number;
  /** Lifetime of a refresh token (docs/settings.md). */
  refreshTokenTtlSeconds: number;
  /** Hrefs may follow X-Forwarded-* / Forwarded from a trusted proxy (docs/api.md, "Addresses and versions"). */
  trustProxy: boolean;
  bootstrapClient: { id: string; secret: string; scopes: string[] } | undefined;
  tlsCertFile: string | undefined;
  tlsKeyFile: string | undefined;
  bodyLimitBytes: number;
  documentMaxBytes: number;
  /** Largest `data` of an EXTERNAL event (JSON bytes); larger is 413. */
  eventDataMaxBytes: number;
  /** Byte budget of one page of a collection whose items can be large: the page ends early. */
  pageMaxBytes: number;
  dbTimeoutMs: number;
  dbPoolSize: number;
  logLevel: string;
  delivery: {
    enabled: boolean;
    retryIntervalMs: number;
    timeoutMs: number;
    pollMs: number;
    leaseMs: number;
    maxInFlight: number;
    perCallback: number;
  };
  /** How often the shift clock looks for shifts that started or ended. */
  shiftClockPollMs: number;
  /** Days events and device samples are kept, by their time; 0 keeps them forever (docs/settings.md). */
  retention: { eventsDays: number; samplesDays: number };
  /** Whether this instance runs connectors (those whose lease it holds). */
  connectorsEnabled: boolean;
  callbackMqttPort: number;
  callbackAllowedNetworks: string[];
  /** Denied in addition to the built-in denials (unspecified, link-local, cloud metadata). */
  callbackDeniedNetworks: string[];
  callbackDenyLoopback: boolean;
  embeddedMqtt: { mode: 'auto' | 'on' | 'off'; host: string; port: number };
  /** GET /metrics and readiness (docs/operations.md, "Metrics"). */
  monitoring: { topCallbacks: number; deliveryStallMs: number };
  /** GET /events/stream (docs/api.md, "Event stream"). */
  eventStream: {
    pollMs: number;
    heartbeatMs: number;
    maxPerClient: number;
    maxStreams: number;
    maxBufferBytes: number;
  };
  /** Failed client authentications are limited; secret hashing is bounded (docs/settings.md). */
  tokenEndpoint: TokenEndpointLimits;
  /** Timeouts and the connection cap of the HTTP server (Node's http.Server settings). */
  http: HttpLimits;
  /** The demo plant and its simulator (docs/demo.md). */
  demo: { mode: 'auto' | 'on' | 'off'; size: number; seed: number; rate: number };
  /** The browser dashboard at `/` (docs/dashboard.md); `BRIDGE_DASHBOARD=off` removes it. */
  dashboard: boolean;
  // --- Console and CLI settings (docs/settings.md, "Console and CLI") ---
  /** `pretty`: lines for people; `json`: one JSON object a line; `auto`: pretty on a terminal. */
  logFormat: 'auto' | 'json' | 'pretty';
  /** The level of the one line per answered request (errors stay at error). */
  logRequests: 'debug' | 'info';
  /** How `bridge` commands reach a running service through its API (docs/clients.md). */
  cli: {
    serviceUrl: string;
    /** The setting the URL came from, for messages that say what to change. */
    serviceUrlFrom: 'BRIDGE_SERVICE_URL' | 'BRIDGE_PORT';
    clientId: string | undefined;
    clientSecret: string | undefined;
  };
  // --- end of console and CLI settings ---
}

export interface TokenEndpointLimits {
  /** Failed authentications of one client id per window before 429. */
  failuresPerClient: number;
  /** Failed authentications from one source address per window before 429. */
  failuresPerAddress: number;
  failureWindowSeconds: number;
  /** Secret hashes (scrypt) computed at once. */
  hashConcurrency: number;
  /** Authentications waiting for a hash slot; beyond that 429. */
  hashQueue: number;
  /** Hashes one source address may have running or waiting at once; beyond that 429. */
  hashesPerAddress: number;
  /** A 429 is sent after this long (at most its Retry-After), so refusals cannot be turned into load. */
  refusalDelayMs: number;
  /** Tolerated clock difference for a token's `iat` (issued in the future). */
  clockSkewSeconds: number;
  /** How often a cached token's client is read again (removal, current scopes). */
  recheckSeconds: number;
}

export interface HttpLimits {
  /** Whole request (headers and body) must arrive within this (0: no limit). */
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxConnections: number;
  /** On shutdown, how long requests in progress may take before every connection is cut. */
  shutdownGraceMs: number;
}

/** What tests and benchmarks inject into the server; not settings (no environment variable). */
export interface RuntimeOptions {
  /** The clock of rate limits and token checks (milliseconds, like Date.now). */
  now?: () => number;
  /** Where the log goes instead of stdout (tests capture it). */
  logStream?: { write(line: string): void };
}

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid settings:\n  - ${problems.join('\n  - ')}`);
    this.problems = problems;
  }
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
// `admin`: managing OAuth clients (/clients); only the first client has it unless settings give it.
export const SCOPES = ['read', 'write', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

/** Reads and validates every setting; throws ConfigError listing all problems at once. */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const text = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === '' ? undefined : value;
  };
  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const raw = text(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!/^-?\d+$/.test(raw) || value < min || value > max) {
      problems.push(`${name}="${raw}" must be an integer from ${min} to ${max}`);
      return fallback;
    }
    return value;
  };

  const basePath = (text('BRIDGE_BASE_PATH') ?? '').replace(/\/+$/, '');
  if (basePath !== '' && !/^\/[A-Za-z0-9._~\-/]*$/.test(basePath)) {
    problems.push(`BRIDGE_BASE_PATH="${basePath}" must start with "/" and contain only URL path characters`);
  }

  const publicUrl = text('BRIDGE_PUBLIC_URL')?.replace(/\/+$/, '');
  if (publicUrl !== undefined && !/^https?:\/\/[^/\s]+(\/\S*)?$/.test(publicUrl)) {
    problems.push(
      `BRIDGE_PUBLIC_URL="${publicUrl}" must be an http(s) URL such as https://bridge.example.com`,
    );
  }

  const databaseUrl = text('DATABASE_URL');
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    problems.push('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }

  const tokenSecret = text('BRIDGE_TOKEN_SECRET');
  if (tokenSecret !== undefined && tokenSecret.length < 32) {
    problems.push('BRIDGE_TOKEN_SECRET must be at least 32 characters long');
  }

  const logLevel = text('BRIDGE_LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    problems.push(`BRIDGE_LOG_LEVEL="${logLevel}" must be one of ${LOG_LEVELS.join(', ')}`);
  }

  const tlsCertFile = text('BRIDGE_TLS_CERT_FILE');
  const tlsKeyFile = text('BRIDGE_TLS_KEY_FILE');
  if ((tlsCertFile === undefined) !== (tlsKeyFile === undefined)) {
    problems.push('BRIDGE_TLS_CERT_FILE and BRIDGE_TLS_KEY_FILE must be set together');
  }

  const bootstrapClient = readBootstrapClient(text, problems);
  const choice = <T extends string>(name: string, allowed: readonly T[], fallback: T): T => {
    const raw = text(name) ?? fallback;
    if ((allowed as readonly string[]).includes(raw)) return raw as T;
    problems.push(`${name}="${raw}" must be one of ${allowed.join(', ')}`);
    return fallback;
  };
  const networks = (name: string, fallback: string): string[] => {
    try {
      return parseNetworks(text(name) ?? fallback);
    } catch (error) {
      problems.push(`${name}: ${(error as Error).message}`);
      return [];
    }
  };
  const delivery = {
    enabled: choice('BRIDGE_DELIVERY_ENABLED', ['true', 'false'], 'true') === 'true',
    retryIntervalMs: integer('BRIDGE_DELIVERY_RETRY_INTERVAL_MS', 10_000, 100, 3_600_000),
    timeoutMs: integer('BRIDGE_DELIVERY_TIMEOUT_MS', 5000, 100, 60_000),
    pollMs: integer('BRIDGE_DELIVERY_POLL_MS', 250, 10, 60_000),
    leaseMs: integer('BRIDGE_DELIVERY_LEASE_MS', 10_000, 1000, 600_000),
    maxInFlight: integer('BRIDGE_DELIVERY_MAX_IN_FLIGHT', 1000, 1, 10_000),
    perCallback: integer('BRIDGE_DELIVERY_PER_CALLBACK', 100, 1, 1000),
  };
  const tokenEndpoint: TokenEndpointLimits = {
    failuresPerClient: integer('BRIDGE_TOKEN_FAILURES_PER_CLIENT', 10, 1, 100_000),
    failuresPerAddress: integer('BRIDGE_TOKEN_FAILURES_PER_ADDRESS', 10, 1, 100_000),
    failureWindowSeconds: integer('BRIDGE_TOKEN_FAILURE_WINDOW_SECONDS', 60, 1, 86_400),
    // Half the cores (1 to 4): the other half stays with the event loop that serves the API.
    hashConcurrency: integer(
      'BRIDGE_TOKEN_HASH_CONCURRENCY',
      Math.min(4, Math.max(1, Math.floor(availableParallelism() / 2))),
      1,
      64,
    ),
    hashQueue: integer('BRIDGE_TOKEN_HASH_QUEUE', 32, 0, 10_000),
    hashesPerAddress: integer('BRIDGE_TOKEN_HASHES_PER_ADDRESS', 1, 1, 10_000),
    refusalDelayMs: integer('BRIDGE_TOKEN_REFUSAL_DELAY_MS', 1000, 0, 10_000),
    clockSkewSeconds: integer('BRIDGE_TOKEN_CLOCK_SKEW_SECONDS', 60, 0, 3600),
    recheckSeconds: integer('BRIDGE_TOKEN_RECHECK_SECONDS', 30, 1, 3600),
  };
  const http: HttpLimits = {
    requestTimeoutMs: integer('BRIDGE_HTTP_REQUEST_TIMEOUT_MS', 120_000, 0, 3_600_000),
    headersTimeoutMs: integer('BRIDGE_HTTP_HEADERS_TIMEOUT_MS', 20_000, 100, 600_000),
    keepAliveTimeoutMs: integer('BRIDGE_HTTP_KEEP_ALIVE_TIMEOUT_MS', 72_000, 100, 3_600_000),
    maxConnections: integer('BRIDGE_HTTP_MAX_CONNECTIONS', 1000, 1, 1_000_000),
    shutdownGraceMs: integer('BRIDGE_HTTP_SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
  };
  if (http.requestTimeoutMs !== 0 && http.headersTimeoutMs > http.requestTimeoutMs) {
    problems.push('BRIDGE_HTTP_HEADERS_TIMEOUT_MS must not be above BRIDGE_HTTP_REQUEST_TIMEOUT_MS');
  }

  if (delivery.timeoutMs >= delivery.retryIntervalMs) {
    problems.push('BRIDGE_DELIVERY_TIMEOUT_MS must be below BRIDGE_DELIVERY_RETRY_INTERVAL_MS');
  }

  const config: Config = {
    host: text('BRIDGE_HOST') ?? '0.0.0.0',
    port: integer('BRIDGE_PORT', 8080, 0, 65535),
    dataDir: text('BRIDGE_DATA_DIR') ?? './data',
    databaseUrl,
    basePath,
    publicUrl,
    tokenSecret,
    tokenTtlSeconds: integer('BRIDGE_TOKEN_TTL_SECONDS', 3600, 60, 86400),
    refreshTokenTtlSeconds: integer('BRIDGE_REFRESH_TOKEN_TTL_SECONDS', 86_400, 60, 31_536_000),
    trustProxy: choice('BRIDGE_TRUST_PROXY', ['true', 'false'], 'false') === 'true',
    bootstrapClient,
    tlsCertFile,
    tlsKeyFile,
    bodyLimitBytes: integer('BRIDGE_BODY_LIMIT_BYTES', 1_048_576, 1024, 104_857_600),
    documentMaxBytes: integer('BRIDGE_DOCUMENT_MAX_BYTES', 10_485_760, 1024, 104_857_600),
    eventDataMaxBytes: integer('BRIDGE_EVENT_DATA_MAX_BYTES', 65_536, 1024, 104_857_600),
    pageMaxBytes: integer('BRIDGE_PAGE_MAX_BYTES', 8_388_608, 16_384, 1_073_741_824),
    dbTimeoutMs: integer('BRIDGE_DB_TIMEOUT_MS', 5000, 50, 600_000),
    dbPoolSize: integer('BRIDGE_DB_POOL_SIZE', 10, 1, 200),
    logLevel,
    delivery,
    shiftClockPollMs: integer('BRIDGE_SHIFT_CLOCK_POLL_MS', 1000, 10, 60_000),
    retention: {
      eventsDays: integer('BRIDGE_RETENTION_EVENTS_DAYS', 30, 0, 36_500),
      samplesDays: integer('BRIDGE_RETENTION_SAMPLES_DAYS', 90, 0, 36_500),
    },
    connectorsEnabled: choice('BRIDGE_CONNECTORS_ENABLED', ['true', 'false'], 'true') === 'true',
    callbackMqttPort: integer('BRIDGE_CALLBACK_MQTT_PORT', 1883, 1, 65535),
    callbackAllowedNetworks: networks('BRIDGE_CALLBACK_ALLOWED_NETWORKS', '0.0.0.0/0 ::/0'),
    callbackDeniedNetworks: networks('BRIDGE_CALLBACK_DENIED_NETWORKS', ''),
    callbackDenyLoopback: choice('BRIDGE_CALLBACK_DENY_LOOPBACK', ['true', 'false'], 'false') === 'true',
    embeddedMqtt: {
      mode: choice('BRIDGE_EMBEDDED_MQTT', ['auto', 'on', 'off'], 'auto'),
      host: text('BRIDGE_EMBEDDED_MQTT_HOST') ?? '127.0.0.1',
      port: integer('BRIDGE_EMBEDDED_MQTT_PORT', 1883, 0, 65535),
    },
    eventStream: {
      pollMs: integer('BRIDGE_EVENT_STREAM_POLL_MS', 250, 10, 60_000),
      heartbeatMs: integer('BRIDGE_EVENT_STREAM_HEARTBEAT_MS', 15_000, 100, 3_600_000),
      maxPerClient: integer('BRIDGE_EVENT_STREAM_MAX_PER_CLIENT', 5, 1, 10_000),
      maxStreams: integer('BRIDGE_EVENT_STREAM_MAX_STREAMS', 500, 1, 100_000),
      maxBufferBytes: integer('BRIDGE_EVENT_STREAM_MAX_BUFFER_BYTES', 1_048_576, 1024, 1_073_741_824),
    },
    monitoring: {
      topCallbacks: integer('BRIDGE_METRICS_TOP_CALLBACKS', 10, 0, 1000),
      deliveryStallMs: integer('BRIDGE_DELIVERY_STALL_MS', 60_000, 1000, 3_600_000),
    },
    tokenEndpoint,
    http,
    // The demo plant (docs/demo.md): auto = first start of the embedded database only.
    demo: {
      mode: choice('BRIDGE_DEMO', ['auto', 'on', 'off'], 'auto'),
      size: integer('BRIDGE_DEMO_SIZE', 1000, 1, 1_000_000),
      seed: integer('BRIDGE_DEMO_SEED', 1, 0, 4_294_967_295),
      rate: integer('BRIDGE_DEMO_RATE', 2, 1, 1000),
    },
    dashboard: choice('BRIDGE_DASHBOARD', ['on', 'off'], 'on') === 'on',
    // --- Console and CLI settings ---
    logFormat: choice('BRIDGE_LOG_FORMAT', ['auto', 'json', 'pretty'], 'auto'),
    logRequests: choice('BRIDGE_LOG_REQUESTS', ['debug', 'info'], 'debug'),
    cli: readCliSettings(text, problems),
    // --- end of console and CLI settings ---
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

function readBootstrapClient(
  text: (name: string) => string | undefined,
  problems: string[],
): Config['bootstrapClient'] {
  const id = text('BRIDGE_BOOTSTRAP_CLIENT_ID');
  const secret = text('BRIDGE_BOOTSTRAP_CLIENT_SECRET');
  const scopesText = text('BRIDGE_BOOTSTRAP_CLIENT_SCOPES');
  if (id === undefined && secret === undefined) {
    if (scopesText !== undefined)
      problems.push('BRIDGE_BOOTSTRAP_CLIENT_SCOPES needs BRIDGE_BOOTSTRAP_CLIENT_ID');
    return undefined;
  }
  if (id === undefined || secret === undefined) {
    problems.push('BRIDGE_BOOTSTRAP_CLIENT_ID and BRIDGE_BOOTSTRAP_CLIENT_SECRET must be set together');
    return undefined;
  }
  if (secret.length < 16) problems.push('BRIDGE_BOOTSTRAP_CLIENT_SECRET must be at least 16 characters long');
  // Default read and write: admin only when asked for (docs/settings.md).
  const scopes = scopesText === undefined ? ['read', 'write'] : scopesText.split(/\s+/);
  const unknown = scopes.filter((scope) => !(SCOPES as readonly string[]).includes(scope));
  if (unknown.length > 0) {
    problems.push(
      `BRIDGE_BOOTSTRAP_CLIENT_SCOPES has unknown scopes: ${unknown.join(', ')} (allowed: read write admin)`,
    );
  }
  return { id, secret, scopes };
}

// --- Console and CLI settings ---
/**
 * Where `bridge` commands find the running service: BRIDGE_SERVICE_URL, else this machine at the
 * service's own BRIDGE_PORT, BRIDGE_BASE_PATH and scheme; the client from BRIDGE_CLIENT_ID/SECRET.
 */
function readCliSettings(text: (name: string) => string | undefined, problems: string[]): Config['cli'] {
  const given = text('BRIDGE_SERVICE_URL')?.replace(/\/+$/, '');
  if (given !== undefined && !/^https?:\/\/[^/\s]+(\/\S*)?$/.test(given)) {
    problems.push(`BRIDGE_SERVICE_URL="${given}" must be an http(s) URL such as http://localhost:8080`);
  }
  const host = text('BRIDGE_HOST') ?? '0.0.0.0';
  const reachableHost =
    host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  const scheme = text('BRIDGE_TLS_CERT_FILE') === undefined ? 'http' : 'https';
  const port = text('BRIDGE_PORT') ?? '8080';
  const basePath = (text('BRIDGE_BASE_PATH') ?? '').replace(/\/+$/, '');
  return {
    serviceUrl: given ?? `${scheme}://${reachableHost}:${port}${basePath}`,
    serviceUrlFrom: given === undefined ? 'BRIDGE_PORT' : 'BRIDGE_SERVICE_URL',
    clientId: text('BRIDGE_CLIENT_ID'),
    clientSecret: text('BRIDGE_CLIENT_SECRET'),
  };
}
// --- end of console and CLI settings ---
