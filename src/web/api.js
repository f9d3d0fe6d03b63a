// @ts-check
// Sign-in and API calls (docs/dashboard.md, "Sign-in"). The token lives in sessionStorage only
// (this tab); the secret is kept in memory only, to renew the token before it expires. After a
// reload the stored token is used until it expires, then the page asks to sign in again.
const KEY = 'bridge.dashboard.token';
const API = 'api/v2';
/** A sign-in that gets no answer in this time is reported as failed (the form can be sent again). */
const SIGN_IN_TIMEOUT_MS = 10_000;
/** @type {{clientId: string, clientSecret: string} | undefined} */
let credentials;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let renewTimer;
/** @type {Set<(signedIn: boolean) => void>} */
const listeners = new Set();

/**
 * Called with true/false when the page signs in or out.
 * @param {(signedIn: boolean) => void} listener
 */
export const onSession = (listener) => listeners.add(listener);
/** @param {boolean} signedIn */
const announce = (signedIn) => {
  for (const listener of listeners) listener(signedIn);
};

/**
 * An answer that is not a success: its status, and the code of the standard error body (or the
 * OAuth error).
 */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {any} body
   */
  constructor(status, body) {
    super(body?.message ?? body?.error_description ?? `HTTP ${status}`);
    this.status = status;
    this.code = body?.code ?? body?.error;
  }
}

/** @typedef {{accessToken: string, expiresAt: number, scope: string}} Token */

/** @returns {Token | undefined} */
function stored() {
  try {
    const value = JSON.parse(sessionStorage.getItem(KEY) ?? 'null');
    return value && value.expiresAt > Date.now() ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * @param {string} clientId
 * @param {string} clientSecret
 */
export async function signIn(clientId, clientSecret) {
  const body = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: clientId,
    client_secret: clientSecret,
  });
  let response;
  try {
    // The client goes in the form body (client_secret_post) and the request carries no browser
    // credentials: a 401 then comes back to the page instead of raising the browser's own
    // sign-in prompt (which, in a headless or a busy tab, would leave the request hanging).
    response = await fetch('oauth/token', {
      method: 'POST',
      credentials: 'omit',
      cache: 'no-store',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body,
      signal: AbortSignal.timeout(SIGN_IN_TIMEOUT_MS),
    });
  } catch (error) {
    const reason = error instanceof Error && error.name === 'TimeoutError' ? 'no answer' : 'network error';
    throw new ApiError(0, { code: 'NETWORK', message: `the service could not be reached (${reason})` });
  }
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new ApiError(response.status, answer);
  credentials = { clientId, clientSecret };
  const token = {
    accessToken: answer.access_token,
    expiresAt: Date.now() + answer.expires_in * 1000,
    scope: answer.scope,
  };
  sessionStorage.setItem(KEY, JSON.stringify(token));
  schedule(token);
  announce(true);
}

/** Renews at 80 % of the lifetime while the secret is known; signs out at expiry otherwise. */
/** @param {Token} token */
function schedule(token) {
  clearTimeout(renewTimer);
  const left = token.expiresAt - Date.now();
  renewTimer = setTimeout(
    async () => {
      if (!credentials) return signOut();
      try {
        await signIn(credentials.clientId, credentials.clientSecret);
      } catch {
        const token = stored();
        if (!token) signOut();
        else schedule(token);
      }
    },
    credentials ? Math.max(1000, left * 0.8) : left,
  );
}

export function resume() {
  const token = stored();
  if (token) schedule(token);
  return token !== undefined;
}

export function signOut() {
  clearTimeout(renewTimer);
  credentials = undefined;
  sessionStorage.removeItem(KEY);
  announce(false);
}

export const accessToken = () => stored()?.accessToken;

/** @typedef {Record<string, string | number | undefined>} Query */

/**
 * The query parameters that ask for a page's first or last position; the position itself also
 * carries the real API's `timestamp`/`identifier`, which no query takes (docs/api.md, "Collections").
 * @param {{paginationTimestamp: string, paginationIdentifier: string}} position
 * @returns {Query}
 */
