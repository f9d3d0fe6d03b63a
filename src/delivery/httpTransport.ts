// HTTP(S) deliveries: POST with undici over keep-alive connection pools, bounded by a timeout.
// Redirects are not followed (undici's request does not without a redirect interceptor): a 3xx
// answer is a failed attempt, so a receiver cannot send the bridge on to another address.
import { Agent, request } from 'undici';
import type { AddressPolicy } from '../net/addressPolicy.ts';
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
  error instanceof Error &&
  // The send's own timeout aborts with a DOMException named TimeoutError.
  (error.name === 'TimeoutError' || NO_ANSWER_CODES.has(String((error as { code?: unknown }).code)));

interface Target {
  url: URL;
  /** Basic Auth from the URL's userinfo, when it has one. */
  headers: Record<string, string>;
  refused: string | null;
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

  constructor(options: { timeoutMs: number; policy: AddressPolicy }) {
    this.#timeoutMs = options.timeoutMs;
    this.#policy = options.policy;
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

  async send(url: URL, body: string, headers: Record<string, string>): Promise<SendResult> {
    // A timer cleared when the send ends, not AbortSignal.timeout(): its timer outlives the send
    // and builds a DOMException when it fires, for every send, and keeps the signal alive until then.
    const timeout = new AbortController();
    const timer = setTimeout(
      () => timeout.abort(new DOMException(`no answer within ${this.#timeoutMs} ms`, 'TimeoutError')),
      this.#timeoutMs,
    );
    try {
      // Inside the try: a bad escape in the credentials (decodeURIComponent throws) is a failed
      // attempt, never a rejected send.
      const target = this.#target(url);
      if (target.refused !== null) return failure(target.refused);
      const response = await request(target.url, {
        method: 'POST',
        dispatcher: this.#agent,
        headers: { 'content-type': 'application/json', ...headers, ...target.headers },
        body,
        headersTimeout: this.#timeoutMs,
        bodyTimeout: this.#timeoutMs,
        signal: timeout.signal,
      });
      await response.body.dump();
      const ok = response.statusCode >= 200 && response.statusCode < 300;
      return {
        ok,
        statusCode: response.statusCode,
        error: ok ? null : `HTTP ${response.statusCode}`,
        unresponsive: false,
      };
    } catch (error) {
      return isNoAnswer(error) ? noAnswer(error) : failure(error);
    } finally {
      clearTimeout(timer);
    }
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
    const headers: Record<string, string> = {};
    if (target.username !== '' || target.password !== '') {
      const credentials = `${decodeURIComponent(target.username)}:${decodeURIComponent(target.password)}`;
      headers.authorization = `Basic ${Buffer.from(credentials).toString('base64')}`;
      target.username = '';
      target.password = '';
    }
    const prepared = { url: target, headers, refused: this.#policy.literalRefusal(target.hostname) };
    this.#targets.set(url, prepared);
    return prepared;
  }

  async close(): Promise<void> {
    await this.#agent.close();
  }
}
