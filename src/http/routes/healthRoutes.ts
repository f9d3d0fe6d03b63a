import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/database.ts';
import { ping } from '../../db/repositories/healthRepository.ts';
import type { Metrics } from '../../metrics/metrics.ts';

/**
 * Liveness (the process answers) and readiness (the database answers and, on an instance that
 * delivers events, the delivery loop keeps cycling), outside auth.
 */
export function registerHealth(
  app: FastifyInstance,
  db: Database,
  basePath: string,
  metrics?: Metrics,
): void {
  // 'monitoring', not 'operations': that tag is the production resource /operations.
  const schema = { tags: ['monitoring'], security: [] };
  const live = { ...schema, operationId: 'getLiveness', summary: 'Liveness: the process answers' };
  const ready = { ...schema, operationId: 'getReadiness', summary: 'Readiness: database and delivery work' };
  app.get(`${basePath}/health/live`, { config: { auth: 'public' }, schema: live }, async () => ({
    status: 'UP',
  }));
  app.get(
    `${basePath}/health/ready`,
    { config: { auth: 'public' }, schema: ready },
    async (request, reply) => {
      const delivery = metrics?.deliveryState();
      const stalled = delivery?.stalledForMs !== undefined;
      if (stalled) request.log.warn({ stalledForMs: delivery?.stalledForMs }, 'delivery loop stalled');
      const deliveryField = delivery === undefined ? {} : { delivery: stalled ? 'STALLED' : 'UP' };
      try {
        await ping(db);
      } catch (error) {
        request.log.warn({ err: error }, 'readiness check failed');
        return reply.code(503).send({ status: 'DOWN', database: 'DOWN', ...deliveryField });
      }
      if (stalled) return reply.code(503).send({ status: 'DOWN', database: 'UP', ...deliveryField });
      return { status: 'UP', database: 'UP', ...deliveryField };
    },
  );
}
