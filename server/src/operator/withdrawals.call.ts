import { reviewQueue, withdrawalsReviewRequest } from '../../../contracts/operator.ts';
import { messageResponse } from '../../../contracts/security.ts';
import { byType, defineCall } from '../infra/http/call.ts';
import { signedInStaff } from '../accounts/sessions.plugin.ts';

/**
 * POST /api/operator/withdrawals/ (operators only; docs/api.md "Operator: withdrawal review"): the queue of
 * withdrawals waiting for review and an operator's decision on one. Anyone else is refused (401 without a
 * session, 403 for a trader or a moderator) before the body is read (`access: 'operator'`).
 */
export default defineCall({
  method: 'post',
  path: '/api/operator/withdrawals/',
  tag: 'Operator console',
  summary: 'Withdrawal review',
  description:
    'Operators only: any other caller gets 403 "Only operators can use the operator console." before the body is read. `queue` → the withdrawals waiting for review, oldest first, and `threshold_usd` (WITHDRAWAL_REVIEW_USD). `approve` → a sentence; the withdrawal goes to the chain. `reject` (with a reason) → a sentence; its amount returns to the trader\'s available balance. A decision is final: 409 "This withdrawal has already been decided." once one was taken, by this operator or another; 404 for an unknown id; 409 for a withdrawal that never waited for review.',
  access: 'operator',
  request: withdrawalsReviewRequest,
  answer: byType({ queue: reviewQueue, approve: messageResponse, reject: messageResponse }),
  refusals: [403, 404, 409],
  handlers: ({ app, request }) => {
    const reviewer = signedInStaff(request);
    return {
      queue: () => app.withdrawalReview.queue(),
      approve: (body) => app.withdrawalReview.approve(reviewer, body.id),
      reject: (body) => app.withdrawalReview.reject(reviewer, body.id, body.reason),
    };
  },
});
