import type { FastifyInstance } from 'fastify';
import { webAppConfig } from '../../../contracts/chat.ts';
import { ok } from './http/reply.ts';
import { PUSH_BASE_PATH } from '../push/instance.ts';
import { browserRealtimeConfig } from './realtime/settings.ts';

/**
 * GET /api/config (public): what the web app needs at boot (docs/api.md "Realtime"), so one
 * build serves the built-in servers and hosted Pusher alike. The push base is PUBLIC_URL's `/push`, where the
 * Beams-compatible device API lives, or null with hosted Beams (the SDK's own default base). Never the request's
 * Host or X-Forwarded-Host: whoever writes those would choose where a browser registers its push subscription.
 */
export default async function configRoute(app: FastifyInstance) {
  app.get('/config', async () =>
    ok(webAppConfig, {
      realtime: browserRealtimeConfig(app.realtime.settings),
      push: {
        instance_id: app.push.instanceId,
        endpoint: app.push.hosted ? null : `${app.config.publicUrl}${PUSH_BASE_PATH}`,
      },
      flow_atlas: {
        open_to: app.config.nodeEnv !== 'production' || app.config.flowAtlas ? 'everyone' : 'moderators',
        // Live mode has every page post its charts' states to the atlas tab: a development aid, not for traders.
        live: app.config.nodeEnv !== 'production',
      },
    }),
  );
}
