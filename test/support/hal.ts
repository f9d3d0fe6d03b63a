// Helpers for comparing HAL answers as a client sees them.

/** A GET link as every HAL link is shaped: href, method and embeddable always present. */
export const get = (href: string, embeddable = false) => ({ href, method: 'GET', embeddable });

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
