import { emptyBody } from '../../../contracts/common.ts';
import { devOutboxResponse } from '../../../contracts/system.ts';
import { defineCall, envelope } from './http/call.ts';
import { ok } from './http/reply.ts';

/**
 * POST /api/dev/outbox/: the mails the server would have sent, for development without SMTP. Served only when
 * SMTP_URL is unset, as a development helper (app.ts `devHelpersOf`), which answers only requests made on this machine.
 */
export default defineCall({
  method: 'post',
  path: '/api/dev/outbox/',
  tag: 'Development helpers',
  summary: 'Mail outbox',
  description:
    'The mails the server would have sent, newest first, at most 50: read signup and reset codes without a mail server. Exists only when `SMTP_URL` is unset, `NODE_ENV` is not production and `HOST` is a loopback address; answers only requests from this machine without proxy headers (else 404 "There is no such API call.").',
  access: 'public',
  developmentOnly: true,
  servedWhen: (app) => !app.config.smtpUrl && app.mailer.outbox !== undefined,
  request: { schema: emptyBody, optional: true },
  answer: envelope(devOutboxResponse),
  refusals: [404],
  handle: async ({ app }) => ok(devOutboxResponse, app.mailer.outbox?.recent() ?? []),
});
