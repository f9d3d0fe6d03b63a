// Domain and protocol errors carry a stable code. ERROR_STATUS below gives each code its HTTP
// status (docs/api.md, "Errors"); src/http/errors.ts writes the error body and
// src/i18n/messages.ts gives each code its localized message.

export const ERROR_STATUS = {
  VALIDATION_FAILED: 400,
  UNKNOWN_FIELD: 400,
  UNKNOWN_QUERY_PARAMETER: 400,
  MALFORMED_JSON: 400,
  UNKNOWN_EMBED: 400,
  INVALID_REFERENCE: 400,
  ALREADY_EXISTS: 400,
  RESOURCE_IN_USE: 400,
  ID_MISMATCH: 400,
  READ_ONLY_PROPERTY: 400,
  INVALID_TRANSITION: 400,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  INVALID_TOKEN: 401,
  EXPIRED_TOKEN: 401,
  INSUFFICIENT_SCOPE: 403,
  NOT_FOUND: 404,
  ROUTE_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  IDEMPOTENCY_KEY_REUSED: 422,
  TOO_MANY_STREAMS: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL_ERROR: 500,
  DATABASE_UNAVAILABLE: 503,
  SERVER_BUSY: 503,
  DATABASE_TIMEOUT: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export type MessageParams = Record<string, string | number>;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly params: MessageParams;
  constructor(code: ErrorCode, params: MessageParams = {}) {
    super(`${code} ${JSON.stringify(params)}`);
    this.code = code;
    this.params = params;
  }
  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export const notFound = (resource: string, id: string) => new AppError('NOT_FOUND', { resource, id });
