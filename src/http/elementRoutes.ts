// Sub-resources in the SDK's element form (docs/api.md, "Collections"): a GET below an owner whose
// page is `properties.elements[]` with offset pagination (components, user fields, material
// characteristics, an order's operation sequence, scheduled times), and the one-object
// sub-resources beside them (scheduled dates, current production data).
import type { FastifyRequest } from 'fastify';
import { type Static, type TObject, type TProperties, type TSchema, Type } from 'typebox';
import type { OffsetPage, OffsetRequest } from '../db/paging.ts';
import type { Api } from './api.ts';
import { parseEmbed } from './embed.ts';
import { type Resource as HalResource, type Link, link, offsetCollection } from './hal.ts';
import type { QueryValues } from './hrefs.ts';
import { registerRoute } from './route.ts';
import { EmbedQuery, IdParams, LinkSchema, OffsetQuery, offsetPage, Resource } from './schemas/common.ts';

const Links = Type.Record(Type.String(), LinkSchema);

/** The offset pagination of an element page (the SDK sends null identifiers with it). */
export const OffsetPagination = Type.Object({
  offset: Type.Integer(),
  limit: Type.Integer(),
  count: Type.Integer(),
  total: Type.Integer(),
  firstIdentifier: Type.Null(),
  lastIdentifier: Type.Null(),
});

/** The page of an in-memory list (a stored list of one owner, bounded by its body's maxItems). */
export const pageOf = <T>(items: readonly T[], page: OffsetRequest): OffsetPage<T> => ({
  items: items.slice(page.offset, page.offset + page.limit),
  total: items.length,
});

interface Doc {
  tags: string[];
  /** Below an owner: `:id` is its id; a path without `:id` lists elements of no owner (id ''). */
  path: string;
  summary: string;
  description?: string;
  operationId: string;
}

/** The words of a route below an owner, in the shape registerRoute takes. */
const doc = ({ tags, path, summary, description, operationId }: Doc) => ({
  tags,
  path,
  ...(path.includes(':id') ? { params: IdParams } : {}),
  summary,
  description,
  operationId,
});

export interface ElementsRoute<Item, F extends TProperties> extends Doc {
  element: TSchema;
  filters?: F;
  /** Properties of the answer beside `elements` (a setup matrix's creationDate). */
  beside?: TProperties;
  /** The owner's page, and the properties beside it when `beside` names some; 404 when there is no owner. */
  load: (
    id: string,
    filters: Static<TObject<F>>,
    page: OffsetRequest,
  ) => Promise<OffsetPage<Item> & { beside?: Record<string, unknown> }>;
  present: (item: Item, request: FastifyRequest) => unknown;
  /** Links beside self and the paging links, e.g. the owner's. */
  links?: (id: string, request: FastifyRequest) => Record<string, Link>;
  /** What `embed` may name (other names are a 400), and the resources that go under `_embedded`. */
  embeds?: ElementEmbeds;
}

export interface ElementEmbeds {
  names: readonly string[];
  load: (id: string, embed: ReadonlySet<string>, request: FastifyRequest) => Promise<Record<string, unknown>>;
}

/** The `_embedded` of an answer whose query may name embeds: absent when nothing is embedded. */
async function embeddedOf(
  embeds: ElementEmbeds | undefined,
  id: string,
  query: { embed?: string[] },
  request: FastifyRequest,
): Promise<{ _embedded?: Record<string, unknown> }> {
  if (!embeds) return {};
  const embed = parseEmbed(query.embed, embeds.names);
  if (embed.size === 0) return {};
  const embedded = await embeds.load(id, embed, request);
  return Object.keys(embedded).length > 0 ? { _embedded: embedded } : {};
}

/** The query parameters of a route that takes embeds. */
const embedParams = (embeds: ElementEmbeds | undefined) => (embeds ? { embed: EmbedQuery } : {});

