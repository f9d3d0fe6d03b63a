// The description and ERP context of the plant's own items as the real API shows them
// (docs/resources/masterData.md, "Literals"): a link to the description's literal and to the
// ERP context, each embedded on request. One mechanism for every family that has them.
import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../../db/database.ts';
import { findLiterals, findMasterDataEntries } from '../../db/repositories/masterDataRepository.ts';
import { type Link, link, type Resource } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';
import { masterDataKind } from '../masterDataKinds.ts';
import { ERP_CONTEXTS_PATH, LITERALS_PATH } from '../paths.ts';
import { literalIdOf } from './literalIds.ts';
import { presentLiteral, presentStoredEntry } from './masterDataPresenter.ts';

/** The tables whose descriptions migration 091 keeps as literals. */
export type DescribedTable = 'workplaces' | 'workplace_groups' | 'production_orders' | 'operations' | 'tools';

/** The embeds this module answers. */
export const TEXT_EMBEDS = ['description', 'erpContext'] as const;

/** The id of a row's description literal, derived as migration 091's `description_literal_id`. */
export const descriptionLiteralId = (table: DescribedTable, id: string): string =>
  literalIdOf(`${table}/${id}/description`);

/**
 * The id of the description literal of an operation's production resource or tool, by its place
 * in the operation's list (1 for the first), derived as migration 160's
 * `production_resource_literal_id`.
 */
export const productionResourceLiteralId = (operationId: string, place: number): string =>
  literalIdOf(`operations/${operationId}/productionResourcesAndTools/${place}/description`);

/** An item with a description (null: none), an ERP context, or both. */
interface Described {
  id: string;
  description?: string | null;
  erpContextId?: string | null;
}

/** The links to an item's description literal and ERP context, absent where it has none. */
export function textLinks(
  hrefs: Hrefs,
  table: DescribedTable | null,
  item: Described,
): Record<'description' | 'erpContext', Link | undefined> {
  return {
    description:
      table !== null && typeof item.description === 'string'
        ? link(hrefs.api(`${LITERALS_PATH}/${descriptionLiteralId(table, item.id)}`), { embeddable: true })
        : undefined,
    erpContext:
      typeof item.erpContextId === 'string'
        ? link(hrefs.api(`${ERP_CONTEXTS_PATH}/${item.erpContextId}`), { embeddable: true })
        : undefined,
  };
}

type Present<Item, Embed extends string> = (
  items: Item[],
  request: FastifyRequest,
  embed: ReadonlySet<Embed>,
) => Resource[] | Promise<Resource[]>;

const distinct = (values: string[]) => [...new Set(values)];
const byId = <T extends { id: string }>(items: T[]) => new Map(items.map((item) => [item.id, item]));

/**
 * A family's presenter that also embeds the description literals and ERP contexts its items link
 * (as `textLinks` gives them), each read in one query for the page when asked for.
 */
export function withTextEmbeds<Item, Embed extends string>(
  db: Queryable,
  table: DescribedTable | null,
  present: Present<Item, Embed>,
): Present<Item, Embed> {
  return (items, request, embed) => {
    const wants = (name: string) => (embed as ReadonlySet<string>).has(name);
    // The usual read embeds neither: the family's presenter alone, as lean as it is.
    if (!wants('description') && !wants('erpContext')) return present(items, request, embed);
    return (async () => embedTexts(db, table, request, await present(items, request, embed), wants))();
  };
}

async function embedTexts(
  db: Queryable,
  table: DescribedTable | null,
  request: FastifyRequest,
  presented: Resource[],
  wants: (name: string) => boolean,
): Promise<Resource[]> {
  const literalOf = (resource: Resource) =>
    table !== null && resource._links.description
      ? descriptionLiteralId(table, String(resource.properties.id))
      : null;
  const contextOf = (resource: Resource) =>
    resource._links.erpContext ? String(resource.properties.erpContextId) : null;
  const literalIds = wants('description') ? presented.flatMap((resource) => literalOf(resource) ?? []) : [];
  const contextIds = wants('erpContext') ? presented.flatMap((resource) => contextOf(resource) ?? []) : [];
  const literals = byId(await findLiterals(db, distinct(literalIds)));
  const contexts = byId(await findMasterDataEntries(db, 'erpContexts', distinct(contextIds)));
  if (literals.size === 0 && contexts.size === 0) return presented;
  const { hrefs, locale } = request;
  const kind = masterDataKind('erpContexts');
  return presented.map((resource) => {
    const literal = literals.get(literalOf(resource) ?? '');
    const context = contexts.get(contextOf(resource) ?? '');
    if (!literal && !context) return resource;
    return {
      ...resource,
      _embedded: {
        ...resource._embedded,
        ...(literal ? { description: presentLiteral(literal, hrefs) } : {}),
        ...(context ? { erpContext: presentStoredEntry(kind, context, hrefs, locale, new Set()) } : {}),
      },
    };
  });
}
