// The routes of one resource collection in the API's one shape (docs/api.md, "Collections" and
// "Resources"): list (offset or timestamp paging, filters, embeds, a search twin), one item,
// create (201 + Location), replace (PUT, the body id must match), delete (204) and state commands.
// A route family says only what is special about its resource; each call registers one route.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Static, type TObject, type TProperties, type TSchema, Type } from 'typebox';
import type { Database, Queryable } from '../db/database.ts';
import type { KeysetPage, KeysetRequest, OffsetPage, OffsetRequest } from '../db/paging.ts';
import type { Api } from './api.ts';
import { canWrite } from './auth.ts';
import { embedQuery, parseEmbed } from './embed.ts';
import { type KeysetPosition, keysetCollection, type Link, offsetCollection, type Resource } from './hal.ts';
import type { Hrefs, QueryValues } from './hrefs.ts';
import { operationIds, singular } from './operationIds.ts';
import type { PageElements } from './presenters/historyPresenter.ts';
import { type DescribedTable, withTextEmbeds } from './presenters/texts.ts';
import { checkEchoed, echoingBody, readOnlyNames, representedProperties } from './readOnly.ts';
import { type RouteDoc, registerRoute } from './route.ts';
import {
  checkBodyId,
  EmbedQuery,
  KeysetCollection,
  KeysetQuery,
  keysetPosition,
  OffsetCollection,
  OffsetQuery,
  offsetPage,
  pagingAsked,
  refuseBodyId,
} from './schemas/common.ts';

/** Where a handler runs. */
export interface At {
  request: FastifyRequest;
  /** The path parameters, as sent. */
  params: Record<string, string>;
  /** The `:id` parameter: the item's id, or the owner's in a sub-collection (`/workplaces/:id/shifts`). */
  id: string;
  /** The item's own parameter (`:id`, or e.g. `:shiftId` in a sub-collection). */
  itemId: string;
  /** The owner's id as `owner` resolved it (lists of a sub-collection), else `id`. */
  owner: string;
}

/** A route's words; its operationId when the derived one (see `operationIds`) does not fit. */
type Doc = RouteDoc;
/** The words of a GET of one item, whose summary defaults to `One <item>` (`One staff member`). */
type ItemDoc = Omit<Doc, 'summary'> & { summary?: string };

export type ResourceDefinition<Item, Embed extends string> = Presenter<Item, Embed> & ResourceWords<Embed>;

interface ResourceWords<Embed extends string> {
  /** The OpenAPI tags; default: the path's first segment (`/workplaces/:id/shifts` -> `workplaces`). */
  tags?: string[];
  /** The collection's route, e.g. `/workplaces`, or `/workplaces/:id/shifts` below an owner. */
  path: string;
  /** The path parameter of one item below the collection; default `id`. */
  itemParam?: string;
  /** The embedded array of a page; default: the path's last segment (`shifts`). */
  name?: string;
  /** The representation of one item. */
  schema: TSchema;
  /**
   * The sub-resources `embed` may name: with it (even empty), the list and the item take `embed`
   * and refuse other names (docs/api.md, "Representations (HAL)").
   */
  embeds?: readonly Embed[];
  /**
   * The items' descriptions and ERP contexts, embedded when `embed` names them
   * (presenters/texts.ts): the table whose rows' descriptions are literals, or null for none.
   */
  texts?: { db: Queryable; table: DescribedTable | null };
  /**
   * The presenter writes exactly what `schema` describes, in its order, and nothing else: one
   * item's answer, and a page of them, is then JSON.stringify'd instead of going through the
   * schema's serializer, which escapes every string in a JavaScript loop on Node 24 (slow for
   * bodies full of hrefs).
   * A test compares the two for the resource (test/api/workplaces.test.ts).
   */
  plainJson?: boolean;
}

/** How items become representations: one at a time, or a page at once. */
type Presenter<Item, Embed extends string> =
  | {
      /** One item's representation; `writable`: the caller may write (the presenter offers edits). */
      present: (item: Item, hrefs: Hrefs, writable: boolean) => Resource;
      presentPage?: never;
    }
  | {
      /** Items to representations, in order; loads what they embed in one go. */
      presentPage: (
        items: Item[],
        request: FastifyRequest,
        embed: ReadonlySet<Embed>,
      ) => Resource[] | Promise<Resource[]>;
      present?: never;
    };

type NoProperties = Record<never, TSchema>;

