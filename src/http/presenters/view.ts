// What a presenter needs to know about the request it answers.
import type { FastifyRequest } from 'fastify';
import type { Locale } from '../../i18n/locales.ts';
import { canWrite } from '../auth.ts';
import type { Hrefs } from '../hrefs.ts';

export interface View<Embed extends string = never> {
  hrefs: Hrefs;
  locale: Locale;
  /** Whether the caller may change things: action links are only offered then. */
  canWrite: boolean;
  embed: ReadonlySet<Embed>;
}

/** The view of a request, embedding `embed` (nothing by default). */
export const viewOf = <Embed extends string = never>(
  request: FastifyRequest,
  embed: ReadonlySet<Embed> = new Set<Embed>(),
): View<Embed> => ({ hrefs: request.hrefs, locale: request.locale, canWrite: canWrite(request), embed });
