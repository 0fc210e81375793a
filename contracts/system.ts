import { z } from 'zod/mini';
import { apiNames } from './common.ts';

/** GET or POST /api/health — answered once the database is migrated and the server accepts calls. */
export const healthResponse = z.object({
  status: z.literal('ok'),
  database: z.enum(['pglite', 'postgres']),
}).register(apiNames, { id: 'Health' });
export type HealthResponse = z.infer<typeof healthResponse>;

/**
 * GET /api/ready — for load balancers: 200 only while this process can serve calls, its database and (with
 * REDIS_URL) Redis answering; 503 otherwise, and while it shuts down.
 */
export const readyResponse = z.object({
  status: z.literal('ready'),
  database: z.enum(['pglite', 'postgres']),
  redis: z.enum(['ok', 'not configured']),
}).register(apiNames, { id: 'Ready' });
export type ReadyResponse = z.infer<typeof readyResponse>;

/** POST /api/dev/outbox/ — development only (no SMTP_URL, NODE_ENV not production): the latest mails, newest first. */
export const devOutboxResponse = z.array(
  z.object({
    to: z.string(),
    subject: z.string(),
    text: z.string(),
    /** ISO timestamp. */
    created: z.string(),
  }),
).register(apiNames, { id: 'DevOutbox' });
export type DevOutboxResponse = z.infer<typeof devOutboxResponse>;