/** A page of elements as GET <path> answers it: self, first, last and the neighbours it has. */
export function elementsAnswer<Item>(
  request: FastifyRequest,
  path: string,
  query: QueryValues,
  found: OffsetPage<Item>,
  asked: OffsetRequest,
  present: (item: Item) => unknown,
) {
  // The elements are no HAL items; the placeholders only count, so `next` shows exactly when more follow.
  const placeholders = new Array<HalResource>(found.items.length);
  const collection = offsetCollection(
    { hrefs: request.hrefs, path, name: 'elements', query },
    placeholders,
    found,
    asked,
  );
  const { current: _same, ...links } = collection._links;
  return {
    properties: { elements: found.items.map(present) },
    pagination: {
      ...collection.pagination,
      count: found.items.length,
      firstIdentifier: null,
      lastIdentifier: null,
    },
    _links: links as Record<string, Link>,
  };
}

/** GET <path>: the owner's elements in offset pages, as `properties.elements`. */
export function registerElementsRoute<Item, F extends TProperties = Record<never, TSchema>>(
  api: Api,
  route: ElementsRoute<Item, F>,
): void {
  const filters = route.filters ?? ({} as F);
  registerRoute(api, {
    method: 'GET',
    ...doc(route),
    querystring: Type.Object(
      { ...OffsetQuery, ...filters, ...embedParams(route.embeds) },
      { additionalProperties: false },
    ),
    response: {
      200: Type.Object({
        properties: Type.Object({ ...route.beside, elements: Type.Array(route.element) }),
        pagination: OffsetPagination,
        _links: Links,
        _embedded: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
      }),
    },
    errors: [404],
    handler: async (request) => {
      const id = (request.params as { id?: string }).id ?? '';
      const query = request.query as Record<string, unknown>;
      const kept: QueryValues = {};
      for (const key of Object.keys(filters)) kept[key] = query[key] as QueryValues[string];
      const asked = offsetPage(query as { limit?: number; offset?: number });
      // Unknown embed names are refused before anything is read.
      const embedded = await embeddedOf(route.embeds, id, query as { embed?: string[] }, request);
      const found = await route.load(id, kept as Static<TObject<F>>, asked);
      // The paging links ask for the same embeds.
      const embed = (query as { embed?: string[] }).embed?.join(',');
      const linked: QueryValues = embed ? { ...kept, embed } : kept;
      const answer = elementsAnswer(request, route.path.replace(':id', id), linked, found, asked, (item) =>
        route.present(item, request),
      );
      return {
        ...answer,
        properties: { ...found.beside, ...answer.properties },
        _links: { ...answer._links, ...route.links?.(id, request) },
        ...embedded,
      };
    },
  });
}

export interface ObjectRoute<Q extends TProperties> extends Doc {
  properties: TSchema;
  query?: Q;
  /** The properties and links of the answer; 404 when there is no owner. */
  load: (
    id: string,
    query: Static<TObject<Q>>,
    request: FastifyRequest,
  ) => Promise<{ properties: Record<string, unknown>; links?: Record<string, Link | undefined> }>;
}

/** GET <path>: one object of the owner, linked to itself (with the query it was asked with). */
export function registerObjectRoute<Q extends TProperties = Record<never, TSchema>>(
  api: Api,
  route: ObjectRoute<Q>,
): void {
  registerRoute(api, {
    method: 'GET',
    ...doc(route),
    querystring: Type.Object(route.query ?? {}, { additionalProperties: false }),
    response: { 200: Resource(route.properties, route.summary) },
    errors: [404],
    handler: async (request) => {
      const id = request.params.id as string;
      const query = request.query as Static<TObject<Q>>;
      const answer = await route.load(id, query, request);
      // Repeated parameters go into the self link as one comma list, which the API also reads.
      const kept: QueryValues = {};
      for (const [key, value] of Object.entries(query as Record<string, unknown>))
        kept[key] = Array.isArray(value) ? value.join(',') : (value as QueryValues[string]);
      const _links: Record<string, Link> = {
        self: link(request.hrefs.api(route.path.replace(':id', id), kept)),
      };
      for (const [rel, value] of Object.entries(answer.links ?? {})) if (value) _links[rel] = value;
      return { properties: answer.properties, _links };
    },
  });
}
