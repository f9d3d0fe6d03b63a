// Every error answer goes through here: one body shape {status, code, message} (docs/api.md, "Errors"),
// statuses from the code table in src/domain/errors.ts, messages in the request's language.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DatabaseTimeoutError, DatabaseUnavailableError } from '../db/database.ts';
import { AppError } from '../domain/errors.ts';
import { message } from '../i18n/messages.ts';
import { foreignKeyError } from '../services/constraintErrors.ts';

const REALM = 'Bearer realm="bridge"';

/** RFC 6750 3: the challenge that tells a client why its token was not accepted. */
function challenge(error: AppError): string | undefined {
  switch (error.code) {
    case 'UNAUTHORIZED':
      return REALM;
    case 'INVALID_TOKEN':
      return `${REALM}, error="invalid_token", error_description="The access token is invalid"`;
    case 'EXPIRED_TOKEN':
      return `${REALM}, error="invalid_token", error_description="The access token expired"`;
    case 'INSUFFICIENT_SCOPE':
      return `${REALM}, error="insufficient_scope", scope="${String(error.params.scope)}"`;
    default:
      return undefined;
  }
}

function fromFastify(
  error: { code?: string; statusCode?: number; message?: string },
  request: FastifyRequest,
) {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', { contentType: request.headers['content-type'] ?? '' });
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE', { limit: request.routeOptions.bodyLimit ?? 0 });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError('MALFORMED_JSON');
    default:
      if (error instanceof SyntaxError) return new AppError('MALFORMED_JSON');
      return new AppError('BAD_REQUEST', { detail: error.message ?? 'invalid request' });
  }
}

/** The AppError an arbitrary thrown value stands for. */
export function asAppError(error: unknown, request: FastifyRequest): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof DatabaseTimeoutError)
    return new AppError('DATABASE_TIMEOUT', { requestId: request.id });
  if (error instanceof DatabaseUnavailableError)
    return new AppError('DATABASE_UNAVAILABLE', { requestId: request.id });
  // A referenced row deleted concurrently: the answer the requests get one after the other.
  const params = request.params as Record<string, string> | undefined;
  const conflict = foreignKeyError(error, request.method === 'DELETE', params?.id);
  if (conflict) return conflict;
  const fastifyError = error as { code?: string; statusCode?: number; message?: string };
  if (
    typeof fastifyError?.statusCode === 'number' &&
    fastifyError.statusCode >= 400 &&
    fastifyError.statusCode < 500
  ) {
    return fromFastify(fastifyError, request);
  }
  return new AppError('INTERNAL_ERROR', { requestId: request.id });
}

/** The error body in the request's language. */
export function errorBody(error: AppError, request: FastifyRequest) {
  // A rule picks the message variant (`VALIDATION_FAILED.maxLength`, `PAYLOAD_TOO_LARGE.field`).
  const key = error.params.rule === undefined ? error.code : `${error.code}.${String(error.params.rule)}`;
  return { status: error.status, code: error.code, message: message(key, request.locale, error.params) };
}

export function sendError(reply: FastifyReply, error: AppError, headers: Record<string, string> = {}) {
  const authenticate = challenge(error);
  if (authenticate) reply.header('www-authenticate', authenticate);
  for (const [name, value] of Object.entries(headers)) reply.header(name, value);
  return reply.code(error.status).send(errorBody(error, reply.request));
}

export function handleError(error: unknown, request: FastifyRequest, reply: FastifyReply) {
  const appError = asAppError(error, request);
  if (appError.status >= 500) {
    // The cause goes to the log (with the request id), never into the answer.
    request.log.error({ err: error }, `request failed: ${appError.code}`);
  }
  return sendError(reply, appError);
}
