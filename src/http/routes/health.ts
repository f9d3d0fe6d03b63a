import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/database.ts';
import { ping } from '../../db/repositories/health.ts';

/** Liveness (the process answers) and readiness (the database answers), outside auth. */
export function registerHealth(app: FastifyInstance, db: Database, basePath: string): void {
  const schema = { tags: ['operations'], security: [] };
  app.get(`${basePath}/health/live`, { config: { auth: 'public' }, schema }, async () => ({ status: 'UP' }));
  app.get(`${basePath}/health/ready`, { config: { auth: 'public' }, schema }, async (request, reply) => {
    try {
      await ping(db);
      return { status: 'UP', database: 'UP' };
    } catch (error) {
      request.log.warn({ err: error }, 'readiness check failed');
      return reply.code(503).send({ status: 'DOWN', database: 'DOWN' });
    }
  });
}