/** A list's words and parameters, whichever its paging (docs/api.md, "Collections"). */
interface ListWords<Item, F extends TProperties, Filter, S extends TSchema> extends Doc {
  /** Filter parameters of the query string; the ones sent are kept in every paging link. */
  filters?: F;
  /** The filter the query asks for; default: the filter parameters as sent. */
  filter?: (filters: Static<TObject<F>>, at: At) => Filter;
  /** Below an owner: its id, 404 when there is none. Runs after the embeds are checked. */
  owner?: (at: At) => Promise<string>;
  /**
   * The rel of the create link offered to writers; default `create<Singular>` (`createShift`) once
   * the family declares `create`. `createPath` when it is not the list's own.
   */
  createRel?: string;
  createPath?: string;
  /** Links beside the paging links. */
  links?: (request: FastifyRequest) => Record<string, Link>;
  /**
   * Offset paging: the rel under which the page also lists the self links of its items, as the
   * real API lists its devices (`_links.devices`).
   */
  itemLinks?: string;
  /** A POST twin at `<path>/search` with the read scope, its filter in the body, paging links POSTs. */
  search?: SearchRoute<S, Filter>;
  /** The page's records also as `properties` (history collections in the SDK's form). */
  elements?: PageElements<Item, NoInfer<Filter>>;
}

/** Offset paging, the default. */
interface OffsetList<Item, F extends TProperties, Filter, S extends TSchema>
  extends ListWords<Item, F, Filter, S> {
  position?: never;
  load: (filter: Filter, page: OffsetRequest, at: At) => Promise<OffsetPage<Item>>;
}

/** Timestamp (keyset) paging, newest first, by this position of an item. */
interface KeysetList<Item, F extends TProperties, Filter, S extends TSchema>
  extends ListWords<Item, F, Filter, S> {
  position: (item: Item) => KeysetPosition;
  load: (filter: Filter, page: KeysetRequest, at: At) => Promise<KeysetPage<Item>>;
}

export type ListRoute<Item, F extends TProperties, Filter, S extends TSchema> =
  | OffsetList<Item, F, Filter, S>
  | KeysetList<Item, F, Filter, S>;

/** `list`: a route's `position` gives it timestamp paging, and its `load` the keyset page. */
interface ListDeclaration<Item> {
  <F extends TProperties = NoProperties, Filter = Static<TObject<F>>, S extends TSchema = TObject>(
    route: KeysetList<Item, F, Filter, S>,
  ): void;
  <F extends TProperties = NoProperties, Filter = Static<TObject<F>>, S extends TSchema = TObject>(
    route: OffsetList<Item, F, Filter, S>,
  ): void;
}

interface SearchRoute<S extends TSchema, Filter> extends Doc {
  body: S;
  filter: (body: Static<S>) => Filter;
}

export interface ItemRoute<Item> extends ItemDoc {
  load: (at: At) => Promise<Item>;
}

export interface CreateRoute<B extends TSchema, Created> extends Doc {
  body: B;
  run: (body: Static<B>, at: At) => Promise<Created>;
  /** The answer when it is not the created item as the list shows it. */
  present?: (created: Created, request: FastifyRequest) => Resource | Promise<Resource>;
  /** The body may name the new resource's id (an OAuth client's client_id); otherwise it is read-only. */
  chosenId?: boolean;
}

export interface ReplaceRoute<Item, B extends TSchema> extends Doc {
  /** Its `id`, when sent, must equal the path's. */
  body: B;
  /**
   * Read-only properties that change on their own between a client's GET and its PUT (a
   * connector's status): taken back whatever their value, never compared.
   */
  changingOnTheirOwn?: string[];
  run: (body: Static<B>, at: At) => Promise<Item>;
}

export interface CommandRoute<Item, B extends TSchema> extends Doc {
  /** Below the item, e.g. `operatingState/:operatingStateId`; each parameter is a string. */
  path: string;
  body?: B;
  /** Without a body the route takes none; with one, a missing body means `{}`. */
  run: (body: Static<B>, at: At) => Promise<Item>;
}

/** An item's ids in its path: its own, or below an owner the owner's and its own. */
type ItemIds = [id: string] | [ownerId: string, id: string];
/** The ids a new item is created at: none, or below an owner the owner's. */
type OwnerIds<Ids extends ItemIds> = Ids extends [string, string] ? [ownerId: string] : [];

