// Helpers for comparing HAL answers as a client sees them.

/**
 * The origin of hrefs in answers to inject() requests: hrefs are absolute URLs built from the
 * request's Host (docs/api.md, "Addresses and versions"), and inject() sends `Host: localhost:80`.
 */
export const ORIGIN = 'http://localhost:80';

/** A path from the server root as the absolute href an inject() answer carries. */
export const absolute = (path: string) => (path.startsWith('/') ? `${ORIGIN}${path}` : path);

/** A GET link as every HAL link is shaped: href (absolute, see `absolute`), method and embeddable. */
export const get = (href: string, embeddable = false) => ({
  href: absolute(href),
  method: 'GET',
  embeddable,
});

/** Query order in hrefs is not part of the contract: compare hrefs with sorted parameters. */
export function normalizeHref(href: string): string {
  const url = new URL(href, 'http://host');
  const params = new URLSearchParams([...url.searchParams].sort(([a], [b]) => a.localeCompare(b)));
  const search = params.toString();
  return `${url.pathname}${search === '' ? '' : `?${search}`}`;
}

/** Deep copy with every `href` normalized (see normalizeHref). */
export function normalized<T>(value: T): T {
  if (Array.isArray(value)) return value.map(normalized) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        key === 'href' && typeof inner === 'string' ? normalizeHref(inner) : normalized(inner),
      ]),
    ) as T;
  }
  return value;
}
