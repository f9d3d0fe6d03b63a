import type { MasterDataEntry, OperatingState } from '../../domain/masterData.ts';
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
import {
  LITERALS_PATH,
  MATERIALS_PATH,
  masterDataPath,
  OPERATING_STATES_PATH,
  WORKPLACE_STATES_PATH,
} from '../paths.ts';

function entryProperties(entry: MasterDataEntry, locale: Locale) {
  return {
    id: entry.id,
    code: entry.code,
    description: localize(entry.description, locale),
    shortDescription: localize(entry.shortDescription, locale),
    color: entry.color,
  };
}

/** Presents the entries of a master data list that has no links beyond `self`. */
export const presentMasterDataEntry =
  (path: string) => (entry: MasterDataEntry, hrefs: Hrefs, locale: Locale) =>
    resource(entryProperties(entry, locale), { self: link(hrefs.api(`${path}/${entry.id}`)) });

export const presentOperatingState = (state: OperatingState, hrefs: Hrefs, locale: Locale) =>
  resource(
    {
      ...entryProperties(state, locale),
      workplaceStateId: state.workplaceStateId,
      operatingStateClassId: state.operatingStateClassId,
    },
    {
      self: link(hrefs.api(`${OPERATING_STATES_PATH}/${state.id}`)),
      workplaceState: link(hrefs.api(`${WORKPLACE_STATES_PATH}/${state.workplaceStateId}`)),
      operatingStateClass:
        state.operatingStateClassId === null
          ? undefined
          : link(hrefs.api(`${masterDataPath('operatingStateClasses')}/${state.operatingStateClassId}`)),
    },
  );

/** The operating state as a workplace property: {id, code, description, workplaceStateId}. */
export const operatingStateProperty = (state: OperatingState, locale: Locale) => ({
  id: state.id,
  code: state.code,
  description: localize(state.description, locale),
  workplaceStateId: state.workplaceStateId,
});

const literalHref = (hrefs: Hrefs, id: string) => hrefs.api(`${LITERALS_PATH}/${id}`);

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

export const presentMaterial = (material: MaterialEntry, hrefs: Hrefs): Resource =>
  resource(
    { id: material.id, number: material.number, description: material.description, type: material.type },
    { self: link(hrefs.api(`${MATERIALS_PATH}/${material.id}`)) },
  );
