// The Bridge API as a typed client: `paths` are generated from the service's OpenAPI document
// (`npm run client:generate`), requests go through openapi-fetch, and the factory gets an OAuth
// token with the client credentials and renews it before it expires (after a 401 it renews it and
// sends the request once more). follow()
// requests a link of a HAL resource by its href, through the same client (token, middleware), on
// the client's own origin only: the token never goes to a host an href names.
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { components, paths } from './schema.d.ts';

export type { components, operations, paths } from './schema.d.ts';

export interface BridgeClientOptions {
  /** Where the service answers, with its base path: `http://localhost:8080`. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Scopes to ask for (space-separated); default: every scope the client holds. */
  scope?: string;
  /** A fetch of your own (tests, proxies); default: the global fetch. */
  fetch?: typeof fetch;
  /**
   * Where the service's hrefs start when that is not `baseUrl`: its public URL
   * (BRIDGE_PUBLIC_URL, e.g. `https://bridge.plant.example/ffwebservices`) while you reach it at
   * another address. follow() sends an href under this prefix to `baseUrl` instead, with the
   * rest of its path and its query. Without it, follow() refuses hrefs on any origin but baseUrl's.
   */
  linkRoot?: string;
}

/** A link of a HAL resource (`_links.<rel>`): an absolute href, with its query if any. */
export interface Link {
  href: string;
}

/** The error body of every 4xx and 5xx answer. */
export type ErrorBody = components['schemas']['def-0'];

export interface FollowOptions {
  /** Default GET. */
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Sent as JSON unless `bodySerializer` says otherwise. */
  body?: unknown;
  /** Added to the href's own query. */
  query?: Record<string, string | number | boolean | undefined>;
  headers?: Record<string, string>;
  /** E.g. `(text) => text` with a `content-type` header, to upload raw bytes. */
  bodySerializer?: (body: unknown) => RequestInit['body'];
}

/** What follow() answers, as the typed methods do: `data` on success, else `error`. */
export type FollowAnswer<T> =
  | { data: T; error?: never; response: Response }
  | { data?: never; error: ErrorBody; response: Response };

export type BridgeClient = Client<paths> & {
  /** A valid access token (fetched or renewed when needed), e.g. for the event stream. */
  token(): Promise<string>;
  /** Where the service answers, without a trailing slash. */
  readonly baseUrl: string;
  /**
   * Requests a link's href (absolute, or a path from the server root), e.g. an action link
   * `_links.changeOperationPhaseToSETUP`. `T` is the body you expect (HAL is read by name); the
   * generated types of the matching path say what it is, e.g.
   * `paths['/api/v2/operations/{id}']['get']['responses'][200]['content']['application/json']`.
   * An href under `linkRoot` goes to `baseUrl`; one on any other origin than baseUrl's is refused
   * (rejects with a ForeignLinkError, nothing is sent).
   */
  follow<T = unknown>(link: Link | string, options?: FollowOptions): Promise<FollowAnswer<T>>;
};

/** follow() was given an href it will not send the token to: one on another origin than baseUrl's. */
export class ForeignLinkError extends Error {
  readonly href: string;
  constructor(href: string, origin: string) {
    super(
      `follow() refuses ${href}: not on ${origin}, the origin of baseUrl (the token is sent there only). ` +
        'If the service builds its hrefs from another URL (BRIDGE_PUBLIC_URL), create the client with it as linkRoot.',
    );
    this.name = 'ForeignLinkError';
    this.href = href;
  }
}

/** An answer the caller did not accept: its status and the API's error body. */
export class BridgeApiError extends Error {
  readonly status: number;
  readonly body: unknown;
  constructor(request: string, status: number, body: unknown) {
    super(`${request}: ${status} ${typeof body === 'string' ? body : JSON.stringify(body)}`);
    this.name = 'BridgeApiError';
    this.status = status;
    this.body = body;
  }
}

/**
 * The data of a successful answer of a typed method or follow(); any other answer throws a
 * BridgeApiError with its status and body: `const { properties } = dataOf(await bridge.GET(...))`.
 */
