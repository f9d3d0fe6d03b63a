// Typed settings: the only module that reads process.env. SETTINGS declares every environment
// variable once, as a TypeBox schema (type, default, limits, description); loadConfig validates the
// environment against it and builds the Config the app uses. `npm run settings:generate` renders
// the same declarations as the table of docs/settings.md and as .env.example.

import { availableParallelism } from 'node:os';
import { type Static, type TSchema, Type } from 'typebox';
import { Compile } from 'typebox/compile';
import Value from 'typebox/value';
import { findOperatingState, NO_CONNECTION_STATE_CODE } from './domain/masterData.ts';
import { parseNetworks } from './net/addressPolicy.ts';

/** The delivery worker's settings (src/delivery/worker.ts). */
export interface DeliverySettings {
  retryIntervalMs: number;
  timeoutMs: number;
  pollMs: number;
  /** How long a callback's lease lasts unless renewed: how soon another instance takes over a dead one's. */
  leaseMs: number;
  /** Sends in flight at once, over all callbacks. */
  maxInFlight: number;
  /**
   * Sends in flight at once for one callback; one while its receiver does not answer
   * (docs/decisions/0003-delivery-from-the-event-log.md, fairness).
   */
  perCallback: number;
}

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
  delivery: { enabled: boolean } & DeliverySettings;
  /** How often the shift clock looks for shifts that started or ended. */
  shiftClockPollMs: number;
  /** Days events and device samples are kept, by their time; 0 keeps them forever (docs/settings.md). */
  retention: { eventsDays: number; samplesDays: number };
  /** Whether this instance runs connectors (those whose lease it holds). */
  connectorsEnabled: boolean;
  // --- Connector settings (issue 28) -------------------------------------------------------------
  /**
   * The operating state (code) a workplace takes when the source of its OPERATING_STATE mapping
   * dies (Sparkplug NDEATH/DDEATH, a lost OPC UA session); null keeps the last state.
   */
  connectorNoConnectionState: string | null;
  // --- end of connector settings -----------------------------------------------------------------
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
  // --- Hardening against abuse of connections, the token endpoint and memory (docs/settings.md) ---
  /** Connections per source address, slow senders and slow readers (src/http/connectionGuard.ts). */
  connections: ConnectionLimits;
  /** Bytes large responses and unread event streams may hold at once (src/http/responseBudget.ts). */
  memory: MemoryBudgets;
  // --- end of hardening ---
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
  /** Failed authentications from one source address per window before 429. */
  failuresPerAddress: number;
  failureWindowSeconds: number;
  /** Secret hashes (scrypt) computed at once. */
  hashConcurrency: number;
  /** Authentications waiting for a hash slot; beyond that 429. */
  hashQueue: number;
  // --- Hardening (docs/settings.md, "Token endpoint") ---
  /** How long a verified (client id, secret) pair is answered without hashing again; 0: never. */
  verifiedCacheSeconds: number;
  /** Failures of one (client id, address) pair before it has to wait. */
  backoffAfterFailures: number;
  /** The longest wait of a (client id, address) pair. */
  backoffMaxSeconds: number;
  /** Authentications of one client id waiting for a hash; beyond that 429. */
  hashQueuePerClient: number;
  // --- end of hardening ---
  /** A 429 is sent after this long (at most its Retry-After), so refusals cannot be turned into load. */
  refusalDelayMs: number;
  /** Tolerated clock difference for a token's `iat` (issued in the future). */
  clockSkewSeconds: number;
  /** How often a cached token's client is read again (removal, current scopes). */
  recheckSeconds: number;
}

interface HttpLimits {
  /** Whole request (headers and body) must arrive within this (0: no limit). */
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxConnections: number;
  /** On shutdown, how long requests in progress may take before every connection is cut. */
  shutdownGraceMs: number;
}

// --- Hardening (docs/settings.md, "Connections and memory") ---
interface ConnectionLimits {
  /** Open connections from one source address (IPv6: one /64); beyond it a new one is held, then closed. */
  perAddress: number;
  /** A request body must not pause longer than this between two pieces. */
  bodyTimeoutMs: number;
  /** A response whose client reads nothing for this long is cut off. */
  sendTimeoutMs: number;
}

