// HAL builders (docs/api.md, "Representations (HAL)" and "Collections"): resources, links and
// paged collections.
import type { KeysetPage, OffsetPage } from '../db/paging.ts';
import type { Hrefs, QueryValues } from './hrefs.ts';

export interface Link {
  href: string;
  method: string;
  embeddable: boolean;
  templated?: true;
}

export interface Resource {
  properties: Record<string, unknown>;
  _links: Record<string, Link>;
  _embedded?: Record<string, unknown>;
}

export const link = (
  href: string,
  options: { method?: string; embeddable?: boolean; templated?: boolean } = {},
): Link => ({
  href,
  method: options.method ?? 'GET',
  embeddable: options.embeddable ?? false,
  ...(options.templated ? { templated: true as const } : {}),
});

export function resource(
  properties: Record<string, unknown>,
  links: Record<string, Link | undefined>,
  embedded?: Record<string, unknown>,
): Resource {
  // for...in: no array of entries per resource (a page builds a hundred).
  const _links: Record<string, Link> = {};
  for (const name in links) {
    const value = links[name];
    if (value) _links[name] = value;
  }
  return embedded && Object.keys(embedded).length > 0
    ? { properties, _links, _embedded: embedded }
    : { properties, _links };
}

export interface CollectionContext {
  hrefs: Hrefs;
  /** Path of the collection, e.g. `/workplaces`. */
  path: string;
  /** Name of the embedded array, e.g. `workplaces`. */
  name: string;
  /** Filters and embed of the request, kept in every paging link. */
  query: QueryValues;
  /** The `create<Resource>` link, given iff creation is allowed. */
  create?: { rel: string; href: string } | undefined;
  /** A search answer's paging links repeat the POST (the client re-sends its body); default GET. */
  pagingMethod?: 'POST' | undefined;
}

/**
 * An offset-mode collection: limit, count, offset, total, the identifiers as null (the real API's
 * form, docs/api.md "Collections") and the five paging links plus self.
 */
export function offsetCollection(
  context: CollectionContext,
  items: Resource[],
  page: OffsetPage<unknown>,
  request: { limit: number; offset: number },
) {
  const { limit, offset } = request;
  const at = (value: number) =>
    link(context.hrefs.api(context.path, { ...context.query, limit, offset: value }));
  const lastOffset = page.total === 0 ? 0 : Math.floor((page.total - 1) / limit) * limit;
  const current = at(offset);
  return {
    pagination: {
      limit,
      count: items.length,
      offset,
      total: page.total,
      firstIdentifier: null,
      lastIdentifier: null,
    },
    _embedded: { [context.name]: items },
    _links: withCreate(context, {
      self: current,
      current,
      first: at(0),
      ...(offset > 0 ? { previous: at(Math.max(0, offset - limit)) } : {}),
      ...(offset + items.length < page.total ? { next: at(offset + limit) } : {}),
      last: at(lastOffset),
    }),
  };
}

export interface KeysetPosition {
  paginationTimestamp: string;
  paginationIdentifier: string;
}

/**
 * A position in `firstIdentifier`/`lastIdentifier`: the real API's `timestamp` and `identifier`,
 * and the same values under the names of the query parameters that ask for it (docs/api.md,
 * "Collections").
 */
interface PagePosition extends KeysetPosition {
  timestamp: string;
  identifier: string;
}

const pagePosition = (position: KeysetPosition): PagePosition => ({
  timestamp: position.paginationTimestamp,
  identifier: position.paginationIdentifier,
  ...position,
});

/** The position of an item in a list ordered by one of its dates, newest first, then by id. */
export const positionBy =
  <Field extends string>(field: Field) =>
  (item: { id: string } & Record<Field, Date>): KeysetPosition => ({
    paginationTimestamp: item[field].toISOString(),
    paginationIdentifier: item.id,
  });

/** The position of a record ordered by its start (histories, shifts). */
export const startPosition = positionBy('startDate');

/** A timestamp-mode collection (docs/api.md, "Collections"): offset null, first and last identifiers, keyset links. */
export function keysetCollection<T>(
  context: CollectionContext,
  items: Resource[],
  page: KeysetPage<T>,
  request: { limit: number; query: QueryValues },
  positionOf: (item: T) => KeysetPosition,
) {
  const { limit } = request;
  const method = context.pagingMethod;
  const at = (direction: 'NEXT' | 'PREVIOUS', position?: KeysetPosition) =>
    link(
      context.hrefs.api(context.path, {
        ...context.query,
        limit,
        paginationDirection: direction,
        ...position,
      }),
      { method },
    );
  const first = page.items[0] === undefined ? null : positionOf(page.items[0]);
  const last = page.items.at(-1) === undefined ? null : positionOf(page.items.at(-1) as T);
  const current = link(context.hrefs.api(context.path, { ...context.query, ...request.query, limit }), {
    method,
  });
  return {
    pagination: {
      limit,
      count: items.length,
      offset: null,
      total: page.total,
      firstIdentifier: first && pagePosition(first),
      lastIdentifier: last && pagePosition(last),
    },
    _embedded: { [context.name]: items },
    _links: withCreate(context, {
      self: current,
      current,
      first: at('NEXT'),
      // `prev` is the real server's name for it (the SDK's recordings of keyset pages).
      ...(page.hasNewer && first ? { previous: at('PREVIOUS', first), prev: at('PREVIOUS', first) } : {}),
      ...(page.hasOlder && last ? { next: at('NEXT', last) } : {}),
      last: at('PREVIOUS'),
    }),
  };
}

function withCreate(context: CollectionContext, links: Record<string, Link>): Record<string, Link> {
  return context.create
    ? { ...links, [context.create.rel]: link(context.create.href, { method: 'POST' }) }
    : links;
}

/**
 * A summary or report whose `properties.elements` are one offset page of `elements` (the SDK's
 * form): pagination without identifiers, links self, first, last and previous/next when there are.
 */
export function elementsPage<T>(
  context: { hrefs: Hrefs; path: string; query: QueryValues },
  properties: Record<string, unknown>,
  elements: readonly T[],
  request: { limit: number; offset: number },
  embedded?: Record<string, unknown>,
) {
  const { limit, offset } = request;
  const page = elements.slice(offset, offset + limit);
  const at = (value: number) =>
    link(context.hrefs.api(context.path, { ...context.query, limit, offset: value }));
  const lastOffset = elements.length === 0 ? 0 : Math.floor((elements.length - 1) / limit) * limit;
  return {
    ...resource(
      { ...properties, elements: page },
      {
        self: at(offset),
        first: at(0),
        ...(offset > 0 ? { previous: at(Math.max(0, offset - limit)) } : {}),
        ...(offset + page.length < elements.length ? { next: at(offset + limit) } : {}),
        last: at(lastOffset),
      },
      embedded,
    ),
    pagination: {
      offset,
      limit,
      count: page.length,
      total: elements.length,
      firstIdentifier: null,
      lastIdentifier: null,
    },
  };
}
