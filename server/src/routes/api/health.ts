import type { FastifyInstance } from 'fastify';
import { healthResponse } from '../../../../contracts/system.ts';
import { ok } from '../../http/reply.ts';
import { sentences } from '../../sentences.ts';
import { Unavailable } from '../../refusals.ts';

/** GET (load balancers, scripts) and POST (like every other call) /api/health. */
export default async function healthRoutes(app: FastifyInstance) {
  const handler = async () => {
    // The app is only listening once migrations ran; this probes that the database still answers.
    await app.db.query('SELECT 1').catch(() => {
      throw new Unavailable(sentences.databaseUnavailable);
    });
    return ok(healthResponse, { status: 'ok', database: app.db.kind });
  };
  app.get('/health', handler);
  app.post('/health', handler);
}
