import { traderDossier, traderSearchResult, tradersRequest } from '../../../contracts/operator.ts';
import { messageResponse } from '../../../contracts/security.ts';
import { byType, defineCall } from '../infra/http/call.ts';
import { signedInStaff } from '../accounts/sessions.plugin.ts';

/**
 * POST /api/operator/traders/ (operators only; docs/api.md "Operator: traders", docs/operators.md "Traders and
 * suspension"): the trader search, one trader's page, notes, and suspend, reinstate, force a password reset, end
 * their sessions. Anyone else is refused (401 without a session, 403 for a trader or a moderator) before the body is
 * read.
 */
export default defineCall({
  method: 'post',
  path: '/api/operator/traders/',
  tag: 'Operator console',
  summary: 'Traders: search, page, notes, suspension',
  description:
    'Operators only: any other caller gets 403 "Only operators can use the operator console." before the body is read. ' +
    '`search` → `{traders, paginator}`: part of a username or email, any case, 20 a page, newest first. ' +
    '`get` → the trader\'s page (balances, newest 50 trades, newest 20 sign-ins, live sessions, bound push devices, notes). ' +
    '`note`, `suspend`, `reinstate`, `force_password_reset`, `end_sessions` → a sentence; each is written in the audit log. ' +
    '404 "There is no trader by that name." for an unknown username; 409 for a staff account (suspend, force a reset, end ' +
    'sessions), a trader already suspended (suspend) or not suspended (reinstate).',
  access: 'operator',
  request: tradersRequest,
  answer: byType({
    search: traderSearchResult,
    get: traderDossier,
    note: messageResponse,
    suspend: messageResponse,
    reinstate: messageResponse,
    force_password_reset: messageResponse,
    end_sessions: messageResponse,
  }),
  refusals: [403, 404, 409],
  // As a moderator's chat messages: the notes an operator's account writes, paced.
  rateLimit: { types: { note: 'chatMessage' } },
  handlers: ({ app, request }) => {
    const operator = signedInStaff(request);
    const traders = app.operatorTraders;
    return {
      search: (body) => traders.search(body.query, body.page),
      get: (body) => traders.dossier(body.username),
      note: (body) => traders.note(operator, body.username, body.text),
      suspend: (body) => traders.suspend(operator, body.username, body.reason),
      reinstate: (body) => traders.reinstate(operator, body.username, body.reason),
      force_password_reset: (body) => traders.forcePasswordReset(operator, body.username, body.reason),
      end_sessions: (body) => traders.endSessions(operator, body.username, body.reason),
    };
  },
});
