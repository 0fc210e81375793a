import { operatorOverview, overviewRequest } from '../../../contracts/operator.ts';
import { defineCall, envelope } from '../infra/http/call.ts';
import { ok } from '../infra/http/reply.ts';

/**
 * POST /api/operator/overview/ (operators only; docs/api.md "Operator: overview"): the platform at a glance
 * (operator/overview.ts). Refused to anyone else before the body is read (`access: 'operator'`).
 */
export default defineCall({
  method: 'post',
  path: '/api/operator/overview/',
  tag: 'Operator console',
  summary: 'Overview',
  description:
    'Operators only: any other caller gets 403 "Only operators can use the operator console." before the body is read. `overview` → traders (total, active in 24 hours and 7 days, suspended), trades (open and disputed now; opened, completed, cancelled and disputed since midnight UTC and in 7 days), disputes waiting and the oldest, fee income per coin (today, 7 days, all time, exact), per network the watcher\'s last block, the head, the lag, its last round, open chain incidents and what the ledger owes against what the chain side holds (read every 60 seconds: `read_at`), the web-push queue and the withdrawals waiting for review. Live on `private-operators` (`overview`).',
  access: 'operator',
  request: overviewRequest,
  answer: envelope(operatorOverview),
  handle: async ({ app }) => ok(operatorOverview, await app.operatorOverview.overview()),
});
