import type { FastifyInstance } from 'fastify';
import { emptyBody } from '../../../contracts/common.ts';
import { overview } from '../../../contracts/user.ts';
import { parseBody } from '../infra/http/parse-body.ts';
import { ok } from '../infra/http/reply.ts';
import { signedIn } from './sessions.plugin.ts';

/** POST /api/user/overview/ (signed in) — the dashboard figures. */
export default async function overviewRoute(app: FastifyInstance) {
  app.post('/user/overview/', async (request) => {
    parseBody(emptyBody, request.body);
    const { userId } = signedIn(request);
    return ok(overview, await app.overview.forUser(userId));
  });
}