export const positionQuery = (position) => ({
  paginationTimestamp: position.paginationTimestamp,
  paginationIdentifier: position.paginationIdentifier,
});

/**
 * @param {string} path
 * @param {Query} [query]
 */
function url(path, query = {}) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query))
    if (value !== undefined && value !== '') search.append(name, String(value));
  const text = search.toString();
  return `${API}${path}${text ? `?${text}` : ''}`;
}

/**
 * @param {string} method
 * @param {string} path
 * @param {Query | undefined} query
 * @param {unknown} body
 * @param {AbortSignal} [signal]
 * @returns {Promise<any>} the HAL body
 */
async function call(method, path, query, body, signal) {
  const token = accessToken();
  if (!token) {
    signOut();
    throw new ApiError(401, { code: 'UNAUTHORIZED', message: 'Not signed in' });
  }
  const response = await fetch(url(path, query), {
    method,
    signal,
    headers: {
      authorization: `Bearer ${token}`,
      accept: 'application/hal+json',
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const answer = await response.json().catch(() => ({}));
  if (response.status === 401) signOut();
  if (!response.ok) throw new ApiError(response.status, answer);
  return answer;
}

/**
 * @param {string} path
 * @param {Query} [query]
 * @param {AbortSignal} [signal]
 */
export const get = (path, query, signal) => call('GET', path, query, undefined, signal);
/**
 * @param {string} path
 * @param {Query | undefined} query
 * @param {unknown} body
 * @param {AbortSignal} [signal]
 */
const post = (path, query, body, signal) => call('POST', path, query, body, signal);

/**
 * A route another part of the service may not have (yet): null when the router does not know it.
 * @param {string} path
 * @param {Query} [query]
 * @returns {Promise<any>}
 */
export async function optional(path, query) {
  try {
    return await get(path, query);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404 && error.code === 'ROUTE_NOT_FOUND') return null;
    throw error;
  }
}

/**
 * The properties of a collection's embedded items.
 * @param {any} collection
 * @param {string} name
 * @returns {any[]}
 */
export const items = (collection, name) =>
  (collection?._embedded?.[name] ?? []).map((/** @type {{properties: any}} */ item) => item.properties);

/**
 * Every item of an offset-mode collection (100 a page).
 * @param {string} path
 * @param {string} name
 * @param {Query} [query]
 */
export async function all(path, name, query = {}) {
  /** @type {any[]} */
  const result = [];
  for (let offset = 0; ; offset += 100) {
    const page = await get(path, { ...query, limit: 100, offset });
    result.push(...items(page, name));
    if (!page._links?.next || page.pagination.count === 0) return result;
  }
}

/**
 * Every match of a timestamp-mode search (POST /operations/search), following its next links.
 * @param {string} path
 * @param {string} name
 * @param {unknown} body
 * @param {number} [max]
 */
export async function searchAll(path, name, body, max = 2000) {
  /** @type {any[]} */
  const result = [];
  /** @type {Query} */
  let query = { limit: 100 };
  while (result.length < max) {
    const page = await post(path, query, body);
    result.push(...items(page, name));
    const last = page.pagination?.lastIdentifier;
    if (!page._links?.next || !last) return result;
    query = { limit: 100, paginationDirection: 'NEXT', ...positionQuery(last) };
  }
  return result;
}

/**
 * Runs tasks at most `width` at a time (lazy tile details: quantities, OEE).
 * @returns {(task: () => Promise<void>) => void}
 */
export function queue(width = 4) {
  /** @type {(() => Promise<void>)[]} */
  const waiting = [];
  let running = 0;
  const next = () => {
    while (running < width && waiting.length > 0) {
      const task = waiting.shift();
      if (!task) return;
      running += 1;
      task().finally(() => {
        running -= 1;
        next();
      });
    }
  };
  return (task) => {
    waiting.push(task);
    next();
  };
}
