import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import { disputeDetail, disputeList, moderationMessageResponse, moderationRequest, resolveResponse } from '../../../contracts/moderation.ts';
import { parseBody } from '../infra/http/parse-body.ts';
import { ok } from '../infra/http/reply.ts';
import { signedIn } from '../accounts/sessions.plugin.ts';
import { refuse } from '../sentences.ts';

/**
 * POST /api/market/moderation/ (signed in, moderators only; docs/api.md "Moderation"): the dispute desk's `list`,
 * `get`, `message` and `resolve`. Anyone else is refused (401 without a session, 403 for a trader) before the body
 * is even read, so a trader learns nothing here, not even which bodies would be valid or whether theirs is JSON.
 */
export default async function moderationRoute(app: FastifyInstance) {
  // onRequest runs before Fastify reads and parses the body; the scope's session hook (a preHandler) runs later.
  const moderatorsOnly: onRequestAsyncHookHandler = async function (request, reply) {
    await app.requireSession.call(app, request, reply);
    // The role as stored now (the session lookup reads it on every call): one taken back counts at once.
    if (signedIn(request).role !== 'moderator') throw refuse.moderatorsOnly();
  };

  app.post('/market/moderation/', { onRequest: moderatorsOnly }, async (request, reply) => {
    const session = signedIn(request);
    const body = parseBody(moderationRequest, request.body);
    const moderator = { id: session.userId };

    switch (body.type) {
      case 'list':
        return ok(disputeList, await app.moderation.list());
      case 'get':
        return ok(disputeDetail, await app.moderation.get(body.channel));
      case 'message':
        // The same limit as a trader's chat messages, keyed by the moderator's account.
        await app.chatMessageRateLimit.call(app, request, reply);
        return ok(moderationMessageResponse, await app.moderation.message(moderator, body.channel, body.text));
      case 'resolve':
        return ok(resolveResponse, await app.moderation.resolve(moderator, body.channel, body.outcome, body.resolution));
    }
  });
}
