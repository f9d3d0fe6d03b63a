// Typed settings: the only module that reads process.env. Every setting, its variable and its
// default are read in loadConfig below; docs/settings.md is the same list for people.

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
  bootstrapClient: { id: string; secret: string; scopes: string[] } | undefined;
  tlsCertFile: string | undefined;
  tlsKeyFile: string | undefined;
  bodyLimitBytes: number;
  documentMaxBytes: number;
  dbTimeoutMs: number;
  dbPoolSize: number;
  logLevel: string;
  delivery: {
    enabled: boolean;
    retryIntervalMs: number;
    timeoutMs: number;
    pollMs: number;
    maxInFlight: number;
    perCallback: number;
  };
  /** How often the shift clock looks for shifts that started or ended. */
  shiftClockPollMs: number;
  /** Whether this instance runs connectors (those whose lease it holds). */
  connectorsEnabled: boolean;
  callbackMqttPort: number;
  callbackAllowedNetworks: string[];
  /** Denied in addition to the built-in denials (unspecified, link-local, cloud metadata). */
  callbackDeniedNetworks: string[];
  callbackDenyLoopback: boolean;
  embeddedMqtt: { mode: 'auto' | 'on' | 'off'; host: string; port: number };
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
export const SCOPES = ['read', 'write'] as const;
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
    maxInFlight: integer('BRIDGE_DELIVERY_MAX_IN_FLIGHT', 1000, 1, 10_000),
    perCallback: integer('BRIDGE_DELIVERY_PER_CALLBACK', 100, 1, 1000),
  };
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
    bootstrapClient,
    tlsCertFile,
    tlsKeyFile,
    bodyLimitBytes: integer('BRIDGE_BODY_LIMIT_BYTES', 1_048_576, 1024, 104_857_600),
    documentMaxBytes: integer('BRIDGE_DOCUMENT_MAX_BYTES', 10_485_760, 1024, 104_857_600),
    dbTimeoutMs: integer('BRIDGE_DB_TIMEOUT_MS', 5000, 50, 600_000),
    dbPoolSize: integer('BRIDGE_DB_POOL_SIZE', 10, 1, 200),
    logLevel,
    delivery,
    shiftClockPollMs: integer('BRIDGE_SHIFT_CLOCK_POLL_MS', 1000, 10, 60_000),
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
  const scopes = scopesText === undefined ? [...SCOPES] : scopesText.split(/\s+/);
  const unknown = scopes.filter((scope) => !(SCOPES as readonly string[]).includes(scope));
  if (unknown.length > 0) {
    problems.push(
      `BRIDGE_BOOTSTRAP_CLIENT_SCOPES has unknown scopes: ${unknown.join(', ')} (allowed: read write)`,
    );
  }
  return { id, secret, scopes };
}