export function dataOf<T>(answer: { data?: T; error?: unknown; response: Response }): T {
  const { response } = answer;
  if (!response.ok) {
    const url = new URL(response.url || 'unknown:');
    throw new BridgeApiError(`${url.pathname}${url.search}`, response.status, answer.error);
  }
  return answer.data as T;
}

/** Renew this long before the token expires. */
const RENEW_BEFORE_MS = 30_000;

export function createBridgeClient(options: BridgeClientOptions): BridgeClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const fetchImpl = options.fetch ?? globalThis.fetch;
  let current: { token: string; renewAt: number } | undefined;
  let pending: Promise<string> | undefined;

  async function requestToken(): Promise<string> {
    const form = new URLSearchParams({ grant_type: 'client_credentials' });
    if (options.scope) form.set('scope', options.scope);
    const basic = Buffer.from(
      `${encodeURIComponent(options.clientId)}:${encodeURIComponent(options.clientSecret)}`,
    ).toString('base64');
    const response = await fetchImpl(`${baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    });
    const body = (await response.json().catch(() => ({}))) as {
      access_token?: string;
      expires_in?: number;
      error?: string;
      error_description?: string;
    };
    if (!response.ok || !body.access_token) {
      const reason = body.error_description ?? body.error ?? `HTTP ${response.status}`;
      throw new Error(`token request failed: ${reason}`);
    }
    const lifetimeMs = (body.expires_in ?? 60) * 1000;
    current = { token: body.access_token, renewAt: Date.now() + Math.max(0, lifetimeMs - RENEW_BEFORE_MS) };
    return body.access_token;
  }

  async function token(): Promise<string> {
    if (current && Date.now() < current.renewAt) return current.token;
    pending ??= requestToken().finally(() => {
      pending = undefined;
    });
    return pending;
  }

  const auth: Middleware = {
    async onRequest({ request }) {
      request.headers.set('authorization', `Bearer ${await token()}`);
      return request;
    },
  };
  // A token the service no longer accepts (removed client, new signing key): the request goes
  // once more with a fresh one. Wraps fetch, so the resent request is the one the middleware made.
  const fetchRenewing = async (request: Request, init?: RequestInit): Promise<Response> => {
    const again = request.clone();
    const response = await fetchImpl(request, init);
    if (response.status !== 401) return response;
    current = undefined;
    await response.body?.cancel();
    again.headers.set('authorization', `Bearer ${await token()}`);
    return fetchImpl(again, init);
  };
  const client = createClient<paths>({ baseUrl, fetch: fetchRenewing });
  client.use(auth);

  const origin = new URL(baseUrl).origin;
  const linkRoot = options.linkRoot === undefined ? undefined : new URL(options.linkRoot);
  const linkRootPath = linkRoot?.pathname.replace(/\/+$/, '') ?? '';

  /** Where an href is sent: under linkRoot it moves to baseUrl; on another origin it is refused. */
  function target(href: string): URL {
    // Relative hrefs (a service without a usable Host) start at the server root.
    const url = new URL(href, baseUrl);
    if (
      linkRoot !== undefined &&
      url.origin === linkRoot.origin &&
      (url.pathname === linkRootPath || url.pathname.startsWith(`${linkRootPath}/`))
    ) {
      return new URL(`${baseUrl}${url.pathname.slice(linkRootPath.length)}${url.search}`);
    }
    if (url.origin !== origin) throw new ForeignLinkError(href, origin);
    return url;
  }

  async function follow<T>(link: Link | string, options: FollowOptions = {}): Promise<FollowAnswer<T>> {
    const url = target(typeof link === 'string' ? link : link.href);
    const query: Record<string, string | number | boolean> = Object.fromEntries(url.searchParams);
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) query[name] = value;
    }
    // The href is the path: no template, so the typed methods' path check does not apply.
    const request = client.request as unknown as (
      method: string,
      path: string,
      init: Record<string, unknown>,
    ) => Promise<FollowAnswer<T>>;
    return request((options.method ?? 'GET').toLowerCase(), url.pathname, {
      baseUrl: origin,
      params: { query },
      body: options.body,
      headers: options.headers,
      ...(options.bodySerializer ? { bodySerializer: options.bodySerializer } : {}),
    });
  }

  return Object.assign(client, { token, baseUrl, follow });
}
