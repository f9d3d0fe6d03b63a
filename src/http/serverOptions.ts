// The Fastify options that protect the process: the logger (secrets never logged) and the Node
// HTTP server underneath (timeouts for slow clients, a connection cap, answers to broken requests).
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server, type ServerOptions } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
  LogController,
} from 'fastify';
import type { Config, RuntimeOptions } from '../config.ts';
import { ERROR_STATUS, type ErrorCode, type MessageParams } from '../domain/errors.ts';
import { DEFAULT_LOCALE } from '../i18n/locales.ts';
import { message } from '../i18n/messages.ts';
import { ConnectionGuard } from './connectionGuard.ts';
import { stdoutLines } from './logOutput.ts';

const REDACTED = '[redacted]';
// Query parameter names that can carry a secret: access_token, client_secret, refresh_token,
// id_token, password, passwd, pwd, api_key, apikey, signature, sig, credentials, auth, ...
const SECRET_NAME = /token|secret|passw|pwd|api[-_]?key|apikey|auth|credential|signature|^sig$|^key$/i;

function decodeName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/** The URL with the value of every query parameter that can carry a secret replaced. */
function redactUrl(url: string): string {
  const question = url.indexOf('?');
  if (question < 0) return url;
  const query = url
    .slice(question + 1)
    .split('&')
    .map((part) => {
      const equals = part.indexOf('=');
      const name = equals < 0 ? part : part.slice(0, equals);
      return equals >= 0 && SECRET_NAME.test(decodeName(name)) ? `${name}=${REDACTED}` : part;
    });
  return `${url.slice(0, question)}?${query.join('&')}`;
}

/**
 * The request as a log line shows it: Fastify's own fields, with the URL redacted. Never its
 * headers or body, so credentials (Authorization, cookies, a posted client secret) cannot reach
 * the log whatever is logged under `req`.
 */
function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/** The answer as a log line shows it: its status only (no headers, so no Set-Cookie). */
const serializeReply = (reply: { statusCode?: number }) => ({ statusCode: reply.statusCode });

export function loggerOptions(config: Config, runtime: RuntimeOptions = {}): FastifyServerOptions['logger'] {
  return {
    level: config.logLevel,
    // No pino `redact`: the serializers above write no headers or bodies, and redaction paths
    // made pino copy the object of every request log line.
    serializers: {
      req: serializeRequest as (request: unknown) => Record<string, unknown>,
      res: serializeReply as (reply: unknown) => Record<string, unknown>,
    },
    stream: runtime.logStream ?? (prettyOutput(config.logFormat) ? prettyLines() : stdoutLines()),
  };
}

/** Lines for people on a terminal (or when asked); JSON lines for log collectors otherwise. */
const prettyOutput = (format: Config['logFormat']) =>
  format === 'pretty' || (format === 'auto' && process.stdout.isTTY === true);

/**
 * pino-pretty as a stream in this thread, loaded only when used: a terminal's log is a person's,
 * small enough that a worker thread (pino's transport) would only add start-up time.
 */
function prettyLines(): { write(line: string): void } {
  const pretty = createRequire(import.meta.url)('pino-pretty') as (options: Record<string, unknown>) => {
    write(line: string): void;
  };
  return pretty({
    colorize: process.stdout.isTTY === true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    singleLine: true,
    sync: true,
  });
}

/**
 * One log line per request, when it is answered (as pino-http writes it): the request (method,
 * redacted URL, host, peer), the status, the duration in ms and the request id. The line on arrival
 * is written at `debug` only: at `info` it doubled the log and its cost on every request.
 */
export class RequestLog extends LogController {
  readonly #completedLevel: 'debug' | 'info';

  /** `completedLevel`: BRIDGE_LOG_REQUESTS; at debug by default, so a console shows what matters. */
  constructor(completedLevel: 'debug' | 'info' = 'debug') {
    super();
    this.#completedLevel = completedLevel;
  }

