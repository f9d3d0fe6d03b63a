import type { FastifyRequest } from 'fastify';
import type { Queryable } from '../../db/database.ts';
import { findMasterDataEntries } from '../../db/repositories/masterDataRepository.ts';
import {
  type CodeHeldList,
  entryLiteral,
  type MasterDataEntry,
  type OperatingState,
  WORKPLACE_STATES,
} from '../../domain/masterData.ts';
import {
  type Literal,
  type MaterialEntry,
  type MasterDataEntry as StoredEntry,
  translate,
} from '../../domain/masterDataEntries.ts';
import { type Locale, localize } from '../../i18n/locales.ts';
import { type Link, link, type Resource, resource } from '../hal.ts';
import type { Hrefs } from '../hrefs.ts';
import { type MasterDataKindRow, masterDataKind } from '../masterDataKinds.ts';
import { LITERALS_PATH, MATERIALS_PATH, masterDataPath, WORKPLACE_STATES_PATH } from '../paths.ts';
import { literalIdOf } from './literalIds.ts';

const literalHref = (hrefs: Hrefs, id: string) => hrefs.api(`${LITERALS_PATH}/${id}`);

function entryProperties(entry: MasterDataEntry, locale: Locale) {
  return {
    id: entry.id,
    code: entry.code,
    description: localize(entry.description, locale),
    shortDescription: localize(entry.shortDescription, locale),
    color: entry.color,
  };
}

/** The embeds of a list held in code: its two texts; an operating state also its workplace state. */
export const CODE_HELD_EMBEDS = ['description', 'shortDescription'] as const;
export const OPERATING_STATE_EMBEDS = [...CODE_HELD_EMBEDS, 'workplaceState', 'operatingStateClass'] as const;
type OperatingStateEmbed = (typeof OPERATING_STATE_EMBEDS)[number];

/**
 * An entry of a list held in code: its texts in the request's language, each with a link to its
 * literal, embedded when asked for.
 */
function presentCodeHeld(
  list: CodeHeldList,
  entry: MasterDataEntry,
  hrefs: Hrefs,
  locale: Locale,
  embed: ReadonlySet<string>,
  more: {
    properties?: Record<string, unknown>;
    links?: Record<string, Link | undefined>;
    embedded?: Record<string, Resource>;
  } = {},
): Resource {
  const links: Record<string, Link | undefined> = {
    self: link(hrefs.api(`${masterDataPath(list)}/${entry.id}`)),
    ...more.links,
  };
  const embedded: Record<string, Resource> = { ...more.embedded };
  for (const property of CODE_HELD_EMBEDS) {
    const literal = entryLiteral(list, entry, property);
    links[property] = link(literalHref(hrefs, literal.id), { embeddable: true });
    if (embed.has(property)) embedded[property] = presentLiteral(literal, hrefs);
  }
  return resource({ ...entryProperties(entry, locale), ...more.properties }, links, embedded);
}

export function presentOperatingState(
  state: OperatingState,
  hrefs: Hrefs,
  locale: Locale,
  embed: ReadonlySet<OperatingStateEmbed> = new Set(),
  /** The operating state classes the states name, when they are to be embedded. */
  classes?: ReadonlyMap<string, StoredEntry>,
): Resource {
  const stateClass =
    state.operatingStateClassId === null ? undefined : classes?.get(state.operatingStateClassId);
  const workplaceState = WORKPLACE_STATES.find((candidate) => candidate.id === state.workplaceStateId);
  return presentCodeHeld('operatingStates', state, hrefs, locale, embed, {
    properties: {
      workplaceStateId: state.workplaceStateId,
      operatingStateClassId: state.operatingStateClassId,
    },
    links: {
      workplaceState: link(hrefs.api(`${WORKPLACE_STATES_PATH}/${state.workplaceStateId}`), {
        embeddable: true,
      }),
      operatingStateClass:
        state.operatingStateClassId === null
          ? undefined
          : link(hrefs.api(`${masterDataPath('operatingStateClasses')}/${state.operatingStateClassId}`), {
              embeddable: true,
            }),
    },
    embedded: {
      ...(embed.has('workplaceState') && workplaceState
        ? { workplaceState: presentCodeHeld('workplaceStates', workplaceState, hrefs, locale, new Set()) }
        : {}),
      ...(embed.has('operatingStateClass') && stateClass
        ? {
            operatingStateClass: presentStoredEntry(
              masterDataKind('operatingStateClasses'),
              stateClass,
              hrefs,
              locale,
              new Set(),
            ),
          }
        : {}),
    },
  });
}

