// What a request body must be before it is parsed (docs/api.md, "Requests"): JSON text in UTF-8
// (RFC 8259), sent without a content coding. A body in another charset or compressed is 415; bytes
// that are not UTF-8 are 400 (decoding them would store U+FFFD in their place); a number too small
// to be represented (1e-400, which JSON.parse makes 0) is 400 naming its field, as 1e400 is.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../domain/errors.ts';

type Done = (error: Error | null, body?: unknown) => void;
type JsonParser = (request: FastifyRequest, body: string, done: Done) => void;

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)"?/i;
const UTF8_NAMES = new Set(['utf-8', 'utf8']);
/** Only text with a negative exponent can hold a number that rounds to 0. */
const NEGATIVE_EXPONENT = /\d[eE]-\d/;
const UNDERFLOW = Symbol('underflow');

/** The JSON parser for raw bytes: charset, UTF-8 and underflow checked around `parseJson`. */
export function strictJsonParser(parseJson: JsonParser) {
  return (request: FastifyRequest, body: Buffer, done: Done) => {
    const charset = CHARSET.exec(request.headers['content-type'] ?? '')?.[1]?.toLowerCase();
    if (charset !== undefined && !UTF8_NAMES.has(charset)) {
      return done(
        new AppError('UNSUPPORTED_MEDIA_TYPE', { contentType: request.headers['content-type'] ?? '' }),
      );
    }
    let text: string;
    try {
      text = UTF8.decode(body);
    } catch {
      return done(new AppError('MALFORMED_JSON', { rule: 'encoding' }));
    }
    // An empty body under a JSON content type is no body (clients that always send the header).
    if (text === '') return done(null, undefined);
    parseJson(request, text, (error, value) => {
      if (error || !NEGATIVE_EXPONENT.test(text)) return done(error, value);
      const field = underflowingField(text);
      if (field === undefined) return done(null, value);
      done(
        new AppError('VALIDATION_FAILED', {
          rule: 'value',
          field,
          detail: 'is too small to be stored (it would become 0)',
        }),
      );
    });
  };
}

/** The dotted name of the first number in `text` that is not 0 but parses as 0, if any. */
function underflowingField(text: string): string | undefined {
  const parsed: unknown = JSON.parse(text, (_key, value, context?: { source?: string }) => {
    if (value !== 0 || context?.source === undefined) return value;
    const mantissa = context.source.split(/[eE]/)[0] ?? '';
    return /[1-9]/.test(mantissa) ? UNDERFLOW : value;
  });
  return find(parsed, []);
}

function find(value: unknown, path: string[]): string | undefined {
  if (value === UNDERFLOW) return path.join('.');
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, child] of Object.entries(value)) {
    const found = find(child, [...path, key]);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** A body with a content coding (gzip, br, ...) is 415: bodies are taken as sent. */
export function refuseContentEncoding<Payload>(
  request: FastifyRequest,
  _reply: FastifyReply,
  payload: Payload,
  done: (error: Error | null, payload?: Payload) => void,
) {
  const coding = request.headers['content-encoding']?.trim().toLowerCase();
  if (coding === undefined || coding === '' || coding === 'identity') return done(null, payload);
  done(new AppError('UNSUPPORTED_MEDIA_TYPE', { rule: 'encoding', encoding: coding }));
}