  override incomingRequest(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const responseTime = reply.elapsedTime;
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime }, 'request errored');
    else reply.log[this.#completedLevel]({ req: request, res: reply, responseTime }, 'request completed');
  }
}

/**
 * Node's http(s) server with the configured limits: the whole request must arrive within the
 * request timeout (a body dripped one byte at a time is cut off), headers within the headers
 * timeout, an idle keep-alive connection is closed after the keep-alive timeout, and connections
 * beyond the cap are closed at once. Timeouts are checked every quarter of the shorter one.
 */
/** The guard of each server this module made, so that shutdown can close what it holds. */
const guards = new WeakMap<Server, ConnectionGuard>();

export function serverOptions(
  config: Config,
): Pick<FastifyServerOptions, 'serverFactory' | 'clientErrorHandler'> {
  const { requestTimeoutMs, headersTimeoutMs, keepAliveTimeoutMs, maxConnections } = config.http;
  const shortest = requestTimeoutMs === 0 ? headersTimeoutMs : Math.min(requestTimeoutMs, headersTimeoutMs);
  const options: ServerOptions = {
    requestTimeout: requestTimeoutMs,
    headersTimeout: headersTimeoutMs,
    keepAliveTimeout: keepAliveTimeoutMs,
    connectionsCheckingInterval: Math.max(25, Math.min(30_000, Math.floor(shortest / 4))),
  };
  return {
    serverFactory: (handler) => {
      const server: Server =
        config.tlsCertFile && config.tlsKeyFile
          ? createHttpsServer(
              { ...options, cert: readFileSync(config.tlsCertFile), key: readFileSync(config.tlsKeyFile) },
              handler,
            )
          : createHttpServer(options, handler);
      // Over its address's share a connection waits as long as a slow header sender would.
      const limits = { maxConnections, refusedHoldMs: headersTimeoutMs, ...config.connections };
      const guard = new ConnectionGuard(limits, answerTimeout);
      guard.attach(server);
      guards.set(server, guard);
      return server;
    },
    clientErrorHandler: answerClientError,
  };
}

/**
 * A bounded shutdown: when the server closes, idle connections close at once (Fastify) and
 * requests in progress get the grace period; then every connection still open is cut, so a
 * client that holds its socket cannot delay the stop by the keep-alive timeout.
 */
export function cutConnectionsAfterGrace(app: FastifyInstance, graceMs: number): void {
  app.addHook('preClose', (done) => {
    // Held refused connections are not HTTP connections: the server's close would wait for them.
    guards.get(app.server)?.closeHeld();
    const cut = setTimeout(() => app.server.closeAllConnections(), graceMs).unref();
    app.server.once('close', () => clearTimeout(cut));
    done();
  });
}

// Codes and messages come from the same tables as every other error answer; the request was not
// read, so there is no Accept-Language to honour: the default language.
const CLIENT_ERRORS: Record<string, [ErrorCode, string, MessageParams]> = {
  ERR_HTTP_REQUEST_TIMEOUT: ['REQUEST_TIMEOUT', 'Request Timeout', {}],
  HPE_HEADER_OVERFLOW: ['HEADERS_TOO_LARGE', 'Request Header Fields Too Large', {}],
};

const answerTimeout = (socket: Socket) =>
  answerClientError(
    Object.assign(new Error('request timeout'), { code: 'ERR_HTTP_REQUEST_TIMEOUT' }),
    socket,
  );

/** A request Node could not read (timeout, oversized headers, bad HTTP): the error body, then close. */
function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [code, reason, params] = CLIENT_ERRORS[error.code ?? ''] ?? [
    'BAD_REQUEST',
    'Bad Request',
    { detail: 'it is not valid HTTP' },
  ];
  const status = ERROR_STATUS[code];
  const text = message(code, DEFAULT_LOCALE, params);
  const body = JSON.stringify({ status, code, message: text });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
