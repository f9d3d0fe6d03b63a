// The token endpoint: OAuth 2.0 client credentials (RFC 6749 4.4) and refresh (RFC 6749 6) as a
// list of small steps, at POST {base}/oauth/token and at the FORCE Bridge aliases
// GET|POST /ffauth/oauth2.0/accessToken (docs/api.md, "Authentication").
import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ClientAuthenticator } from './clientAuthenticator.ts';
import type { RefreshTokenService } from './refreshTokens.ts';
import type { TokenService } from './tokens.ts';

type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'unauthorized_client'
  | 'invalid_grant'
  // RFC 8628 3.5's name for "too fast", answered with 429 and Retry-After.
  | 'slow_down';

const STATUS: Record<OAuthErrorCode, number> = {
  invalid_request: 400,
  invalid_client: 401,
  unsupported_grant_type: 400,
  invalid_scope: 400,
  unauthorized_client: 400,
  invalid_grant: 400,
  slow_down: 429,
};

/** An RFC 6749 5.2 error answer. */
export class OAuthError extends Error {
  readonly error: OAuthErrorCode;
  readonly status: number;
  /** Seconds, for 429. */
  readonly retryAfter: number | undefined;
  constructor(error: OAuthErrorCode, description: string, retryAfter?: number) {
    super(description);
    this.error = error;
    this.status = STATUS[error];
    this.retryAfter = retryAfter;
  }
}

// Older clients spell the form type application/x-www-urlencode; accept it beside the standard one
// (docs/api.md, "Authentication").
const FORM_TYPES = ['application/x-www-form-urlencoded', 'application/x-www-urlencode'];

export interface Credentials {
  clientId: string;
  clientSecret: string;
}

type Form = Record<string, string>;

function parseForm(body: string, form: Form = {}): Form {
  for (const [name, value] of new URLSearchParams(body)) {
    if (name in form) throw new OAuthError('invalid_request', `Parameter '${name}' must not be repeated.`);
    form[name] = value;
  }
  return form;
}

// RFC 6749 2.3.1: id and secret are form-encoded before they are joined and Base64-encoded.
const formDecode = (value: string) => decodeURIComponent(value.replace(/\+/g, ' '));

function readCredentials(authorization: string | undefined, form: Form): Credentials {
  if (authorization !== undefined) {
    if (form.client_id !== undefined || form.client_secret !== undefined)
      throw new OAuthError(
        'invalid_request',
        'Use either HTTP Basic or form fields for the client, not both.',
      );
    return readBasic(authorization);
  }
  if (!form.client_id || form.client_secret === undefined) {
    throw new OAuthError(
      'invalid_client',
      'Client authentication is missing: use HTTP Basic or client_id and client_secret.',
    );
  }
  return { clientId: form.client_id, clientSecret: form.client_secret };
}

