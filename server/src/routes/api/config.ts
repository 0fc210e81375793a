import type { FastifyInstance } from 'fastify';
import { webAppConfig } from '../../../../contracts/chat.ts';
import { ok } from '../../http/reply.ts';
import { browserRealtimeConfig } from '../../realtime/settings.ts';

/** The built-in Beams-compatible device API's instance (its own server decides; any id works). */
const BUILT_IN_PUSH_INSTANCE = 'peerex';

/**
 * GET /api/config (public): what the web app needs at boot (contract.md "Browser configuration"), so one
 * build serves the built-in servers and hosted Pusher alike. The push base is this origin's `/push`, where
 * the Beams-compatible device API lives (the notifications issue builds it).
 */
export default async function configRoute(app: FastifyInstance) {
  app.get('/config', async (request) =>
    ok(webAppConfig, {
      realtime: browserRealtimeConfig(app.realtime.settings),
      push: { instance_id: BUILT_IN_PUSH_INSTANCE, endpoint: `${request.protocol}://${request.host}/push` },
    }),
  );
}