/** A page of a list held in code. */
export const presentCodeHeldPage =
  (list: CodeHeldList) =>
  async (entries: MasterDataEntry[], { hrefs, locale }: FastifyRequest, embed: ReadonlySet<string>) =>
    entries.map((entry) => presentCodeHeld(list, entry, hrefs, locale, embed));

/** A page of operating states, with the classes they name read in one go when embedded. */
export const presentOperatingStates =
  (db: Queryable) =>
  async (
    states: OperatingState[],
    { hrefs, locale }: FastifyRequest,
    embed: ReadonlySet<OperatingStateEmbed>,
  ): Promise<Resource[]> => {
    const classes = new Map<string, StoredEntry>();
    if (embed.has('operatingStateClass')) {
      const ids = states.flatMap((state) => state.operatingStateClassId ?? []);
      for (const found of await findMasterDataEntries(db, 'operatingStateClasses', [...new Set(ids)]))
        classes.set(found.id, found);
    }
    return states.map((state) => presentOperatingState(state, hrefs, locale, embed, classes));
  };

/** The operating state as a workplace property: {id, code, description, workplaceStateId}. */
export const operatingStateProperty = (state: OperatingState, locale: Locale) => ({
  id: state.id,
  code: state.code,
  description: localize(state.description, locale),
  workplaceStateId: state.workplaceStateId,
});

/** A literal with its texts in every language it has. */
export const presentLiteral = (literal: Literal, hrefs: Hrefs): Resource =>
  resource(
    { id: literal.id, translations: literal.translations },
    { self: link(literalHref(hrefs, literal.id)) },
  );

/**
 * An entry of a master data kind kept in the database, as its kind's row says: each text in the
 * request's language with a link to its literal (embedded when asked), code and color where the
 * kind has them, its own attributes (null when not stored) and its reference to another kind.
 */
export function presentStoredEntry(
  kind: MasterDataKindRow,
  entry: StoredEntry,
  hrefs: Hrefs,
  locale: Locale,
  embed: ReadonlySet<string>,
  /** The entries the reference names, when it is to be embedded. */
  referenced?: ReadonlyMap<string, StoredEntry>,
): Resource {
  const properties: Record<string, unknown> = { id: entry.id };
  const links: Record<string, Link> = { self: link(hrefs.api(`${kind.path}/${entry.id}`)) };
  const embedded: Record<string, Resource> = {};
  for (const [property, column] of Object.entries(kind.texts)) {
    const literal = entry[column];
    properties[property] = translate(literal, locale);
    if (literal === null) continue;
    links[property] = link(literalHref(hrefs, literal.id), { embeddable: true });
    if (embed.has(property)) embedded[property] = presentLiteral(literal, hrefs);
  }
  if (kind.code) properties.code = entry.code;
  if (kind.color) properties.color = entry.color;
  for (const name of Object.keys(kind.attributes)) properties[name] = entry.attributes[name] ?? null;
  const { reference } = kind;
  if (reference) {
    const value = entry.attributes[reference.property];
    const id = typeof value === 'string' ? value : null;
    properties[reference.property] = id;
    if (id !== null) {
      const target = masterDataKind(reference.kind);
      links[reference.rel] = link(hrefs.api(`${target.path}/${id}`), { embeddable: true });
      const other = referenced?.get(id);
      if (other && embed.has(reference.rel))
        embedded[reference.rel] = presentStoredEntry(target, other, hrefs, locale, new Set());
    }
  }
  return resource(properties, links, embedded);
}

/** The id of a material's description literal, derived as migration 100's `material_literal_id`. */
export const materialLiteralId = (number: string): string => literalIdOf(`materials/${number}/description`);

/**
 * A material; its description is its literal's text, so it links the literal when it has one
 * (`description`: that literal presented, when it is to be embedded).
 */
export const presentMaterial = (material: MaterialEntry, hrefs: Hrefs, description?: Resource): Resource =>
  resource(
    { id: material.id, number: material.number, description: material.description, type: material.type },
    {
      self: link(hrefs.api(`${MATERIALS_PATH}/${material.id}`)),
      description:
        material.description === null
          ? undefined
          : link(literalHref(hrefs, materialLiteralId(material.number)), { embeddable: true }),
    },
    description ? { description } : {},
  );
