import type { FastifyInstance } from 'fastify';
import { emptyBody } from '../../../contracts/common.ts';
import { devOutboxResponse } from '../../../contracts/system.ts';
import { parseBody } from './http/parse-body.ts';
import { ok } from './http/reply.ts';

/**
 * POST /api/dev/outbox/ — the mails the server would have sent, for development without SMTP.
 * Registered only when SMTP_URL is unset, in the development helpers' scope (app.ts `devHelpersOf`), which
 * answers only requests made on this machine.
 */
export default async function devOutboxRoute(app: FastifyInstance) {
  app.post('/dev/outbox/', async (request) => {
    parseBody(emptyBody, request.body);
    return ok(devOutboxResponse, app.mailer.outbox?.recent() ?? []);
  });
}
