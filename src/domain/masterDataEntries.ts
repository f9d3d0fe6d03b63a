// Master data kept in the database (docs/resources/masterData.md): the entries of each kind and
// the literals (texts in every locale) their descriptions are. The lists that the service's own
// rules are written against (operating states, workplace states, operation phases, tool
// assembly order states) stay in code, in masterData.ts.
import { DEFAULT_LOCALE } from '../i18n/locales.ts';

/** One translation of a literal, in the SDK's form. */
export interface Translation {
  language: string;
  translation: string;
}

/** A localized text with an id of its own, as `/literals/{id}` serves it. */
export interface Literal {
  id: string;
  translations: Translation[];
}

/** The kinds of master data kept in the database, by the name of their collection. */
export type MasterDataKind = string;

export interface MasterDataEntry {
  kind: MasterDataKind;
  id: string;
  code: string | null;
  color: string | null;
  description: Literal | null;
  shortDescription: Literal | null;
  /** The properties special to the kind (`qualityTypeId`, `isWorkingShift`, `sequence`, ...). */
  attributes: Record<string, unknown>;
}

/**
 * A material as `/materials` shows it: one per material number that production orders and
 * operations name; its id is derived from the number, so it is the same on every read.
 */
export interface MaterialEntry {
  id: string;
  number: string;
  description: string | null;
  /** The material type; the plant's orders do not record one. */
  type: string | null;
}

/**
 * The text of a literal in a language, else in the default language (en-GB), else its first
 * translation: a literal the plant wrote in German only still shows a text.
 */
export function translate(literal: Literal | null, language: string): string | null {
  if (literal === null) return null;
  const { translations } = literal;
  const inLanguage = (wanted: string) => translations.find((entry) => entry.language === wanted);
  return (inLanguage(language) ?? inLanguage(DEFAULT_LOCALE) ?? translations[0])?.translation ?? null;
}
