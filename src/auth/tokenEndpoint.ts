// POST {base}/oauth/token: OAuth 2.0 client credentials (RFC 6749 4.4) as a list of small steps.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../db/database.ts';
import { findClient, type OAuthClient } from '../db/repositories/clients.ts';
import { DUMMY_HASH, verifySecret } from './secrets.ts';
import type { TokenService } from './tokens.ts';

type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'unauthorized_client';

/** An RFC 6749 5.2 error answer. */
export class OAuthError extends Error {
  readonly error: OAuthErrorCode;
  readonly status: number;
  constructor(error: OAuthErrorCode, description: string) {
    super(description);
    this.error = error;
    this.status = error === 'invalid_client' ? 401 : 400;
  }
}

// Older clients spell the form type application/x-www-urlencode; accept it beside the standard one
// (docs/api.md, "Authentication").
const FORM_TYPES = ['application/x-www-form-urlencoded', 'application/x-www-urlencode'];

interface Credentials {
  clientId: string;
  clientSecret: string;
}

type Form = Record<string, string>;

function parseForm(body: string): Form {
  const form: Form = {};
  for (const [name, value] of new URLSearchParams(body)) {
    if (name in form) throw new OAuthError('invalid_request', `Parameter '${name}' must not be repeated.`);
    form[name] = value;
  }
  return form;
}

// RFC 6749 2.3.1: id and secret are form-encoded before they are joined and Base64-encoded.
const formDecode = (value: string) => decodeURIComponent(value.replace(/\+/g, ' '));

function readCredentials(authorization: string | undefined, form: Form): Credentials {
  const fromForm = form.client_id !== undefined || form.client_secret !== undefined;
  if (authorization !== undefined) {
    if (fromForm)
      throw new OAuthError(
        'invalid_request',
        'Use either HTTP Basic or form fields for the client, not both.',
      );
    const match = /^basic\s+([A-Za-z0-9+/=_-]+)\s*$/i.exec(authorization);
    const decoded = match?.[1] ? Buffer.from(match[1], 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    if (colon < 1)
      throw new OAuthError('invalid_client', 'The Authorization header is not valid HTTP Basic.');
    try {
      return {
        clientId: formDecode(decoded.slice(0, colon)),
        clientSecret: formDecode(decoded.slice(colon + 1)),
      };
    } catch {
      throw new OAuthError('invalid_client', 'The client credentials are not correctly URL-encoded.');
    }
  }
  if (!form.client_id || form.client_secret === undefined) {
    throw new OAuthError(
      'invalid_client',
      'Client authentication is missing: use HTTP Basic or client_id and client_secret.',
    );
  }
  return { clientId: form.client_id, clientSecret: form.client_secret };
}

function checkGrantType(form: Form): void {
  if (form.grant_type === undefined)
    throw new OAuthError('invalid_request', "Parameter 'grant_type' is required.");
  if (form.grant_type !== 'client_credentials') {
    throw new OAuthError('unsupported_grant_type', 'Only the grant type client_credentials is supported.');
  }
}

async function authenticateClient(db: Database, credentials: Credentials): Promise<OAuthClient> {
  const client = await findClient(db, credentials.clientId);
  // Check a hash even for unknown clients, so the answer time does not tell which ids exist.
  const valid = await verifySecret(credentials.clientSecret, client?.secretHash ?? DUMMY_HASH);
  if (!client || !valid) throw new OAuthError('invalid_client', 'Client authentication failed.');
  return client;
}

/** No scope asked: every scope the client holds. Asked: each one must be held. */
function grantScopes(client: OAuthClient, requested: string | undefined): string[] {
  const asked = (requested ?? '').split(' ').filter((scope) => scope !== '');
  if (asked.length === 0) return client.scopes;
  const refused = asked.filter((scope) => !client.scopes.includes(scope));
  if (refused.length > 0) {
    throw new OAuthError('invalid_scope', `Scope not granted to this client: ${refused.join(' ')}.`);
  }
  return [...new Set(asked)];
}

export function registerTokenEndpoint(
  app: FastifyInstance,
  path: string,
  db: Database,
  tokens: TokenService,
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

    scope.post(
      path,
      {
        config: { auth: 'public' },
        schema: {
          tags: ['authentication'],
          summary: 'Get an access token (OAuth 2.0 client credentials)',
          consumes: FORM_TYPES,
          security: [{ basicAuth: [] }, {}],
        },
      },
      async (request, reply) => {
        const form = (request.body ?? {}) as Form;
        const credentials = readCredentials(request.headers.authorization, form);
        checkGrantType(form);
        const client = await authenticateClient(db, credentials);
        const scopes = grantScopes(client, form.scope);
        const accessToken = await tokens.issue(client.clientId, scopes);
        reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
        return {
          access_token: accessToken,
          token_type: 'bearer',
          expires_in: tokens.ttlSeconds,
          scope: scopes.join(' '),
        };
      },
    );
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
  if (oauthError.status === 401) reply.header('www-authenticate', 'Basic realm="bridge", charset="UTF-8"');
  return reply
    .code(oauthError.status)
    .header('cache-control', 'no-store')
    .header('pragma', 'no-cache')
    .send({ error: oauthError.error, error_description: oauthError.message });
}