function readBasic(authorization: string): Credentials {
  const match = /^basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(authorization);
  // Bytes that are not UTF-8 become U+FFFD here and are refused with the other unusable values.
  const decoded = match?.[1] ? Buffer.from(match[1], 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  if (colon < 1) throw new OAuthError('invalid_client', 'The Authorization header is not valid HTTP Basic.');
  try {
    return {
      clientId: formDecode(decoded.slice(0, colon)),
      clientSecret: formDecode(decoded.slice(colon + 1)),
    };
  } catch {
    throw new OAuthError('invalid_client', 'The client credentials are not correctly URL-encoded.');
  }
}

type GrantType = 'client_credentials' | 'refresh_token';

function checkGrantType(form: Form): GrantType {
  if (form.grant_type === undefined)
    throw new OAuthError('invalid_request', "Parameter 'grant_type' is required.");
  if (form.grant_type !== 'client_credentials' && form.grant_type !== 'refresh_token') {
    throw new OAuthError(
      'unsupported_grant_type',
      'Only the grant types client_credentials and refresh_token are supported.',
    );
  }
  if (form.grant_type === 'refresh_token' && !form.refresh_token) {
    throw new OAuthError('invalid_request', "Parameter 'refresh_token' is required.");
  }
  return form.grant_type;
}

/**
 * No scope asked: every scope held. Asked: each one must be held. Held: the client's scopes, and
 * for a refresh also those of the original grant.
 */
function grantScopes(held: readonly string[], requested: string | undefined): string[] {
  const asked = (requested ?? '').split(' ').filter((scope) => scope !== '');
  if (asked.length === 0) return [...held];
  const refused = asked.filter((scope) => !held.includes(scope));
  if (refused.length > 0) {
    throw new OAuthError('invalid_scope', `Scope not granted to this client: ${refused.join(' ')}.`);
  }
  return [...new Set(asked)];
}

/** Where the token endpoint answers; aliases also read the parameters from the query string. */
export interface TokenPaths {
  /** POST, form body only (`{base}/oauth/token`). */
  standard: string;
  /** GET and POST, query string and form body (`/ffauth/oauth2.0/accessToken`, root and base). */
  aliases: readonly string[];
}

/** The query string's parameters (aliases only); a name given twice, or in query and body, is refused. */
function queryParameters(url: string, body: Form): Form {
  const question = url.indexOf('?');
  if (question < 0) return body;
  return parseForm(url.slice(question + 1), { ...body });
}

export function registerTokenEndpoint(
  app: FastifyInstance,
  paths: TokenPaths,
  tokens: TokenService,
  refreshTokens: RefreshTokenService,
  authenticator: ClientAuthenticator,
): void {
  app.register(async (scope) => {
    // Only forms: without this the JSON parser inherited from the API would let a JSON body through.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(FORM_TYPES, { parseAs: 'string' }, (_request, body, done) => {
      try {
        done(null, parseForm(String(body)));
      } catch (error) {
        done(error as Error, undefined);
      }
    });
    scope.setErrorHandler((error, request, reply) => sendOAuthError(error, request, reply));

    const security: Record<string, string[]>[] = [{ basicAuth: [] }, {}];
    const routeOptions = (summary: string) => ({
      // A HEAD would issue a token nobody gets to see.
      exposeHeadRoute: false,
      config: { auth: 'public' as const },
      schema: {
        tags: ['authentication'],
        summary,
        consumes: FORM_TYPES,
        security,
      },
    });
    const handler = (withQuery: boolean) => async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        return await issueToken(request, reply, withQuery);
      } catch (error) {
        // A refusal is held a moment: a client that ignores Retry-After cannot turn refusals into load.
        if (error instanceof OAuthError && error.error === 'slow_down' && authenticator.refusalDelayMs > 0) {
          await delay(Math.min(authenticator.refusalDelayMs, (error.retryAfter ?? 1) * 1000));
        }
        throw error;
      }
    };
    scope.post(
      paths.standard,
      routeOptions('Get an access token (OAuth 2.0 client credentials)'),
      handler(false),
    );
    for (const alias of new Set(paths.aliases)) {
      const summary = 'Get an access token (FORCE Bridge address; parameters also in the query string)';
      scope.get(alias, routeOptions(summary), handler(true));
      scope.post(alias, routeOptions(summary), handler(true));
    }

    const issueToken = async (request: FastifyRequest, reply: FastifyReply, withQuery: boolean) => {
      const body = (request.body ?? {}) as Form;
      const form = withQuery ? queryParameters(request.url, body) : body;
      let credentials: Credentials;
      try {
        credentials = readCredentials(request.headers.authorization, form);
      } catch (error) {
        if (error instanceof OAuthError && error.error === 'invalid_client') {
          authenticator.checkAddress(request.ip);
          authenticator.failed(request.ip);
        }
        throw error;
      }
      const grantType = checkGrantType(form);
      const client = await authenticator.authenticate(credentials, request.ip);
      let scopes: string[];
      let refreshToken: string;
      if (grantType === 'refresh_token') {
        // The original grant's scopes, as far as the client still holds them; a refused scope
        // leaves the refresh token unspent.
        const held = (original: string[]) => original.filter((name) => client.scopes.includes(name));
        const outcome = await refreshTokens.rotate(form.refresh_token ?? '', client.clientId, (original) => {
          grantScopes(held(original), form.scope);
        });
        if (outcome.kind === 'reused') {
          throw new OAuthError(
            'invalid_grant',
            'The refresh token was used before; it and the tokens issued from it are revoked.',
          );
        }
        if (outcome.kind === 'invalid') {
          throw new OAuthError(
            'invalid_grant',
            "The refresh token is unknown, expired or not this client's.",
          );
        }
        scopes = grantScopes(held(outcome.scopes), form.scope);
        refreshToken = outcome.refreshToken;
      } else {
        scopes = grantScopes(client.scopes, form.scope);
        refreshToken = await refreshTokens.issue(client.clientId, scopes);
      }
      const accessToken = await tokens.issue(client.clientId, scopes);
      reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
      return {
        access_token: accessToken,
        token_type: 'bearer',
        expires_in: tokens.ttlSeconds,
        refresh_token: refreshToken,
        scope: scopes.join(' '),
      };
    };
  });
}

function sendOAuthError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  let oauthError: OAuthError;
  if (error instanceof OAuthError) {
    oauthError = error;
  } else if (
    typeof error === 'object' &&
    error !== null &&
    'statusCode' in error &&
    Number(error.statusCode) < 500
  ) {
    // Wrong content type, oversized or unreadable body: the request itself is malformed.
    oauthError = new OAuthError(
      'invalid_request',
      'Send the token request as an application/x-www-form-urlencoded body of a reasonable size.',
    );
  } else {
    request.log.error({ err: error }, 'token endpoint failed');
    return reply
      .code(500)
      .header('cache-control', 'no-store')
      .send({ error: 'server_error', error_description: 'Internal error.' });
  }
  // RFC 6749 5.2: the challenge answers a client that tried HTTP Basic; a form-field client (the
  // dashboard) gets none, so a browser never opens its own sign-in dialog over the page.
  if (oauthError.status === 401 && usedBasic(request.headers.authorization)) {
    reply.header('www-authenticate', 'Basic realm="bridge", charset="UTF-8"');
  }
  if (oauthError.retryAfter !== undefined) reply.header('retry-after', String(oauthError.retryAfter));
  return reply
    .code(oauthError.status)
    .header('cache-control', 'no-store')
    .header('pragma', 'no-cache')
    .send({ error: oauthError.error, error_description: oauthError.message });
}

function usedBasic(authorization: string | undefined): boolean {
  return authorization !== undefined && /^basic(\s|$)/i.test(authorization.trimStart());
}
