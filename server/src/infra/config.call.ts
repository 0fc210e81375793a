import { webAppConfig } from '../../../contracts/chat.ts';
import { defineCall, envelope } from './http/call.ts';
import { ok } from './http/reply.ts';
import { PUSH_BASE_PATH } from '../push/instance.ts';
import { browserRealtimeConfig } from './realtime/settings.ts';

/**
 * GET /api/config (public): what the web app needs at boot (docs/api.md "Realtime"), so one build serves the
 * built-in servers and hosted Pusher alike. The push base is PUBLIC_URL's `/push`, where the Beams-compatible
 * device API lives, or null with hosted Beams (the SDK's own default base). Never the request's Host or
 * X-Forwarded-Host: whoever writes those would choose where a browser registers its push subscription.
 */
export default defineCall({
  method: 'get',
  path: '/api/config',
  tag: 'System',
  summary: 'Browser configuration',
  description:
    'What the web app needs at boot, so one build serves every deployment. `ws_host`/`ws_port` null mean this page\'s origin (the built-in server); `cluster` is set only for hosted Pusher. `push.endpoint` is `PUBLIC_URL`\'s `/push`, the built-in Beams-compatible device API (null with hosted Beams); never taken from the request\'s Host or X-Forwarded-Host. `flow_atlas` says who may open `/flows` and whether pages post their charts\' live states.',
  access: 'public',
  answer: envelope(webAppConfig),
  handle: async ({ app }) =>
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
});
