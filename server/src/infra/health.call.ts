import type { FastifyInstance } from 'fastify';
import { emptyBody } from '../../../contracts/common.ts';
import { healthResponse, readyResponse } from '../../../contracts/system.ts';
import { defineCall, envelope } from './http/call.ts';
import { ok } from './http/reply.ts';
import { refuse } from '../sentences.ts';

/**
 * GET (load balancers, scripts) and POST (like every other call) /api/health: this process answers and its
 * database does. GET /api/ready: also Redis, when configured, for a load balancer deciding where calls go.
 * While the process shuts down all three answer 503 (app.ts's closing hook), so it is taken out of rotation.
 */

async function databaseAnswers(app: FastifyInstance) {
  // The app is only listening once migrations ran; this probes that the database still answers.
  await app.db.query('SELECT 1').catch(() => {
    throw refuse.databaseUnavailable();
  });
}

const health = async (app: FastifyInstance) => {
  await databaseAnswers(app);
  return ok(healthResponse, { status: 'ok', database: app.db.kind });
};

export const healthCall = defineCall({
  method: 'get',
  path: '/api/health',
  tag: 'System',
  summary: 'Health',
  description:
    'Answers once the database is migrated and the server accepts calls; 503 "The database is not available." when the database does not respond. Also answers POST, like every other call.',
  access: 'public',
  answer: envelope(healthResponse),
  handle: ({ app }) => health(app),
});

export const healthPostCall = defineCall({
  ...healthCall,
  method: 'post',
  summary: 'Health (POST)',
  description: 'The same as GET /api/health.',
  request: { schema: emptyBody, optional: true },
  handle: ({ app }) => health(app),
});

export const readyCall = defineCall({
  method: 'get',
  path: '/api/ready',
  tag: 'System',
  summary: 'Readiness',
  description:
    'For load balancers: 200 only while this process can serve calls, its database and (with `REDIS_URL`) Redis answering; 503 otherwise, and while it shuts down.',
  access: 'public',
  answer: envelope(readyResponse),
  handle: async ({ app }) => {
    await databaseAnswers(app);
    // Without an offline queue the ping fails at once while Redis is away, or after the connection's command timeout.
    await app.sharedRedis?.ping().catch(() => {
      throw refuse.redisUnavailable();
    });
    return ok(readyResponse, { status: 'ready', database: app.db.kind, redis: app.sharedRedis ? 'ok' : 'not configured' });
  },
});