/**
 * The item routes of a family whose service has the one signature of each use case (get, create,
 * and where the family has them replace and delete, by the ids in the path: `Ids`); `input` makes
 * a body the service's input.
 */
export interface ItemRoutes<Item, Input, CB extends TSchema, RB extends TSchema, Ids extends ItemIds> {
  input: (body: Static<CB> | Static<RB>) => Input;
  get: ItemDoc & { run: (db: Database, ...ids: Ids) => Promise<Item> };
  create: Doc & { body: CB; run: (db: Database, ...at: [...OwnerIds<Ids>, Input]) => Promise<Item> };
  replace?: Omit<ReplaceRoute<Item, RB>, 'run'> & {
    run: (db: Database, ...at: [...Ids, Input]) => Promise<Item>;
  };
  remove?: Doc & { run: (db: Database, ...ids: Ids) => Promise<unknown> };
}

const JSON_TYPE = 'application/json; charset=utf-8';

const hasParams = (path: string) => path.includes(':');

/** Presents each item on its own. */
export const each =
  <Item>(present: (item: Item, request: FastifyRequest) => Resource) =>
  (items: Item[], request: FastifyRequest) =>
    items.map((item) => present(item, request));

export function resourceRoutes<Item, Embed extends string = never>(
  api: Api,
  resource: ResourceDefinition<Item, Embed>,
) {
  const { path, schema } = resource;
  const segments = path.split('/').filter(Boolean);
  const tags = resource.tags ?? segments.slice(0, 1);
  const name = resource.name ?? (segments.at(-1) as string);
  const ids = operationIds(path, name);
  /** The item in words: `staffMembers` -> `staff member`. */
  const item = singular(name).replace(/[A-Z]/g, (letter) => ` ${letter.toLowerCase()}`);
  /** Set by `create`: the list then offers writers its create link. */
  let creatable = false;
  const itemParam = resource.itemParam ?? 'id';
  const itemPath = `${path}/:${itemParam}`;
  const embedded = resource.embeds !== undefined;
  const embedsOf = (query: { embed?: string[] }) =>
    resource.embeds === undefined ? new Set<Embed>() : parseEmbed(query.embed, resource.embeds);
  const at = (request: FastifyRequest, owner?: string): At => {
    const params = (request.params ?? {}) as Record<string, string>;
    const id = params.id ?? '';
    return { request, params, id, itemId: params[itemParam] ?? '', owner: owner ?? id };
  };
  const presentItems =
    resource.presentPage ??
    ((items: Item[], request: FastifyRequest) => {
      const writable = canWrite(request);
      return items.map((item) => resource.present(item, request.hrefs, writable));
    });
  const { texts } = resource;
  const presentPage = texts ? withTextEmbeds(texts.db, texts.table, presentItems) : presentItems;
  const presentOne = async (item: Item, request: FastifyRequest, embed = new Set<Embed>()) =>
    (await presentPage([item], request, embed))[0] as Resource;
  /** The item's loader, once `get` is declared: a PUT compares echoed read-only properties with it. */
  let loadItem: ((at: At) => Promise<Item>) | undefined;
  /** A route's words with the resource's tags and the derived operationId. */
  const docOf = (doc: Doc, operationId: string) => ({
    tags,
    summary: doc.summary,
    description: doc.description,
    scope: doc.scope,
    operationId: doc.operationId ?? operationId,
  });

  /**
   * A plainJson resource's items, and pages of them (whose envelope hal.ts writes in its schema's
   * order), skip the schema's serializer. A reply serializer leaves the type unset; the media-type
   * hook then picks JSON or HAL. Set only once the answer is built: an error thrown before keeps
   * the error body's serializer and type.
   */
  const writePlain = (reply: FastifyReply) => {
    if (resource.plainJson) reply.serializer(JSON.stringify).type(JSON_TYPE);
  };

  const routes = {
    list<F extends TProperties, Filter, S extends TSchema>(route: ListRoute<Item, F, Filter, S>): void {
      const keyset = route.position !== undefined;
      const filters = route.filters ?? ({} as F);
      const paging = keyset ? KeysetQuery : OffsetQuery;
      const Collection = keyset
        ? KeysetCollection(name, schema, route.elements?.schema)
        : OffsetCollection(name, schema, route.elements?.schema, route.itemLinks !== undefined);
      const withElements = async <C extends object>(
        collection: C,
        items: Item[],
        request: FastifyRequest,
        filter: Filter,
      ) =>
        route.elements
          ? { properties: await route.elements.of(items, request, filter), ...collection }
          : collection;
      const embedParam: TProperties = embedded ? { embed: EmbedQuery } : {};

      const page = async (
        request: FastifyRequest,
        filterOf: (at: At) => Filter,
        kept: QueryValues,
        search: boolean,
      ) => {
        const query = request.query as Record<string, unknown>;
        const embed = embedsOf(query as { embed?: string[] });
        const where = at(request, route.owner ? await route.owner(at(request)) : undefined);
        // Below an owner below another (`/tickets/:id/activities/:activityId/remarks`) every parameter is filled in.
        const hrefPath = search
          ? `${path}/search`
          : path.replace(/:(\w+)/g, (_, name: string) =>
              name === 'id' ? where.owner : (where.params[name] ?? ''),
            );
        const createRel = route.createRel ?? (creatable ? ids.createRel : undefined);
        const create = !search && createRel !== undefined && canWrite(request);
        const context = {
          hrefs: request.hrefs,
          path: hrefPath,
          name,
          query: embedded ? { ...kept, embed: embedQuery(embed) } : kept,
          create: create
            ? { rel: createRel as string, href: request.hrefs.api(route.createPath ?? hrefPath) }
            : undefined,
          pagingMethod: search ? ('POST' as const) : undefined,
        };
        const filter = filterOf(where);
        if (keyset) {
          const found = await route.load(filter, keysetPosition(query), where);
          const collection = keysetCollection(
            context,
            await presentPage(found.items, request, embed),
            found,
            pagingAsked(query),
            route.position,
          );
          if (route.links) Object.assign(collection._links, route.links(request));
          return withElements(collection, found.items, request, filter);
        }
        const asked = offsetPage(query);
        const found = await route.load(filter, asked, where);
        const presented = await presentPage(found.items, request, embed);
        const collection = offsetCollection(context, presented, found, asked);
        if (route.links) Object.assign(collection._links, route.links(request));
        if (route.itemLinks !== undefined)
          (collection._links as Record<string, Link | Link[]>)[route.itemLinks] = presented.flatMap(
            (item) => item._links.self ?? [],
          );
        return withElements(collection, found.items, request, filter);
      };

      registerRoute(api, {
        method: 'GET',
        path,
        ...docOf(route, ids.list),
        querystring: Type.Object({ ...paging, ...filters, ...embedParam }, { additionalProperties: false }),
        response: { 200: Collection },
        errors: hasParams(path) ? [404] : [],
        handler: async (request, reply) => {
          const query = request.query as Record<string, string | undefined>;
          // The filter parameters sent, in their declared order, go into every paging link.
          const kept: QueryValues = {};
          for (const key of Object.keys(filters)) kept[key] = query[key];
          const sent = kept as Static<TObject<F>>;
          const filterOf = (where: At) => (route.filter ? route.filter(sent, where) : (sent as Filter));
          const collection = await page(request, filterOf, kept, false);
          if (!route.elements) writePlain(reply);
          return collection;
        },
      });

      const { search } = route;
      if (!search) return;
      registerRoute(api, {
        method: 'POST',
        path: `${path}/search`,
        ...docOf(search, ids.search),
        scope: search.scope ?? 'read',
        description: search.description ?? 'Paging links are POSTs to this URL: send the same body again.',
        querystring: Type.Object({ ...paging, ...embedParam }, { additionalProperties: false }),
        body: search.body,
        response: { 200: Collection },
        errors: [415],
        handler: async (request, reply) => {
          const collection = await page(request, () => search.filter(request.body as Static<S>), {}, true);
          if (!route.elements) writePlain(reply);
          return collection;
        },
      });
    },

    get(route: ItemRoute<Item>): void {
      loadItem = route.load;
      const querystring = Type.Object({ embed: EmbedQuery }, { additionalProperties: false });
      registerRoute(api, {
        method: 'GET',
        path: itemPath,
        ...docOf({ ...route, summary: route.summary ?? `One ${item}` }, ids.get),
        ...(embedded ? { querystring } : {}),
        response: { 200: schema },
        errors: [404],
        handler: async (request, reply) => {
          const embed = embedsOf(request.query as { embed?: string[] });
          const presented = presentPage([await route.load(at(request))], request, embed);
          // Awaited only when the presenter had to load something (no promise per answer otherwise).
          const representation = (Array.isArray(presented) ? presented : await presented)[0] as Resource;
          writePlain(reply);
          return representation;
        },
      });
    },

    create<B extends TSchema, Created = Item>(route: CreateRoute<B, Created>): void {
      creatable = true;
      registerRoute(api, {
        method: 'POST',
        path,
        ...docOf(route, ids.create),
        body: route.body,
        response: { 201: schema },
        errors: [...(hasParams(path) ? [404] : []), 415],
        handler: async (request, reply) => {
          if (!route.chosenId) refuseBodyId(request.body);
          const result = await route.run(request.body as Static<B>, at(request));
          const representation = route.present
            ? await route.present(result, request)
            : await presentOne(result as unknown as Item, request);
          return reply.code(201).header('location', representation._links.self?.href).send(representation);
        },
      });
    },

    replace<B extends TSchema>(route: ReplaceRoute<Item, B>): void {
      // What the GET shows but the body cannot set may come back unchanged (docs/api.md, "Errors").
      const changing = route.changingOnTheirOwn ?? [];
      const readOnly = readOnlyNames(route.body, representedProperties(schema));
      registerRoute(api, {
        method: 'PUT',
        path: itemPath,
        ...docOf(route, ids.replace),
        body: echoingBody(route.body, readOnly, changing),
        response: { 200: schema },
        errors: [404, 415],
        handler: async (request) => {
          const where = at(request);
          checkBodyId((request.body as { id?: string | null }).id, where.itemId);
          await checkEchoed(request.body as Record<string, unknown>, readOnly, changing, async () => {
            if (!loadItem) return {};
            return (await presentOne(await loadItem(where), request)).properties as Record<string, unknown>;
          });
          return presentOne(await route.run(request.body as Static<B>, where), request);
        },
      });
    },

    remove(route: Doc & { run: (at: At) => Promise<unknown> }): void {
      registerRoute(api, {
        method: 'DELETE',
        path: itemPath,
        ...docOf(route, ids.delete),
        response: { 204: Type.Null() },
        errors: [404],
        handler: async (request, reply) => {
          await route.run(at(request));
          return reply.code(204).send();
        },
      });
    },

    command<B extends TSchema = TObject<NoProperties>>(route: CommandRoute<Item, B>): void {
      registerRoute(api, {
        method: 'POST',
        path: `${itemPath}/${route.path}`,
        ...docOf(route, ids.command(route.path)),
        ...(route.body ? { body: route.body } : {}),
        response: { 200: schema },
        errors: route.body ? [404, 415] : [404],
        // The body may be left out: no body means {}. (JSON null is still refused as not an object.)
        ...(route.body
          ? {
              preValidation: async (request: FastifyRequest) => {
                if (request.body === undefined) request.body = {};
              },
            }
          : {}),
        handler: async (request) =>
          presentOne(await route.run(request.body as Static<B>, at(request)), request),
      });
    },
  };

  /** The routes' `list`, with its two kinds of paging told apart by the types. */
  const list: ListDeclaration<Item> = routes.list;
  return {
    ...routes,
    list,
    /**
     * get, create, replace and remove (the last two where the family has them) through its
     * service (`ItemRoutes`): by the item's id, below an owner (an `itemParam` of its own) by the
     * owner's and the item's.
     */
    items<Input, CB extends TSchema, Ids extends ItemIds, RB extends TSchema = CB>(
      db: Database,
      family: ItemRoutes<Item, Input, CB, RB, Ids>,
    ): void {
      const { input, get, create, replace, remove } = family;
      const below = itemParam !== 'id';
      // The types cannot see the path: a service of the other arity is a programming error.
      if (get.run.length !== (below ? 3 : 2))
        throw new Error(`${path}: get takes ${below ? 'two ids' : 'one id'}`);
      const idsOf = (at: At) => (below ? [at.id, at.itemId] : [at.id]) as Ids;
      const ownerOf = (at: At) => (below ? [at.id] : []) as OwnerIds<Ids>;
      routes.get({ ...get, load: (at) => get.run(db, ...idsOf(at)) });
      routes.create({ ...create, run: (body, at) => create.run(db, ...ownerOf(at), input(body)) });
      if (replace)
        routes.replace({ ...replace, run: (body, at) => replace.run(db, ...idsOf(at), input(body)) });
      if (remove) routes.remove({ ...remove, run: (at) => remove.run(db, ...idsOf(at)) });
    },
  };
}
