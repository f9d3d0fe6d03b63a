// What every request carries beyond Fastify's own fields, and route-level settings.

import type { FastifyContextConfig, FastifyRequest } from 'fastify';
import type { AccessTokenClaims } from '../auth/tokens.ts';
import type { Scope } from '../config.ts';
import type { Locale } from '../i18n/locales.ts';
import type { RouteEntry } from './deps.ts';
import type { Hrefs } from './hrefs.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route with its method, as registered (see server.ts). */
    routeTable: RouteEntry[];
  }
  interface FastifyRequest {
    locale: Locale;
    /** Builds hrefs in the API version the request came in. */
    hrefs: Hrefs;
    /** The authenticated client (absent only on public routes). */
    client: AccessTokenClaims | undefined;
    /**
     * The route's config (with its `url`), kept by the first onRequest hook: Fastify's
     * `routeOptions` builds a new object of thirteen fields at every read. Null before that hook
     * ran (a URL the router could not read); `routeConfigOf` covers both.
     */
    routeConfig: (FastifyContextConfig & { url?: string }) | null;
  }
  interface FastifyContextConfig {
    /** `public` routes need no token (health, token endpoint, API documentation). */
    auth?: 'public';
    /** Scope needed instead of the method's default (a POST that only searches needs `read`). */
    scope?: Scope;
    /**
     * The bearer token may also come as the `access_token` query parameter (the event stream only:
     * browsers' EventSource cannot send headers; docs/api.md, "Event stream").
     */
    tokenInQuery?: boolean;
  }
}

/** The route's config (`url` included; undefined for 404s): kept by the request, else Fastify's. */
export const routeConfigOf = (request: FastifyRequest): FastifyContextConfig & { url?: string } =>
  request.routeConfig ?? request.routeOptions.config;
