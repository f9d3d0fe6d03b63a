// GET /metrics (Prometheus text format) behind the bearer guard (read scope), and the hooks that
// measure every request: duration by route pattern and status, refused credentials, 429s.
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Database } from '../../db/database.ts';
import type { Metrics } from '../../metrics/metrics.ts';
import { routeConfigOf } from '../context.ts';

export function registerMetrics(
  app: FastifyInstance,
  metrics: Metrics,
  db: Database,
  basePath: string,
): void {
  const tokenRoute = `${basePath}/oauth/token`;
  // Both hooks take `done` rather than being async: no promise on every request.
  app.addHook('onSend', (request, reply, payload, done) => {
    const status = reply.statusCode;
    const token = routeConfigOf(request).url === tokenRoute;
    if (
      typeof payload === 'string' &&
      (token ? status >= 400 && status < 500 : status === 401 || status === 403)
    ) {
      let body: { code?: unknown; error?: unknown } = {};
      try {
        body = JSON.parse(payload);
      } catch {
        // not an error body: counted as 'other'
      }
      metrics.authFailure(token ? 'token' : 'api', token ? body.error : body.code);
    }
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    metrics.request(request.method, routeConfigOf(request).url, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  app.get(
    `${basePath}/metrics`,
    {
      schema: {
        tags: ['monitoring'],
        summary: 'Metrics in the Prometheus text format (read scope)',
        querystring: Type.Object({}, { additionalProperties: false }),
      },
    },
    async (_request, reply) => {
      const text = await metrics.render(db);
      return reply.type(metrics.registry.contentType).send(text);
    },
  );
}
