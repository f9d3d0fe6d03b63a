// Idempotency-Key on POST (docs/api.md, "Retried writes"): the first answer to a client's key is
// given again for a day, with `Idempotent-Replayed: true`, and nothing is written twice. The same
// key sent with another method, path or body is 422. Without the header nothing changes.
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../domain/errors.ts';
import type { IdempotentWrites, OpenWrite, StoredAnswer } from '../services/idempotency.ts';
import { asAppError, errorBody, sendError } from './errors.ts';

/** Printable ASCII without spaces, as the IETF draft and the common UUID keys are. */
const KEY = /^[\x21-\x7e]{1,255}$/;
/** The headers of an answer that are given again (the rest belong to each response). */
const KEPT_HEADERS = ['content-type', 'location'];

interface Pending {
  open: OpenWrite;
  clientId: string;
  key: string;
  fingerprint: string;
}

const pending = new WeakMap<FastifyRequest, Pending>();

export function registerIdempotency(app: FastifyInstance, writes: IdempotentWrites): void {
  app.addHook('preHandler', (request, reply, done) => {
    const header = request.headers['idempotency-key'];
    if (request.method !== 'POST' || header === undefined || !request.client) return done();
    const key = Array.isArray(header) ? undefined : header;
    if (key === undefined || !KEY.test(key)) {
      return done(new AppError('VALIDATION_FAILED', { rule: 'pattern', field: 'Idempotency-Key' }));
    }
    const clientId = request.client.clientId;
    const fingerprint = fingerprintOf(request);
    writes
      .find(clientId, key)
      .then(async (stored) => {
        if (stored) return replay(reply, stored, fingerprint);
        const open = await writes.begin();
        pending.set(request, { open, clientId, key, fingerprint });
        open.run(done);
      })
      .catch((error: Error) => done(error));
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const write = pending.get(request);
    if (!write) return payload;
    pending.delete(request);
    const body =
      typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
    // A server fault keeps nothing: the retry runs the request again.
    if (reply.statusCode >= 500 || (payload != null && body === null)) {
      await write.open.rollback();
      return payload;
    }
    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const value = reply.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    const answer = { fingerprint: write.fingerprint, status: reply.statusCode, headers, body };
    let outcome: Awaited<ReturnType<IdempotentWrites['commit']>>;
    try {
      outcome = await writes.commit(write.open, write.clientId, write.key, answer);
    } catch (error) {
      // The commit failed: nothing of the request was written, and the answer says so.
      return errorPayload(reply, error, request);
    }
    if (outcome.stored) return payload;
    // A concurrent request with the key committed first: this one's writes are gone, its answer is given.
    if (!outcome.first)
      return errorPayload(reply, new AppError('INTERNAL_ERROR', { requestId: request.id }), request);
    if (outcome.first.fingerprint !== write.fingerprint) {
      return errorPayload(reply, new AppError('IDEMPOTENCY_KEY_REUSED'), request);
    }
    reply.code(outcome.first.status);
    for (const [name, value] of Object.entries(outcome.first.headers)) reply.header(name, value);
    reply.header('idempotent-replayed', 'true');
    return outcome.first.body ?? '';
  });

  // A request that ended without going through onSend keeps nothing. (A client that goes away
  // does not end the request: it runs on, commits, and its retry gets the answer.)
  app.addHook('onResponse', (request, _reply, done) => {
    const write = pending.get(request);
    if (!write) return done();
    pending.delete(request);
    write.open.rollback().then(() => done());
  });
}

/** What a key was used for: the method, the address and the body. */
function fingerprintOf(request: FastifyRequest): string {
  const body = request.body === undefined ? '' : JSON.stringify(request.body);
  return createHash('sha256').update(`${request.method} ${request.url}\n${body}`).digest('base64url');
}

function replay(reply: FastifyReply, stored: StoredAnswer, fingerprint: string) {
  if (stored.fingerprint !== fingerprint) return sendError(reply, new AppError('IDEMPOTENCY_KEY_REUSED'));
  for (const [name, value] of Object.entries(stored.headers)) reply.header(name, value);
  return reply
    .code(stored.status)
    .header('idempotent-replayed', 'true')
    .send(stored.body ?? undefined);
}

/** An error answer written from onSend (where the reply is already on its way). */
function errorPayload(reply: FastifyReply, error: unknown, request: FastifyRequest): string {
  const appError = asAppError(error, request);
  if (appError.status >= 500) request.log.error({ err: error }, `request failed: ${appError.code}`);
  reply.code(appError.status).header('content-type', 'application/json; charset=utf-8');
  return JSON.stringify(errorBody(appError, request));
}
