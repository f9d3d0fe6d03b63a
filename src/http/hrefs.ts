// The one place that builds hrefs (docs/api.md, "Addresses and versions"): absolute URLs
// `scheme://host[:port]{base path}/api/vN/...`. The origin is BRIDGE_PUBLIC_URL when set, else the
// request's own (`Host`, and with BRIDGE_TRUST_PROXY also `X-Forwarded-Proto/-Host/-Prefix` or
// `Forwarded`). A request without a usable host gets paths from the server root instead.
import { hostname } from 'node:os';

export type QueryValues = Record<string, string | number | undefined>;

export class Hrefs {
  readonly #root: string;
  readonly #apiRoot: string;
  readonly version: number;

  constructor(root: string, version: number) {
    this.#root = root;
    this.#apiRoot = `${root}/api/v${version}`;
    this.version = version;
  }

  /** A path outside the versioned API (token endpoint, documentation). */
  root(path: string): string {
    return `${this.#root}${path}`;
  }

  /** `/api/vN` + path, with the query values that are set. */
  api(path: string, query?: QueryValues): string {
    // Most links have no query: no URLSearchParams for them (a dozen hrefs per resource).
    if (query === undefined) return `${this.#apiRoot}${path}`;
    const text = queryText(query);
    return `${this.#apiRoot}${path}${text === '' ? '' : `?${text}`}`;
  }
}

// What URLSearchParams leaves as it is (application/x-www-form-urlencoded).
const PLAIN = /^[A-Za-z0-9*._-]*$/;

/** The query as URLSearchParams writes it; without it when nothing needs encoding (ids, numbers). */
function queryText(query: QueryValues): string {
  let text = '';
  for (const name in query) {
    const value = query[name];
    if (value === undefined || value === '') continue;
    const valueText = String(value);
    if (!PLAIN.test(name) || !PLAIN.test(valueText)) return encoded(query);
    text += `${text === '' ? '' : '&'}${name}=${valueText}`;
  }
  return text;
}

function encoded(query: QueryValues): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== '') search.set(name, String(value));
  }
  return search.toString();
}

interface HrefSettings {
  publicUrl: string | undefined;
  basePath: string;
  trustProxy: boolean;
}

/** What of a request names its origin. */
export interface RequestAddress {
  headers: Record<string, string | string[] | undefined>;
  /** `http` or `https`: how the request reached this server. */
  protocol: string;
}

// A host as RFC 3986 allows it in an authority (name, IPv4, [IPv6]) with an optional port; anything
// else (spaces, slashes, '@', quotes) would let a caller put another URL into our hrefs.
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;
const PREFIX = /^(?:\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)+$/;

/** The first value of a header that a proxy may have repeated or joined with commas. */
function first(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  const part = text?.split(',')[0]?.trim();
  return part === '' ? undefined : part;
}

/** RFC 7239 `Forwarded: for=...;proto=https;host=example.com` (its first element). */
function forwarded(value: string | string[] | undefined): { proto?: string; host?: string } {
  const element = first(value);
  if (element === undefined) return {};
  const result: { proto?: string; host?: string } = {};
  for (const pair of element.split(';')) {
    const equals = pair.indexOf('=');
    if (equals < 0) continue;
    const name = pair.slice(0, equals).trim().toLowerCase();
    const raw = pair.slice(equals + 1).trim();
    const text = raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw;
    if (name === 'proto') result.proto = text.toLowerCase();
    if (name === 'host') result.host = text;
  }
  return result;
}

/** Where hrefs of this request start: `scheme://host[:port]{prefix}{base path}`, or the base path. */
export function requestRoot(settings: HrefSettings, request: RequestAddress): string {
  if (settings.publicUrl !== undefined) return settings.publicUrl;
  const { headers } = request;
  let proto = request.protocol;
  let host = first(headers.host);
  let prefix = '';
  if (settings.trustProxy) {
    const standard = forwarded(headers.forwarded);
    const forwardedProto = standard.proto ?? first(headers['x-forwarded-proto'])?.toLowerCase();
    if (forwardedProto === 'http' || forwardedProto === 'https') proto = forwardedProto;
    host = standard.host ?? first(headers['x-forwarded-host']) ?? host;
    const forwardedPrefix = first(headers['x-forwarded-prefix'])?.replace(/\/+$/, '');
    if (forwardedPrefix !== undefined && PREFIX.test(forwardedPrefix)) prefix = forwardedPrefix;
  }
  if (host === undefined || !HOST.test(host)) return `${prefix}${settings.basePath}`;
  return `${proto}://${host}${prefix}${settings.basePath}`;
}

/**
 * Where hrefs made outside a request start (delivered events' `_links.callback`): the public URL,
 * else this instance's own address (its host name when it listens on every address).
 */
export function instanceRoot(
  settings: { publicUrl: string | undefined; basePath: string; https: boolean },
  address: { address: string; port: number } | undefined,
): string {
  if (settings.publicUrl !== undefined) return settings.publicUrl;
  if (address === undefined) return settings.basePath;
  const wildcard = address.address === '0.0.0.0' || address.address === '::';
  const host = wildcard
    ? hostname()
    : address.address.includes(':')
      ? `[${address.address}]`
      : address.address;
  return `${settings.https ? 'https' : 'http'}://${host}:${address.port}${settings.basePath}`;
}

/** publicUrl (e.g. https://host/ffwebservices) when set, else the base path: for static documents. */
export const hrefRoot = (config: { publicUrl: string | undefined; basePath: string }) =>
  config.publicUrl ?? config.basePath;
