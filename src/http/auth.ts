// The bearer-token guard in front of every non-public route: 401 without a valid token, 403
// without the scope the method needs (docs/api.md, "Authentication").
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { AccessTokenClaims, TokenService } from '../auth/tokens.ts';
import type { Scope } from '../config.ts';
import { AppError } from '../domain/errors.ts';
import { routeConfigOf } from './context.ts';

const READ_METHODS = new Set(['GET', 'HEAD']);

function requiredScope(request: FastifyRequest): Scope {
  return routeConfigOf(request).scope ?? (READ_METHODS.has(request.method) ? 'read' : 'write');
}

/**
 * An onRequest hook. A token verified within the last recheck interval (the usual case) is
 * checked synchronously: no promise per request; otherwise `done` waits for the verification.
 * What it throws becomes the error answer.
 */
export function bearerGuard(tokens: TokenService) {
  return (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    if (routeConfigOf(request).auth === 'public' || request.is404) return done();
    const header = request.headers.authorization ?? tokenFromQuery(request);
    if (header === undefined || header.trim() === '') throw new AppError('UNAUTHORIZED');
    const match = /^bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
    if (!match?.[1]) throw new AppError('INVALID_TOKEN');
    const cached = tokens.cached(match[1]);
    if (cached) {
      authorize(request, cached);
      return done();
    }
    tokens.verify(match[1]).then(
      (client) => {
        try {
          authorize(request, client);
        } catch (error) {
          return done(error as Error);
        }
        done();
      },
      (error: Error) => done(error),
    );
  };
}

function authorize(request: FastifyRequest, client: AccessTokenClaims): void {
  request.client = client;
  const scope = requiredScope(request);
  if (!client.scopes.includes(scope)) throw new AppError('INSUFFICIENT_SCOPE', { scope });
}

/** `Bearer <access_token>` from the query, on the routes that allow it; undefined otherwise. */
function tokenFromQuery(request: FastifyRequest): string | undefined {
  if (!routeConfigOf(request).tokenInQuery) return undefined;
  const token = (request.query as Record<string, unknown> | undefined)?.access_token;
  return typeof token === 'string' ? `Bearer ${token}` : undefined;
}

/** Whether the caller may change things; links to actions are offered only then. */
export const canWrite = (request: FastifyRequest) => request.client?.scopes.includes('write') ?? false;
