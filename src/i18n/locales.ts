// Supported response languages and Accept-Language negotiation (docs/api.md, "Languages and media types").

export const LOCALES = ['en-GB', 'en-US', 'de-DE', 'zh-CN'] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = 'en-GB';

/** A text in every language; en-US may be left out where it equals en-GB. */
export type LocalizedText = Record<Exclude<Locale, 'en-US'>, string> & { 'en-US'?: string };

export function localize(text: LocalizedText, locale: Locale): string {
  return (locale === 'en-US' ? text['en-US'] : text[locale]) ?? text['en-GB'];
}

// Tags outside the list fall back by language (`de-AT` -> de-DE, `en-EN` -> en-GB).
const BY_LANGUAGE: Record<string, Locale> = { en: 'en-GB', de: 'de-DE', zh: 'zh-CN' };

/** Picks the best supported locale for an Accept-Language header, honouring q-values. */
export function negotiateLocale(header: string | undefined): Locale {
  if (!header) return DEFAULT_LOCALE;
  const ranges = header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q === undefined ? 1 : Number(q.slice(2));
      return { tag: tag.trim().toLowerCase(), quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((range) => range.tag !== '' && range.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const { tag } of ranges) {
    const exact = LOCALES.find((locale) => locale.toLowerCase() === tag);
    if (exact) return exact;
    const byLanguage = BY_LANGUAGE[tag.split('-')[0] ?? ''];
    if (byLanguage) return byLanguage;
  }
  return DEFAULT_LOCALE;
}
