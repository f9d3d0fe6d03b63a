// The bearer-token guard in front of every non-public route: 401 without a valid token, 403
// without the scope the method needs (docs/api.md, "Authentication").
import type { FastifyRequest } from 'fastify';
import type { TokenService } from '../auth/tokens.ts';
import type { Scope } from '../config.ts';
import { AppError } from '../domain/errors.ts';

const READ_METHODS = new Set(['GET', 'HEAD']);

export function requiredScope(request: FastifyRequest): Scope {
  return request.routeOptions.config.scope ?? (READ_METHODS.has(request.method) ? 'read' : 'write');
}

export function bearerGuard(tokens: TokenService) {
  return async (request: FastifyRequest) => {
    if (request.routeOptions.config.auth === 'public' || request.is404) return;
    const header = request.headers.authorization ?? tokenFromQuery(request);
    if (header === undefined || header.trim() === '') throw new AppError('UNAUTHORIZED');
    const match = /^bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
    if (!match?.[1]) throw new AppError('INVALID_TOKEN');
    request.client = await tokens.verify(match[1]);
    const scope = requiredScope(request);
    if (!request.client.scopes.includes(scope)) throw new AppError('INSUFFICIENT_SCOPE', { scope });
  };
}

/** `Bearer <access_token>` from the query, on the routes that allow it; undefined otherwise. */
function tokenFromQuery(request: FastifyRequest): string | undefined {
  if (!request.routeOptions.config.tokenInQuery) return undefined;
  const token = (request.query as Record<string, unknown> | undefined)?.access_token;
  return typeof token === 'string' ? `Bearer ${token}` : undefined;
}

/** Whether the caller may change things; links to actions are offered only then. */
export const canWrite = (request: FastifyRequest) => request.client?.scopes.includes('write') ?? false;