interface MemoryBudgets {
  /** Bytes that large responses (pages of the event log) may hold while built and sent. */
  largeResponseBytes: number;
  /** Requests waiting for that budget; beyond it 503 SERVER_BUSY. */
  largeResponseQueue: number;
  /** Longest wait for that budget; then 503 SERVER_BUSY. */
  largeResponseWaitMs: number;
  /** Bytes all event streams together may have waiting for their clients. */
  streamBufferTotalBytes: number;
}
// --- end of hardening ---

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

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
// `admin`: managing OAuth clients (/clients); only the first client has it unless settings give it.
export const SCOPES = ['read', 'write', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

/** What a setting carries besides its JSON Schema rules: for people and for its problems. */
export interface SettingAnnotations {
  /** What the setting does (the "meaning" column of docs/settings.md). */
  description: string;
  /** The default in words, where the code computes it (the computed value differs by machine). */
  defaultText?: string;
  /** How a problem states the rule a refused text breaks (after the variable and its value). */
  rule?: string;
  /** Never repeat the value in a problem (keys, passwords in URLs). */
  secret?: boolean;
}

type TextRules = Pick<SettingAnnotations, 'rule' | 'secret'> & { pattern?: string; minLength?: number };

const integer = (
  rules: { default: number; minimum: number; maximum: number; defaultText?: string },
  description: string,
) => Type.Integer({ ...rules, description });
const flag = (rules: { default: boolean }, description: string) => Type.Boolean({ ...rules, description });
const oneOf = <const T extends readonly string[]>(
  values: T,
  rules: { default: T[number] },
  description: string,
) => Type.Enum([...values] as T[number][], { ...rules, description });
const text = (rules: TextRules & { default: string }, description: string) =>
  Type.String({ ...rules, description });
/** A text without a default: undefined when unset. */
const optionalText = (rules: TextRules, description: string) =>
  Type.Optional(Type.String({ ...rules, description }));

// Half the cores (1 to 4): the other half stays with the event loop that serves the API.
const halfTheCores = () => Math.min(4, Math.max(1, Math.floor(availableParallelism() / 2)));

/**
 * Every setting, in the order docs/settings.md lists them. A new setting is one entry here and
 * one line in loadConfig (where it lands in Config); then run `npm run settings:generate`.
 */
export const SETTINGS = {
  BRIDGE_HOST: text({ default: '0.0.0.0' }, 'interface to listen on'),
  BRIDGE_PORT: integer(
    { default: 8080, minimum: 0, maximum: 65535 },
    'port to listen on (0..65535; 0 picks a free one)',
  ),
  BRIDGE_DATA_DIR: text(
    { default: './data' },
    'PGlite data directory (embedded database), used when `DATABASE_URL` is not set; locked by `bridge.lock` while a process uses it',
  ),
  DATABASE_URL: optionalText(
    { pattern: '^postgres(ql)?://', rule: 'must be a postgres:// or postgresql:// URL', secret: true },
    '`postgres://user:pass@host:5432/db`: use this PostgreSQL instead of PGlite',
  ),
  BRIDGE_DB_POOL_SIZE: integer(
    { default: 10, minimum: 1, maximum: 200 },
    'PostgreSQL connections per process for requests and background work (1..200); the delivery worker has 2 more of its own',
  ),
  BRIDGE_DB_TIMEOUT_MS: integer(
    { default: 5000, minimum: 50, maximum: 600_000 },
    'the longest any database call may take; beyond it the request answers 504 `DATABASE_TIMEOUT` (PostgreSQL also cancels the statement)',
  ),
  BRIDGE_BASE_PATH: text(
    {
      default: '',
      pattern: '^(/[A-Za-z0-9._~\\-/]*)?$',
      rule: 'must start with "/" and contain only URL path characters',
    },
    'path prefix of every route, e.g. `/ffwebservices`',
  ),
  BRIDGE_PUBLIC_URL: optionalText(
    {
      pattern: '^https?://[^/\\s]+(/\\S*)?$',
      rule: 'must be an http(s) URL such as https://bridge.example.com',
    },
    "when set (e.g. `https://bridge.plant.example/ffwebservices`), hrefs and `Location` start with it instead of the request's address; it replaces the base path in hrefs",
  ),
  BRIDGE_TRUST_PROXY: flag(
    { default: false },
    '`true`: hrefs follow `Forwarded` or `X-Forwarded-Proto/-Host/-Prefix` from the proxy in front (set only behind one that sets them)',
  ),
  BRIDGE_TOKEN_SECRET: optionalText(
    { minLength: 32, rule: 'must be at least 32 characters long', secret: true },
    'HS256 key for access tokens (at least 32 characters). Unset: a random key is created once and stored in the database, shared by every instance on it',
  ),
  BRIDGE_TOKEN_TTL_SECONDS: integer(
    { default: 3600, minimum: 60, maximum: 86400 },
    'access token lifetime (`expires_in`), 60..86400',
  ),
  BRIDGE_REFRESH_TOKEN_TTL_SECONDS: integer(
    { default: 86_400, minimum: 60, maximum: 31_536_000 },
    'refresh token lifetime (single use; each use issues the next), 60..31536000',
  ),
  BRIDGE_BOOTSTRAP_CLIENT_ID: optionalText(
    {},
    'id of a client created (or updated) at start, so scripts and containers need not read logs',
  ),
  BRIDGE_BOOTSTRAP_CLIENT_SECRET: optionalText(
    { minLength: 16, rule: 'must be at least 16 characters long', secret: true },
    'its secret (at least 16 characters; stored only as a hash)',
  ),
  BRIDGE_BOOTSTRAP_CLIENT_SCOPES: text(
    { default: 'read write' },
    'its scopes, space-separated: `read`, `write`, `admin` (`admin` manages clients through `/clients`)',
  ),
  BRIDGE_TLS_CERT_FILE: optionalText({}, 'PEM certificate: with the key, the service speaks HTTPS itself'),
  BRIDGE_TLS_KEY_FILE: optionalText({}, 'PEM private key'),
  BRIDGE_BODY_LIMIT_BYTES: integer(
    { default: 1_048_576, minimum: 1024, maximum: 104_857_600 },
    'largest request body; larger ones get 413 `PAYLOAD_TOO_LARGE`',
  ),
  BRIDGE_DOCUMENT_MAX_BYTES: integer(
    { default: 10_485_760, minimum: 1024, maximum: 104_857_600 },
    'largest document file (`PUT /documents/{id}/file`, 1024..104857600); larger ones get 413 `PAYLOAD_TOO_LARGE`',
  ),
  BRIDGE_LOG_LEVEL: oneOf(
    LOG_LEVELS,
    { default: 'info' },
    '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`',
  ),
  BRIDGE_DELIVERY_ENABLED: flag(
    { default: true },
    '`false` makes an instance API-only (another instance delivers)',
  ),
  BRIDGE_DELIVERY_RETRY_INTERVAL_MS: integer(
    { default: 10_000, minimum: 100, maximum: 3_600_000 },
    'time between a failed delivery and its retry (10 s: docs/api.md, "Callbacks (event delivery)")',
  ),
  BRIDGE_DELIVERY_TIMEOUT_MS: integer(
    { default: 5000, minimum: 100, maximum: 60_000 },
    'a receiver must confirm (HTTP 2xx, MQTT PUBACK) within this; must be below the retry interval',
  ),
  BRIDGE_DELIVERY_POLL_MS: integer(
    { default: 250, minimum: 10, maximum: 60_000 },
    'how often an idle instance looks for new events (a write on the same instance wakes it at once)',
  ),
  BRIDGE_DELIVERY_LEASE_MS: integer(
    { default: 10_000, minimum: 1000, maximum: 600_000 },
    'how long an instance holds a callback without renewing it (renewed every third of it): how soon another instance takes over the callbacks of one that was killed (1,000 to 600,000)',
  ),
  BRIDGE_DELIVERY_MAX_IN_FLIGHT: integer(
    { default: 1000, minimum: 1, maximum: 10_000 },
    'deliveries in flight at once per instance',
  ),
  BRIDGE_DELIVERY_PER_CALLBACK: integer(
    { default: 100, minimum: 1, maximum: 1000 },
    "deliveries in flight at once for one callback (a slow receiver holds at most this many of the instance's slots, one while it does not answer, and free slots go round-robin between callbacks: the fairness of docs/decisions/0003-delivery-from-the-event-log.md; 1 keeps a healthy receiver's deliveries in order)",
  ),
  BRIDGE_SHIFT_CLOCK_POLL_MS: integer(
    { default: 1000, minimum: 10, maximum: 60_000 },
    'how often each instance looks for shifts that started or ended (10..60000); each start and end is announced once (WORKPLACE_SHIFT_CHANGED), at most this long after it happens',
  ),
  BRIDGE_RETENTION_EVENTS_DAYS: integer(
    { default: 30, minimum: 0, maximum: 36_500 },
    'days an event stays in the log after it was recorded (`recordedAt`), 0..36500; 0 keeps every event. Events still needed by delivery and the newest event stay whatever their age (docs/events.md, "Retention")',
  ),
  BRIDGE_RETENTION_SAMPLES_DAYS: integer(
    { default: 90, minimum: 0, maximum: 36_500 },
    'days a device sample stays after its own `timestamp`, 0..36500; 0 keeps every sample (docs/resources/devices.md, "Retention"). Each instance deletes what is past either setting every 5 minutes, in batches of 5,000 rows',
  ),
  BRIDGE_CONNECTORS_ENABLED: flag(
    { default: true },
    '`false`: this instance runs no connectors (others holding their leases do; docs/resources/connectors.md)',
  ),
  BRIDGE_CONNECTOR_NO_CONNECTION_STATE: text(
    { default: NO_CONNECTION_STATE_CODE },
    'the operating state (code or id) a workplace moves to when a connector marks its values stale (an edge node died, an OPC UA session was lost); `keep` leaves the last state (docs/resources/connectors.md, "Stale values")',
  ),
  BRIDGE_CALLBACK_MQTT_PORT: integer(
    { default: 1883, minimum: 1, maximum: 65535 },
    'the port MQTT callback URLs must use',
  ),
  BRIDGE_CALLBACK_ALLOWED_NETWORKS: text(
    { default: '0.0.0.0/0 ::/0' },
    'address ranges callbacks may reach (space- or comma-separated CIDR)',
  ),
  BRIDGE_CALLBACK_DENIED_NETWORKS: text(
    { default: '' },
    'ranges callbacks may never reach, **in addition to** the built-in denials, which no setting removes: `0.0.0.0/8 ::/128` (unspecified: the host itself), `169.254.0.0/16 fe80::/10` (link-local), `100.100.100.200/32 fd00:ec2::254/128` (cloud metadata); checked at registration for address literals and on the address of every connection (see "Callback destinations" in `api.md`)',
  ),
  BRIDGE_CALLBACK_DENY_LOOPBACK: flag(
    { default: false },
    '`true` also denies loopback (`127.0.0.0/8 ::1/128`); allowed by default because receivers such as Node-RED often run on the same edge host',
  ),
  BRIDGE_EMBEDDED_MQTT: oneOf(
    ['auto', 'on', 'off'],
    { default: 'auto' },
    'embedded MQTT broker (MQTT 3.1.1) for the zero-setup run: `auto` starts it unless its port is taken (an external broker is assumed there), `on` always, `off` never',
  ),
  BRIDGE_EMBEDDED_MQTT_HOST: text(
    { default: '127.0.0.1' },
    'interface of the embedded broker (it has no authentication: keep it local)',
  ),
  BRIDGE_EMBEDDED_MQTT_PORT: integer(
    { default: 1883, minimum: 0, maximum: 65535 },
    'port of the embedded broker',
  ),
  BRIDGE_METRICS_TOP_CALLBACKS: integer(
    { default: 10, minimum: 0, maximum: 1000 },
    '`GET /metrics` gives queue depth and oldest pending age per callback for this many callbacks, those whose oldest notification waits longest (0..1000; totals cover all)',
  ),
  BRIDGE_DELIVERY_STALL_MS: integer(
    { default: 60_000, minimum: 1000, maximum: 3_600_000 },
    "`/health/ready` answers 503 with `delivery: STALLED` when this instance's delivery loop has not finished a cycle for this long (1000..3600000; keep it above `BRIDGE_DB_TIMEOUT_MS`)",
  ),
  BRIDGE_EVENT_STREAM_POLL_MS: integer(
    { default: 250, minimum: 10, maximum: 60_000 },
    'how often the event stream\'s poller looks for new events when no write on this instance woke it (10..60000; docs/api.md, "Event stream")',
  ),
  BRIDGE_EVENT_STREAM_HEARTBEAT_MS: integer(
    { default: 15_000, minimum: 100, maximum: 3_600_000 },
    'a heartbeat comment on every open event stream this often (100..3600000)',
  ),
  BRIDGE_EVENT_STREAM_MAX_PER_CLIENT: integer(
    { default: 5, minimum: 1, maximum: 10_000 },
    'open event streams per client (1..10000); beyond: 429 `TOO_MANY_STREAMS`',
  ),
  BRIDGE_EVENT_STREAM_MAX_STREAMS: integer(
    { default: 500, minimum: 1, maximum: 100_000 },
    'open event streams per instance (1..100000); beyond: 429 `TOO_MANY_STREAMS`',
  ),
  BRIDGE_EVENT_STREAM_MAX_BUFFER_BYTES: integer(
    { default: 1_048_576, minimum: 1024, maximum: 1_073_741_824 },
    'an event stream with more than this waiting to be sent to its client is closed (1024..1073741824)',
  ),
  BRIDGE_EVENT_DATA_MAX_BYTES: integer(
    { default: 65_536, minimum: 1024, maximum: 104_857_600 },
    'largest `data` of an EXTERNAL event (`POST /events`), as JSON bytes (1024..104857600); larger gets 413 `PAYLOAD_TOO_LARGE` naming `data`. The body limit still applies to the whole request',
  ),
  BRIDGE_PAGE_MAX_BYTES: integer(
    { default: 8_388_608, minimum: 16_384, maximum: 1_073_741_824 },
    'byte budget of one page of the event log (16384..1073741824): a page whose items would be larger ends early, with a `next` (or `previous`) link that continues exactly where it stopped; a page always holds at least one item',
  ),
  BRIDGE_TOKEN_FAILURES_PER_ADDRESS: integer(
    { default: 10, minimum: 1, maximum: 100_000 },
    'failed authentications from one source address (IPv6: one /64) per window; beyond it that address gets 429 `slow_down` with `Retry-After` until the window ends, except for a pair verified recently (behind a reverse proxy all clients share its address)',
  ),
  BRIDGE_TOKEN_FAILURE_WINDOW_SECONDS: integer(
    { default: 60, minimum: 1, maximum: 86_400 },
    'length of the failure window (1..86400)',
  ),
  BRIDGE_TOKEN_HASH_CONCURRENCY: integer(
    { default: halfTheCores(), minimum: 1, maximum: 64, defaultText: 'half the CPU cores, 1..4' },
    'secret hashes (scrypt, 32 MiB each) computed at once, so token requests leave CPU, thread pool and event loop to the API (1..64)',
  ),
  BRIDGE_TOKEN_HASH_QUEUE: integer(
    { default: 32, minimum: 0, maximum: 10_000 },
    'authentications waiting for a hash; beyond it 429 with `Retry-After: 1`',
  ),
  BRIDGE_TOKEN_HASH_QUEUE_PER_CLIENT: integer(
    { default: 8, minimum: 1, maximum: 10_000 },
    "authentications of one client id waiting for a hash (1..10000); beyond it 429 with `Retry-After: 1`. Hashes are shared in turn between client ids, so guesses at one id cannot take the others' turns",
  ),
  BRIDGE_TOKEN_VERIFIED_CACHE_SECONDS: integer(
    { default: 300, minimum: 0, maximum: 86_400 },
    'a (client id, secret) pair that was verified is answered from memory, without hashing, for this long (0..86400; 0: always hash). Held under an HMAC with a key made at start, never the secret; a changed secret misses at once',
  ),
  BRIDGE_TOKEN_BACKOFF_AFTER_FAILURES: integer(
    { default: 5, minimum: 1, maximum: 100_000 },
    "failures of one (client id, source address) pair that cost nothing (1..100000); each further one doubles that pair's wait, from 1 s",
  ),
  BRIDGE_TOKEN_BACKOFF_MAX_SECONDS: integer(
    { default: 60, minimum: 1, maximum: 86_400 },
    'the longest wait of a (client id, address) pair (1..86400); a pair that has not failed for twice this long is forgotten',
  ),
  BRIDGE_TOKEN_REFUSAL_DELAY_MS: integer(
    { default: 1000, minimum: 0, maximum: 10_000 },
    'a 429 of the token endpoint is sent after this pause (at most its `Retry-After`); 0 answers at once',
  ),
  BRIDGE_TOKEN_CLOCK_SKEW_SECONDS: integer(
    { default: 60, minimum: 0, maximum: 3600 },
    'a token issued (`iat`) further than this in the future is refused (0..3600)',
  ),
  BRIDGE_TOKEN_RECHECK_SECONDS: integer(
    { default: 30, minimum: 1, maximum: 3600 },
    "a cached token's client is read again after this: removed clients and removed scopes stop working within it (1..3600)",
  ),
  BRIDGE_HTTP_REQUEST_TIMEOUT_MS: integer(
    { default: 120_000, minimum: 0, maximum: 3_600_000 },
    'the whole request (headers and body) must arrive within this, else 408 `REQUEST_TIMEOUT` and the connection is closed; 0 disables (a body dripped byte by byte then holds its connection)',
  ),
  BRIDGE_HTTP_HEADERS_TIMEOUT_MS: integer(
    { default: 10_000, minimum: 100, maximum: 600_000 },
    'the request headers must arrive within this (100..600000, not above the request timeout)',
  ),
  BRIDGE_HTTP_KEEP_ALIVE_TIMEOUT_MS: integer(
    { default: 72_000, minimum: 100, maximum: 3_600_000 },
    'an idle keep-alive connection is closed after this (above the usual 60 s idle timeout of load balancers)',
  ),
  BRIDGE_LOG_FORMAT: oneOf(
    ['auto', 'json', 'pretty'],
    { default: 'auto' },
    '`pretty`: one readable line per log entry; `json`: one JSON object a line (for log collectors); `auto`: pretty when stdout is a terminal, JSON otherwise',
  ),
  BRIDGE_LOG_REQUESTS: oneOf(
    ['debug', 'info'],
    { default: 'debug' },
    'the level of the one line per answered request: `debug` keeps a console at `info` to what matters, `info` logs every request (failed requests are logged at `error` either way)',
  ),
  BRIDGE_SERVICE_URL: optionalText(
    {
      pattern: '^https?://[^/\\s]+(/\\S*)?$',
      rule: 'must be an http(s) URL such as http://localhost:8080',
    },
    'for `bridge` commands that use the API (docs/clients.md): the running service, with its base path; unset: this machine at `BRIDGE_PORT` and `BRIDGE_BASE_PATH`',
  ),
  BRIDGE_CLIENT_ID: optionalText(
    {},
    'for `bridge` commands that use the API: the OAuth client id they sign in with',
  ),
  BRIDGE_CLIENT_SECRET: optionalText({ secret: true }, 'its secret'),
  BRIDGE_DASHBOARD: oneOf(
    ['on', 'off'],
    { default: 'on' },
    '`off` removes the browser dashboard (`GET /` and `/dashboard/*`, docs/dashboard.md); the API is unchanged',
  ),
  BRIDGE_HTTP_MAX_CONNECTIONS: integer(
    { default: 1000, minimum: 1, maximum: 1_000_000 },
    'open connections at most; further connections are closed at once',
  ),
  BRIDGE_HTTP_MAX_CONNECTIONS_PER_ADDRESS: integer(
    { default: 100, minimum: 1, maximum: 1_000_000 },
    "open connections from one source address (IPv6: one /64; 1..1000000); a further connection from it is held unread for the headers timeout, then closed. The TCP peer counts: behind a reverse proxy raise it to the proxy's connection count",
  ),
  BRIDGE_HTTP_BODY_TIMEOUT_MS: integer(
    { default: 10_000, minimum: 100, maximum: 3_600_000 },
    'a request body that stops arriving for this long is answered 408 `REQUEST_TIMEOUT` and its connection closed (100..3600000)',
  ),
  BRIDGE_HTTP_SEND_TIMEOUT_MS: integer(
    { default: 30_000, minimum: 100, maximum: 3_600_000 },
    'an answer whose client takes none of it for this long is cut off (100..3600000), so a client that does not read cannot hold an answer in memory; event streams too',
  ),
  BRIDGE_LARGE_RESPONSE_BUDGET_BYTES: integer(
    { default: 12_582_912, minimum: 65_536, maximum: 68_719_476_736 },
    'bytes that pages of the event log may hold at once while they are loaded, serialised and sent (65536..68719476736): each reserves `BRIDGE_PAGE_MAX_BYTES` until it is serialised, then its own size until it has been sent; others wait in order (docs/operations.md, "Memory")',
  ),
  BRIDGE_LARGE_RESPONSE_QUEUE: integer(
    { default: 1000, minimum: 0, maximum: 100_000 },
    'requests waiting for that budget (0..100000); beyond it 503 `SERVER_BUSY` with `Retry-After: 1`',
  ),
  BRIDGE_LARGE_RESPONSE_WAIT_MS: integer(
    { default: 30_000, minimum: 100, maximum: 600_000 },
    'the longest wait for that budget (100..600000); then 503 `SERVER_BUSY`',
  ),
  BRIDGE_EVENT_STREAM_TOTAL_BUFFER_BYTES: integer(
    { default: 16_777_216, minimum: 65_536, maximum: 68_719_476_736 },
    'bytes all event streams together may have waiting for their clients (65536..68719476736); above it, a stream holding more than its even share is closed as one whose client does not read',
  ),
  BRIDGE_HTTP_SHUTDOWN_GRACE_MS: integer(
    { default: 10_000, minimum: 0, maximum: 600_000 },
    'on shutdown, idle connections close at once and requests in progress get this long to finish; then every connection is cut, so a client that holds its socket cannot delay the stop by the keep-alive timeout',
  ),
  BRIDGE_DEMO: oneOf(
    ['auto', 'on', 'off'],
    { default: 'auto' },
    'the demo plant and simulator (docs/demo.md): `auto` seeds and simulates on the first start of the embedded database only (empty data directory, no `BRIDGE_BOOTSTRAP_CLIENT_ID`; never with `DATABASE_URL`), `on` simulates at every start and seeds first when the plant is empty, `off` never',
  ),
  BRIDGE_DEMO_SIZE: integer(
    { default: 1000, minimum: 1, maximum: 1_000_000 },
    'operations the demo seeds (1..1000000; production orders are added until there are this many)',
  ),
  BRIDGE_DEMO_SEED: integer(
    { default: 1, minimum: 0, maximum: 4_294_967_295 },
    "seed of the demo's random choices: the same seed gives the same plant and the same run (0..4294967295)",
  ),
  BRIDGE_DEMO_RATE: integer(
    { default: 2, minimum: 1, maximum: 1000 },
    'changes per second the demo simulator makes (1..1000)',
  ),
};

const SETTINGS_SCHEMA = Type.Object(SETTINGS);
type Settings = Static<typeof SETTINGS_SCHEMA>;
type SettingName = keyof typeof SETTINGS;
const validator = Compile(SETTINGS_SCHEMA);

/** The schema of one setting with its annotations (TypeBox keeps unknown keywords as given). */
export const settingSchema = (name: SettingName) =>
  SETTINGS[name] as unknown as TSchema & SettingAnnotations & Record<string, unknown>;

/** An environment value as the schema's type: numbers and booleans only when written exactly so. */
function fromText(schema: TSchema & Record<string, unknown>, value: string): unknown {
  if (schema.type === 'integer') return /^-?\d+$/.test(value) ? Number(value) : value;
  if (schema.type === 'boolean') return value === 'true' ? true : value === 'false' ? false : value;
  return value;
}

/** The problem a refused value gives: the variable, the value (unless secret) and the rule. */
function problemOf(name: SettingName, value: string): string {
  const schema = settingSchema(name);
  if (schema.type === 'integer') {
    return `${name}="${value}" must be an integer from ${schema.minimum} to ${schema.maximum}`;
  }
  if (schema.type === 'boolean') return `${name}="${value}" must be one of true, false`;
  if (Array.isArray(schema.enum)) return `${name}="${value}" must be one of ${schema.enum.join(', ')}`;
  return schema.secret ? `${name} ${schema.rule}` : `${name}="${value}" ${schema.rule}`;
}

/** Reads and validates every setting; throws ConfigError listing all problems at once. */
export function loadConfig(env: Env = process.env): Config {
  // Blank values count as unset; values are trimmed.
  const given = new Map<SettingName, string>();
  const values: Record<string, unknown> = {};
  for (const name of Object.keys(SETTINGS) as SettingName[]) {
    const value = env[name]?.trim();
    if (value === undefined || value === '') continue;
    given.set(name, value);
    values[name] = fromText(settingSchema(name), value);
  }
  const settings = Value.Default(SETTINGS_SCHEMA, values) as Settings;

  const problems: string[] = [];
  const refused = new Set<string>();
  for (const error of validator.Errors(settings)) {
    const name = error.instancePath.slice(1) as SettingName;
    if (refused.has(name)) continue;
    refused.add(name);
    problems.push(problemOf(name, given.get(name) ?? ''));
  }
  problems.push(...relationProblems(settings, given, refused));

  const networks = (name: SettingName & `${string}_NETWORKS`): string[] => {
    try {
      return parseNetworks(settings[name]);
    } catch (error) {
      problems.push(`${name}: ${(error as Error).message}`);
      return [];
    }
  };
  const s = settings;
  const config: Config = {
    host: s.BRIDGE_HOST,
    port: s.BRIDGE_PORT,
    dataDir: s.BRIDGE_DATA_DIR,
    databaseUrl: s.DATABASE_URL,
    // Trailing slashes are dropped so hrefs never get a double slash.
    basePath: s.BRIDGE_BASE_PATH.replace(/\/+$/, ''),
    publicUrl: s.BRIDGE_PUBLIC_URL?.replace(/\/+$/, ''),
    tokenSecret: s.BRIDGE_TOKEN_SECRET,
    tokenTtlSeconds: s.BRIDGE_TOKEN_TTL_SECONDS,
    refreshTokenTtlSeconds: s.BRIDGE_REFRESH_TOKEN_TTL_SECONDS,
    trustProxy: s.BRIDGE_TRUST_PROXY,
    bootstrapClient:
      s.BRIDGE_BOOTSTRAP_CLIENT_ID !== undefined && s.BRIDGE_BOOTSTRAP_CLIENT_SECRET !== undefined
        ? {
            id: s.BRIDGE_BOOTSTRAP_CLIENT_ID,
            secret: s.BRIDGE_BOOTSTRAP_CLIENT_SECRET,
            scopes: s.BRIDGE_BOOTSTRAP_CLIENT_SCOPES.split(/\s+/),
          }
        : undefined,
    tlsCertFile: s.BRIDGE_TLS_CERT_FILE,
    tlsKeyFile: s.BRIDGE_TLS_KEY_FILE,
    bodyLimitBytes: s.BRIDGE_BODY_LIMIT_BYTES,
    documentMaxBytes: s.BRIDGE_DOCUMENT_MAX_BYTES,
    eventDataMaxBytes: s.BRIDGE_EVENT_DATA_MAX_BYTES,
    pageMaxBytes: s.BRIDGE_PAGE_MAX_BYTES,
    dbTimeoutMs: s.BRIDGE_DB_TIMEOUT_MS,
    dbPoolSize: s.BRIDGE_DB_POOL_SIZE,
    logLevel: s.BRIDGE_LOG_LEVEL,
    delivery: {
      enabled: s.BRIDGE_DELIVERY_ENABLED,
      retryIntervalMs: s.BRIDGE_DELIVERY_RETRY_INTERVAL_MS,
      timeoutMs: s.BRIDGE_DELIVERY_TIMEOUT_MS,
      pollMs: s.BRIDGE_DELIVERY_POLL_MS,
      leaseMs: s.BRIDGE_DELIVERY_LEASE_MS,
      maxInFlight: s.BRIDGE_DELIVERY_MAX_IN_FLIGHT,
      perCallback: s.BRIDGE_DELIVERY_PER_CALLBACK,
    },
    shiftClockPollMs: s.BRIDGE_SHIFT_CLOCK_POLL_MS,
    retention: { eventsDays: s.BRIDGE_RETENTION_EVENTS_DAYS, samplesDays: s.BRIDGE_RETENTION_SAMPLES_DAYS },
    connectorsEnabled: s.BRIDGE_CONNECTORS_ENABLED,
    connectorNoConnectionState:
      s.BRIDGE_CONNECTOR_NO_CONNECTION_STATE === 'keep' ? null : s.BRIDGE_CONNECTOR_NO_CONNECTION_STATE,
    callbackMqttPort: s.BRIDGE_CALLBACK_MQTT_PORT,
    callbackAllowedNetworks: networks('BRIDGE_CALLBACK_ALLOWED_NETWORKS'),
    callbackDeniedNetworks: networks('BRIDGE_CALLBACK_DENIED_NETWORKS'),
    callbackDenyLoopback: s.BRIDGE_CALLBACK_DENY_LOOPBACK,
    embeddedMqtt: {
      mode: s.BRIDGE_EMBEDDED_MQTT,
      host: s.BRIDGE_EMBEDDED_MQTT_HOST,
      port: s.BRIDGE_EMBEDDED_MQTT_PORT,
    },
    eventStream: {
      pollMs: s.BRIDGE_EVENT_STREAM_POLL_MS,
      heartbeatMs: s.BRIDGE_EVENT_STREAM_HEARTBEAT_MS,
      maxPerClient: s.BRIDGE_EVENT_STREAM_MAX_PER_CLIENT,
      maxStreams: s.BRIDGE_EVENT_STREAM_MAX_STREAMS,
      maxBufferBytes: s.BRIDGE_EVENT_STREAM_MAX_BUFFER_BYTES,
    },
    monitoring: {
      topCallbacks: s.BRIDGE_METRICS_TOP_CALLBACKS,
      deliveryStallMs: s.BRIDGE_DELIVERY_STALL_MS,
    },
    tokenEndpoint: {
      failuresPerAddress: s.BRIDGE_TOKEN_FAILURES_PER_ADDRESS,
      failureWindowSeconds: s.BRIDGE_TOKEN_FAILURE_WINDOW_SECONDS,
      hashConcurrency: s.BRIDGE_TOKEN_HASH_CONCURRENCY,
      hashQueue: s.BRIDGE_TOKEN_HASH_QUEUE,
      verifiedCacheSeconds: s.BRIDGE_TOKEN_VERIFIED_CACHE_SECONDS,
      backoffAfterFailures: s.BRIDGE_TOKEN_BACKOFF_AFTER_FAILURES,
      backoffMaxSeconds: s.BRIDGE_TOKEN_BACKOFF_MAX_SECONDS,
      hashQueuePerClient: s.BRIDGE_TOKEN_HASH_QUEUE_PER_CLIENT,
      refusalDelayMs: s.BRIDGE_TOKEN_REFUSAL_DELAY_MS,
      clockSkewSeconds: s.BRIDGE_TOKEN_CLOCK_SKEW_SECONDS,
      recheckSeconds: s.BRIDGE_TOKEN_RECHECK_SECONDS,
    },
    http: {
      requestTimeoutMs: s.BRIDGE_HTTP_REQUEST_TIMEOUT_MS,
      headersTimeoutMs: s.BRIDGE_HTTP_HEADERS_TIMEOUT_MS,
      keepAliveTimeoutMs: s.BRIDGE_HTTP_KEEP_ALIVE_TIMEOUT_MS,
      maxConnections: s.BRIDGE_HTTP_MAX_CONNECTIONS,
      shutdownGraceMs: s.BRIDGE_HTTP_SHUTDOWN_GRACE_MS,
    },
    connections: {
      perAddress: s.BRIDGE_HTTP_MAX_CONNECTIONS_PER_ADDRESS,
      bodyTimeoutMs: s.BRIDGE_HTTP_BODY_TIMEOUT_MS,
      sendTimeoutMs: s.BRIDGE_HTTP_SEND_TIMEOUT_MS,
    },
    memory: {
      largeResponseBytes: s.BRIDGE_LARGE_RESPONSE_BUDGET_BYTES,
      largeResponseQueue: s.BRIDGE_LARGE_RESPONSE_QUEUE,
      largeResponseWaitMs: s.BRIDGE_LARGE_RESPONSE_WAIT_MS,
      streamBufferTotalBytes: s.BRIDGE_EVENT_STREAM_TOTAL_BUFFER_BYTES,
    },
    // The demo plant (docs/demo.md): auto = first start of the embedded database only.
    demo: {
      mode: s.BRIDGE_DEMO,
      size: s.BRIDGE_DEMO_SIZE,
      seed: s.BRIDGE_DEMO_SEED,
      rate: s.BRIDGE_DEMO_RATE,
    },
    dashboard: s.BRIDGE_DASHBOARD === 'on',
    logFormat: s.BRIDGE_LOG_FORMAT,
    logRequests: s.BRIDGE_LOG_REQUESTS,
    cli: cliSettings(s, given),
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/**
 * The rules between settings (each setting's own rules are in SETTINGS). A rule that compares
 * values is checked only when those values passed their own rules.
 */
function relationProblems(s: Settings, given: Map<SettingName, string>, refused: Set<string>): string[] {
  const problems: string[] = [];
  const valid = (...names: SettingName[]) => names.every((name) => !refused.has(name));

  if (given.has('BRIDGE_TLS_CERT_FILE') !== given.has('BRIDGE_TLS_KEY_FILE')) {
    problems.push('BRIDGE_TLS_CERT_FILE and BRIDGE_TLS_KEY_FILE must be set together');
  }

  const hasId = given.has('BRIDGE_BOOTSTRAP_CLIENT_ID');
  const hasSecret = given.has('BRIDGE_BOOTSTRAP_CLIENT_SECRET');
  if (!hasId && !hasSecret && given.has('BRIDGE_BOOTSTRAP_CLIENT_SCOPES')) {
    problems.push('BRIDGE_BOOTSTRAP_CLIENT_SCOPES needs BRIDGE_BOOTSTRAP_CLIENT_ID');
  } else if (hasId !== hasSecret) {
    problems.push('BRIDGE_BOOTSTRAP_CLIENT_ID and BRIDGE_BOOTSTRAP_CLIENT_SECRET must be set together');
  } else if (hasId) {
    const unknown = s.BRIDGE_BOOTSTRAP_CLIENT_SCOPES.split(/\s+/).filter(
      (scope) => !(SCOPES as readonly string[]).includes(scope),
    );
    if (unknown.length > 0) {
      problems.push(
        `BRIDGE_BOOTSTRAP_CLIENT_SCOPES has unknown scopes: ${unknown.join(', ')} (allowed: ${SCOPES.join(' ')})`,
      );
    }
  }

  if (
    valid('BRIDGE_HTTP_REQUEST_TIMEOUT_MS', 'BRIDGE_HTTP_HEADERS_TIMEOUT_MS') &&
    s.BRIDGE_HTTP_REQUEST_TIMEOUT_MS !== 0 &&
    s.BRIDGE_HTTP_HEADERS_TIMEOUT_MS > s.BRIDGE_HTTP_REQUEST_TIMEOUT_MS
  ) {
    problems.push('BRIDGE_HTTP_HEADERS_TIMEOUT_MS must not be above BRIDGE_HTTP_REQUEST_TIMEOUT_MS');
  }
  const noConnection = s.BRIDGE_CONNECTOR_NO_CONNECTION_STATE;
  if (noConnection !== 'keep' && !findOperatingState(noConnection)) {
    problems.push(
      `BRIDGE_CONNECTOR_NO_CONNECTION_STATE="${noConnection}" must be an operating state code or id, or keep`,
    );
  }
  if (
    valid('BRIDGE_DELIVERY_TIMEOUT_MS', 'BRIDGE_DELIVERY_RETRY_INTERVAL_MS') &&
    s.BRIDGE_DELIVERY_TIMEOUT_MS >= s.BRIDGE_DELIVERY_RETRY_INTERVAL_MS
  ) {
    problems.push('BRIDGE_DELIVERY_TIMEOUT_MS must be below BRIDGE_DELIVERY_RETRY_INTERVAL_MS');
  }
  return problems;
}

/**
 * Where `bridge` commands find the running service: BRIDGE_SERVICE_URL, else this machine at the
 * service's own BRIDGE_PORT, BRIDGE_BASE_PATH and scheme; the client from BRIDGE_CLIENT_ID/SECRET.
 */
function cliSettings(s: Settings, given: Map<SettingName, string>): Config['cli'] {
  const url = s.BRIDGE_SERVICE_URL?.replace(/\/+$/, '');
  const host = s.BRIDGE_HOST;
  const reachableHost =
    host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  const scheme = given.has('BRIDGE_TLS_CERT_FILE') ? 'https' : 'http';
  const basePath = s.BRIDGE_BASE_PATH.replace(/\/+$/, '');
  return {
    serviceUrl: url ?? `${scheme}://${reachableHost}:${s.BRIDGE_PORT}${basePath}`,
    serviceUrlFrom: url === undefined ? 'BRIDGE_PORT' : 'BRIDGE_SERVICE_URL',
    clientId: s.BRIDGE_CLIENT_ID,
    clientSecret: s.BRIDGE_CLIENT_SECRET,
  };
}
