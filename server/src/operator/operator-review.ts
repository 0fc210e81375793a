import type { ReviewQueue } from '../../../contracts/operator.ts';
import { auditRepository, type AuditActor } from '../audit/audit.repository.ts';
import type { Db, Queryable } from '../infra/db/db.ts';
import { transactionWithRetry } from '../infra/db/retry.ts';
import { postEntry } from '../ledger/ledger.ts';
import { FIAT_PLACES, Money, fixed } from '../ledger/money.ts';
import { notify, type Notified } from '../notifications/notify.ts';
import { walletTexts } from '../notifications/texts.ts';
import type { Refusal } from '../refusals.ts';
import { refuse, sentences } from '../sentences.ts';
import { withdrawalReferences } from '../wallets/withdrawals.ts';
import { reviewRepository, type ReviewRow } from './review.repository.ts';

/**
 * The most withdrawals one queue answers, oldest first: they are decided in that order, and each is worth
 * WITHDRAWAL_REVIEW_USD or more, so a longer queue is a platform in trouble rather than a page to scroll.
 */
export const REVIEW_QUEUE_LIMIT = 200;

export interface OperatorReviewDeps {
  db: Db;
  now: () => Date;
  /** WITHDRAWAL_REVIEW_USD, as the queue shows it. */
  thresholdUsd: string;
  /** After a decision committed: the trader's notification, live and to the push worker (never throws). */
  announce: (rows: readonly Notified[]) => Promise<void>;
  /** After an approval committed: the chain watcher broadcasts it soon (ChainService.kick). */
  dispatched: () => void;
  /** After a decision committed: `reviews` on the operators' channel, so every console reads its queue again. */
  queueChanged: () => void;
  /** After a decision committed: `wallet` on the trader's channel (its history row's status, and a refund's balance). */
  walletChanged: (userIds: readonly string[]) => Promise<void>;
}

/** An operator deciding: a staff member's account, never the command line. */
export type Reviewer = Extract<AuditActor, { id: string }>;

type Decision = { kind: 'approve' } | { kind: 'reject'; reason: string };

/** What a withdrawal was before its decision, as the audit log keeps it. */
const auditedBefore = (row: ReviewRow) => ({
  status: 'review',
  trader: row.username,
  ticker: row.ticker,
  network: row.network,
  amount: fixed(row.amount_crypto, row.decimal_places),
  amount_usd: row.amount_usd,
  recipient: row.address,
});

/**
 * Withdrawal review, four eyes (docs/operators.md "Withdrawal review"; POST /api/operator/withdrawals/): the queue
 * of external withdrawals at or above WITHDRAWAL_REVIEW_USD, and an operator's decision on one. Approved, it turns
 * `pending` and the chain watcher sends it as any other; rejected, it turns `cancelled` ('rejected') and its amount
 * goes back from `withdrawing` to the trader's available (`withdrawal:<id>:refund`, the entry a refused broadcast
 * posts). A decision is final and applies once: its status change is a compare-and-set in one transaction with
 * the refund, the audit row and the trader's notification.
 */
export function operatorReview(deps: OperatorReviewDeps) {
  const { db } = deps;

  /** Why a decision found no withdrawal in review: none by that id, decided already, or never in review. */
  async function refusalFor(q: Queryable, id: number): Promise<Refusal> {
    const state = await reviewRepository(q).withdrawalState(id);
    if (!state) return refuse.reviewWithdrawalNotFound();
    return state.decided ? refuse.reviewAlreadyDecided() : refuse.reviewNotWaiting();
  }

  async function decide(reviewer: Reviewer, id: number, decision: Decision): Promise<void> {
    const outcome = await transactionWithRetry(db, async (tx): Promise<{ trader: string; notified: Notified[] } | { refusal: Refusal }> => {
      const at = deps.now();
      const repository = reviewRepository(tx);
      // First, and the compare-and-set: of two decisions, the second waits here and then finds nothing in review.
      const row =
        decision.kind === 'approve' ? await repository.approve(id, reviewer.id, at) : await repository.reject(id, reviewer.id, at, decision.reason);
      if (!row) return { refusal: await refusalFor(tx, id) };
      const amount = fixed(row.amount_crypto, row.decimal_places);
      if (decision.kind === 'reject') {
        await postEntry(tx, {
          reference: withdrawalReferences.refund(row.id),
          at,
          postings: [
            { account: { kind: 'withdrawing', userId: row.user_id, coinId: row.coin_id }, amount: new Money(row.amount_crypto).neg() },
            { account: { kind: 'available', userId: row.user_id, coinId: row.coin_id }, amount: row.amount_crypto },
          ],
        });
      }
      await auditRepository(tx).record({
        actor: reviewer,
        action: decision.kind === 'approve' ? 'withdrawal_approved' : 'withdrawal_rejected',
        target: row.id,
        reason: decision.kind === 'reject' ? decision.reason : null,
        before: auditedBefore(row),
        after: decision.kind === 'approve' ? { status: 'pending' } : { status: 'cancelled', cancel_reason: 'rejected' },
        at,
      });
      const told =
        decision.kind === 'approve'
          ? walletTexts.withdrawalApproved(row.user_id, amount, row.ticker, row.network, row.address)
          : walletTexts.withdrawalRejected(row.user_id, amount, row.ticker, row.network, decision.reason);
      return { trader: row.user_id, notified: await notify(tx, [told], at) };
    });
    if ('refusal' in outcome) throw outcome.refusal;
    await deps.announce(outcome.notified);
    await deps.walletChanged([outcome.trader]);
    deps.queueChanged();
    if (decision.kind === 'approve') deps.dispatched();
  }

  return {
    /** The withdrawals waiting for a decision, oldest first (at most REVIEW_QUEUE_LIMIT), and the threshold. */
    async queue(): Promise<ReviewQueue> {
      const rows = await reviewRepository(db).queue(REVIEW_QUEUE_LIMIT);
      return {
        threshold_usd: deps.thresholdUsd,
        withdrawals: rows.map((row) => ({
          id: Number(row.id),
          username: row.username,
          ticker: row.ticker,
          decimal_places: row.decimal_places,
          network: row.network,
          amount: fixed(row.amount_crypto, row.decimal_places),
          amount_usd: fixed(row.amount_usd, FIAT_PLACES),
          fee: fixed(row.fee_crypto, row.decimal_places),
          recipient: row.address,
          created: row.created_at.toISOString(),
        })),
      };
    },

    /** Approves a withdrawal in review: it goes to the chain. Answers the sentence the console shows. */
    async approve(reviewer: Reviewer, id: number): Promise<string> {
      await decide(reviewer, id, { kind: 'approve' });
      return sentences.withdrawalApproved;
    },

    /** Rejects a withdrawal in review with the operator's reason: its amount goes back to the trader's available. */
    async reject(reviewer: Reviewer, id: number, reason: string): Promise<string> {
      await decide(reviewer, id, { kind: 'reject', reason });
      return sentences.withdrawalRejected;
    },
  };
}
export type OperatorReview = ReturnType<typeof operatorReview>;
