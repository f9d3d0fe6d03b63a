// HTTP(S) deliveries: POST with undici over keep-alive connection pools, bounded by a timeout
// that one timer keeps for every send in flight (src/delivery/deadlines.ts).
// Redirects are not followed (undici's dispatch does not without a redirect interceptor): a 3xx
// answer is a failed attempt, so a receiver cannot send the bridge on to another address.
import { Agent } from 'undici';
import type { AddressPolicy } from '../net/addressPolicy.ts';
import { Deadline, DeadlineList } from './deadlines.ts';
import { failure, noAnswer, type SendResult, type Transport } from './transport.ts';

/**
 * Errors that mean the receiver did not answer: no connection (refused, reset, unreachable, no
 * address) or no answer within the timeout. A refusal of the address policy is not one of them.
 */
const NO_ANSWER_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

const isNoAnswer = (error: unknown): boolean =>
  error instanceof Error && NO_ANSWER_CODES.has(String((error as { code?: unknown }).code));

/** The most of an answer's body read before the connection is dropped (undici's dump() reads as much). */
const BODY_READ_LIMIT = 128 * 1024;

/** How finely the send timeout is checked: an attempt fails between the timeout and one tick later. */
const TIMEOUT_TICK_MS = 10;

interface Target {
  /** undici's dispatch options: where to, and those every send to it shares. */
  origin: string;
  path: string;
  /** Basic Auth from the URL's userinfo, when it has one, as a header name and value. */
  authorization: [string, string] | [];
  refused: string | null;
}

/**
 * One send: undici's handler of the request (its low-level dispatch: no promise, response stream
 * or async resource of its own) and the send's deadline at once.
 */
class Send extends Deadline {
  readonly #transport: HttpTransport;
  readonly #resolve: (result: SendResult) => void;
  #abort: ((reason: Error) => void) | null = null;
  #timedOut = false;
  #statusCode = 0;
  #bytesRead = 0;
  #settled = false;

  constructor(transport: HttpTransport, resolve: (result: SendResult) => void) {
    super();
    this.#transport = transport;
    this.#resolve = resolve;
  }

  /** undici: the request got a connection and is being written; `abort` ends it. */
  onConnect(abort: (reason: Error) => void): void {
    // A request still queued for a connection when its time ran out ends here, as it would
    // with an aborted signal.
    if (this.#timedOut) abort(this.#transport.timeoutError());
    else this.#abort = abort;
  }

  onHeaders(statusCode: number): boolean {
    if (statusCode >= 200) this.#statusCode = statusCode; // 1xx: informational, the answer follows
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.#bytesRead += chunk.length;
    // Enough read: the status decides, and the connection is not worth keeping for the rest.
    if (this.#bytesRead > BODY_READ_LIMIT) this.#abort?.(new Error('answer body too large'));
    return true;
  }

  onComplete(): void {
    this.#finish(this.#answered());
  }

  onError(error: Error): void {
    // Once the status came, the attempt's outcome is the status whatever ends reading the body
    // (as with undici's dump(), which swallows that error).
    if (this.#statusCode !== 0) this.#finish(this.#answered());
    else if (this.#timedOut) this.#finish(noAnswer(this.#transport.timeoutError()));
    else this.#finish(isNoAnswer(error) ? noAnswer(error) : failure(error));
  }

  expired(): void {
    this.#timedOut = true;
    this.#abort?.(this.#transport.timeoutError());
  }

  #answered(): SendResult {
    const statusCode = this.#statusCode;
    const ok = statusCode >= 200 && statusCode < 300;
    return { ok, statusCode, error: ok ? null : `HTTP ${statusCode}`, unresponsive: false };
  }

  #finish(result: SendResult): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#transport.deadlines.remove(this);
    this.#resolve(result);
  }
}

export class HttpTransport implements Transport {
  readonly #agent: Agent;
  /**
   * By the URL object: the delivery worker keeps one per callback URL (bounded), so a target lives
   * as long as the worker keeps its URL.
   */
  readonly #targets = new WeakMap<URL, Target>();
  readonly #timeoutMs: number;
  readonly #policy: AddressPolicy;
  /** Every send's timeout under one timer (src/delivery/deadlines.ts). */
  readonly deadlines: DeadlineList;

  constructor(options: { timeoutMs: number; policy: AddressPolicy }) {
    this.#timeoutMs = options.timeoutMs;
    this.#policy = options.policy;
    this.deadlines = new DeadlineList(options.timeoutMs, TIMEOUT_TICK_MS);
    this.#agent = new Agent({
      keepAliveTimeout: 30_000,
      connections: 16,
      connect: {
        timeout: options.timeoutMs,
        // Checked on the address actually connected to, so DNS rebinding cannot get around it.
        lookup: options.policy.lookup,
      },
    });
  }

  send(url: URL, body: Buffer, headers: string[]): Promise<SendResult> {
    let target: Target;
    try {
      // A bad escape in the credentials (decodeURIComponent throws) is a failed attempt, never a
      // rejected send.
      target = this.#target(url);
    } catch (error) {
      return Promise.resolve(failure(error));
    }
    if (target.refused !== null) return Promise.resolve(failure(target.refused));
    if (target.authorization.length > 0) headers.push(...target.authorization);
    return new Promise<SendResult>((resolve) => {
      const send = new Send(this, resolve);
      this.deadlines.add(send);
      // A request undici refuses (a bad header) comes back through the handler's onError.
      this.#agent.dispatch(
        {
          origin: target.origin,
          path: target.path,
          method: 'POST',
          headers,
          body,
          headersTimeout: this.#timeoutMs,
          bodyTimeout: this.#timeoutMs,
        },
        send,
      );
    });
  }

  /** Why a send that ran out of time failed: the same words for every one. */
  timeoutError(): Error {
    return new DOMException(`no answer within ${this.#timeoutMs} ms`, 'TimeoutError');
  }

  /**
   * Where a callback URL sends to: without its userinfo, which becomes Basic Auth (docs/api.md,
   * "Callbacks (event delivery)"), and whether the address policy refuses a literal address (host
   * names are checked in the agent's lookup). Kept per URL: the same few URLs are sent to
   * thousands of times a second, and parsing and checking each time was a visible part of a send.
   */
  #target(url: URL): Target {
    const known = this.#targets.get(url);
    if (known) return known;
    const target = new URL(url);
    let authorization: Target['authorization'] = [];
    if (target.username !== '' || target.password !== '') {
      const credentials = `${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`;
      authorization = ['authorization', `Basic ${Buffer.from(credentials).toString('base64')}`];
      target.username = '';
      target.password = '';
    }
    const prepared: Target = {
      origin: target.origin,
      path: `${target.pathname}${target.search}`,
      authorization,
      refused: this.#policy.literalRefusal(target.hostname),
    };
    this.#targets.set(url, prepared);
    return prepared;
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }
}
