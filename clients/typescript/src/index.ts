// The Bridge API as a typed client: `paths` are generated from the service's OpenAPI document
// (`npm run client:generate`), requests go through openapi-fetch, and the factory gets an OAuth
// token with the client credentials and renews it before it expires (or after a 401).
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths } from './schema.d.ts';

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
}

export type BridgeClient = Client<paths> & {
  /** A valid access token (fetched or renewed when needed), e.g. for the event stream. */
  token(): Promise<string>;
  /** Where the service answers, without a trailing slash. */
  readonly baseUrl: string;
};

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
    async onResponse({ response }) {
      // A token the service no longer accepts (removed client, new key): get a fresh one next time.
      if (response.status === 401) current = undefined;
      return response;
    },
  };
  const client = createClient<paths>({ baseUrl, fetch: fetchImpl });
  client.use(auth);
  return Object.assign(client, { token, baseUrl });
}
