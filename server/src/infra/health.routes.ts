import type { FastifyInstance } from 'fastify';
import { healthResponse, readyResponse } from '../../../contracts/system.ts';
import { ok } from './http/reply.ts';
import { refuse } from '../sentences.ts';

/**
 * GET (load balancers, scripts) and POST (like every other call) /api/health: this process answers and its
 * database does. GET /api/ready: also Redis, when configured, for a load balancer deciding where calls go.
 * While the process shuts down both answer 503 (app.ts's closing hook), so it is taken out of rotation.
 */
export default async function healthRoutes(app: FastifyInstance) {
  const databaseAnswers = async () => {
    // The app is only listening once migrations ran; this probes that the database still answers.
    await app.db.query('SELECT 1').catch(() => {
      throw refuse.databaseUnavailable();
    });
  };
  const health = async () => {
    await databaseAnswers();
    return ok(healthResponse, { status: 'ok', database: app.db.kind });
  };
  app.get('/health', health);
  app.post('/health', health);

  app.get('/ready', async () => {
    await databaseAnswers();
    // Without an offline queue the ping fails at once while Redis is away, or after the connection's command timeout.
    await app.sharedRedis?.ping().catch(() => {
      throw refuse.redisUnavailable();
    });
    return ok(readyResponse, { status: 'ready', database: app.db.kind, redis: app.sharedRedis ? 'ok' : 'not configured' });
  });
}
