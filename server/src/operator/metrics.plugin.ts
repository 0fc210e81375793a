import type { FastifyReply, FastifyRequest } from 'fastify';
import { shared } from '../infra/shared.ts';
import { appMetrics, metricsAccess, type AppMetrics } from './metrics.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** This app's Prometheus metrics (operator/metrics.ts): the counters the services move, and GET /metrics's text. */
    metrics: AppMetrics;
    /** GET /metrics's access (call access `metrics`): METRICS_TOKEN, or this machine without one; 401 otherwise. */
    requireMetricsAccess: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

/**
 * Tier 0, right after the configuration: the request-duration histogram sees every answer (the API, the device
 * and trigger APIs, the web app's files, a 404), and the services built later count through `app.metrics`. The
 * gauges read the services at each scrape; those a deployment may lack are added once the app is ready.
 */
export const metricsPlugin = shared('peerex-metrics', async (app) => {
  const metrics = appMetrics({
    realtime: () => app.realtime.stats(),
    chainLag: (timeoutMs) => app.chain.lag(timeoutMs),
    pushQueue: () => app.push.queueDepth(),
    pool: () => app.db.pool?.(),
    log: app.log,
  });
  app.decorate('metrics', metrics);

  const allowed = metricsAccess(app.config);
  app.decorate('requireMetricsAccess', async function requireMetricsAccess(request: FastifyRequest, reply: FastifyReply) {
    try {
      allowed(request);
    } catch (error) {
      reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw error;
    }
  });

  app.addHook('onResponse', async (request, reply) => {
    metrics.observe(request, reply.statusCode, reply.elapsedTime / 1000);
  });
  app.addHook('onReady', async () => {
    metrics.addDeploymentGauges();
  });
});
