import { defineCall } from '../infra/http/call.ts';
import { METRICS_CONTENT_TYPE } from './metrics.ts';

/**
 * GET /metrics: the operator's Prometheus scrapes it (docs/operators.md "Monitoring"). Outside /api, where
 * Prometheus looks by default. Access `metrics` (infra/http/calls.ts): METRICS_TOKEN as the bearer token, or
 * without one a request straight from this machine; refused with 401 before anything is read or counted.
 */
export default defineCall({
  method: 'get',
  path: '/metrics',
  tag: 'System',
  summary: 'Metrics (Prometheus)',
  description:
    'The process\'s and the product\'s metrics in Prometheus text format 0.0.4: request durations by route pattern, trades and withdrawals by outcome, the built-in realtime server\'s websockets and channels, the chain watcher\'s lag per network, the web push queue, the PostgreSQL pool (docs/operators.md "Monitoring" lists them, with a scrape configuration). 401 "GET /metrics needs …" without the right token when METRICS_TOKEN is set; 401 "GET /metrics answers only this machine …" without METRICS_TOKEN from another machine, through a proxy, or with TRUST_PROXY set.',
  access: 'metrics',
  answer: { kind: 'text', contentType: METRICS_CONTENT_TYPE, what: 'The metrics, one sample a line.' },
  handle: async ({ app, reply }) => reply.type(METRICS_CONTENT_TYPE).send(await app.metrics.text()),
});
