import { assign, setup, type EventObject } from 'xstate';
import type { ReviewQueue, ReviewedWithdrawal } from '../../../contracts/operator.ts';
import type { ReviewDecision } from '../../services/operator.ts';
import { readAgainWhen } from '../shared/liveRegions.ts';
import { writingReason } from '../shared/reasonDialog.ts';
import { refusalStatus, refusalText } from '../shared/refusal.ts';
import { unboundAction, unboundCallback, unboundPromise, unboundRule } from '../shared/unbound.ts';

export type ReviewQueueContext = {
  /** Waiting for a decision, oldest first, as the last read left them. */
  withdrawals: ReviewedWithdrawal[];
  /** WITHDRAWAL_REVIEW_USD as the server applies it, or null before the first read. */
  threshold: string | null;
  /** The withdrawal the dialog is about, while it is open. */
  chosen: number | null;
  decision: ReviewDecision | null;
  /** The written reason of a rejection. */
  reason: string;
  /** Why the decision was refused (the server's sentence), shown in the dialog. */
  error: string | null;
  /** Said above the queue: another operator decided the one chosen first (409), and the queue was read again. */
  notice: string | null;
  /** A decision made or refused here: the queue is read again once no read of it is on its way. */
  stale: boolean;
};

/** What `private-operators` hands over (reviewQueue.actors.ts). */
export type ReviewChannelEvent = { type: 'realtime.operators.subscribed' } | { type: 'realtime.reviews.changed' };

export type ReviewQueueEvent =
  | ReviewChannelEvent
  | { type: 'queue.retry' }
  | { type: 'review.approve'; id: number }
  | { type: 'review.reject'; id: number }
  | { type: 'reason.change'; value: string }
  | { type: 'decision.confirm' }
  | { type: 'dialog.dismiss' }
  | { type: 'notice.dismiss' };

/** What a second operator's decision is told, once the queue was read again. */
export const ALREADY_DECIDED = 'Another operator decided this withdrawal first; the queue was read again.';

const reading = { target: 'refreshing', reenter: true } as const;
const keptQueue = { type: 'keepQueue' as const, params: ({ event }: { event: { output: ReviewQueue } }) => ({ queue: event.output }) };
const choose = (decision: ReviewDecision, target: string) => ({
  guard: { type: 'isQueued' as const, params: ({ event }: { event: { id: number } }) => ({ id: event.id }) },
  target,
  actions: { type: 'choose' as const, params: ({ event }: { event: { id: number } }) => ({ id: event.id, decision }) },
});

/**
 * /operator/reviews, four eyes on a large withdrawal: the queue (live on `private-operators`), and each
 * decision: approve after a confirmation, or reject with a written reason. A decision another operator made
 * first (409) reads the queue again and says so.
 */
export const reviewQueueMachine = setup({
  types: { context: {} as ReviewQueueContext, events: {} as ReviewQueueEvent },
  actors: {
    loadQueue: unboundPromise<ReviewQueue>('loadQueue'),
    /** Answers the server's sentence. */
    decide: unboundPromise<string, { id: number; decision: ReviewDecision; reason: string }>('decide'),
    /** `private-operators`: `realtime.reviews.changed`, and `realtime.operators.subscribed` on each (re)join. */
    operatorsChannel: unboundCallback<EventObject>('operatorsChannel'),
  },
  actions: {
    keepQueue: assign((_, params: { queue: ReviewQueue }) => ({ withdrawals: params.queue.withdrawals, threshold: params.queue.threshold_usd })),
    choose: assign((_, params: { id: number; decision: ReviewDecision }) => ({
      chosen: params.id,
      decision: params.decision,
      reason: '',
      error: null,
      notice: null,
    })),
    setReason: assign((_, params: { value: string }) => ({ reason: params.value })),
    setError: assign((_, params: { error: unknown }) => ({ error: refusalText(params.error) })),
    clearChoice: assign({ chosen: null, decision: null, reason: '', error: null }),
    sayAlreadyDecided: assign({ notice: ALREADY_DECIDED }),
    clearNotice: assign({ notice: null }),
    markStale: assign({ stale: true }),
    markRead: assign({ stale: false }),
    /** "Withdrawal approved." / "… rejected." with the server's sentence (bound to the toaster). */
    notifyDecided: unboundAction<{ info: string }>('notifyDecided'),
  },
  guards: {
    isStale: ({ context }) => context.stale,
    isQueued: ({ context }, params: { id: number }) => context.withdrawals.some((withdrawal) => withdrawal.id === params.id),
    isApproval: ({ context }) => context.decision === 'approve',
    /** 409: decided already (by another operator, or twice by one). */
    isAlreadyDecided: (_, params: { error: unknown }) => refusalStatus(params.error) === 409,
    /** "Please write the reason" until it is (at most 1,000 characters). */
    isReasonWritten: unboundRule<{ reason: string }>('isReasonWritten'),
  },
}).createMachine({
  id: 'reviewQueue',
  description: 'Withdrawals waiting for a second look, oldest first, and each one’s approval or rejection.',
  context: { withdrawals: [], threshold: null, chosen: null, decision: null, reason: '', error: null, notice: null, stale: false },
  type: 'parallel',
  on: { 'notice.dismiss': { actions: 'clearNotice' } },
  states: {
    queue: {
      description: 'The withdrawals waiting, live on the operators’ channel.',
      invoke: { id: 'operatorsChannel', src: 'operatorsChannel', onError: { description: 'No live queue: it shows what the reads bring.' } },
      initial: 'loading',
      states: {
        loading: {
          tags: ['busy'],
          description: 'The first read: a spinner.',
          entry: 'markRead',
          invoke: { id: 'loadQueue', src: 'loadQueue', onDone: { target: 'ready', actions: keptQueue }, onError: { target: 'failed' } },
          on: {
            'realtime.operators.subscribed': {
              target: 'loading',
              reenter: true,
              description: 'Joined while the queue was on its way: read it again, so nothing queued before the join is missed.',
            },
            'realtime.reviews.changed': { target: 'loading', reenter: true },
          },
        },
        failed: {
          description: 'The first read failed: a message and "Try again".',
          on: { 'queue.retry': { target: 'loading' }, 'realtime.operators.subscribed': { target: 'loading' } },
        },
        ready: {
          description: 'The queue, or "Nothing waits for review".',
          ...readAgainWhen('isStale', 'A decision was made or refused here.', {
            'realtime.reviews.changed': 'A withdrawal joined or left the queue (by anyone).',
            'realtime.operators.subscribed': 'Joined again after a reconnect: read what was missed.',
          }),
        },
        refreshing: {
          description: 'Read again; the rows stay meanwhile, and stay if the read fails.',
          entry: 'markRead',
          invoke: { id: 'refreshQueue', src: 'loadQueue', onDone: { target: 'ready', actions: keptQueue }, onError: { target: 'ready' } },
          on: { 'realtime.reviews.changed': reading, 'realtime.operators.subscribed': reading },
        },
      },
    },
    decision: {
      description: 'One decision at a time: the dialog over the queue.',
      initial: 'idle',
      states: {
        idle: {
          description: 'Each row’s "Approve" and "Reject" enabled.',
          on: {
            'review.approve': choose('approve', 'approving'),
            'review.reject': choose('reject', 'rejecting'),
          },
        },
        approving: {
          tags: ['dialog'],
          description: 'Who, how much, to where: "Approve" sends it on to the chain.',
          on: { 'decision.confirm': { target: 'submitting' }, 'dialog.dismiss': { target: 'idle', actions: 'clearChoice' } },
        },
        rejecting: {
          tags: ['dialog'],
          description: 'The reason the trader reads; "Reject" stays disabled while it is blank.',
          on: writingReason({ change: 'reason.change', submit: 'decision.confirm' }, 'submitting', { target: 'idle', actions: 'clearChoice' }),
        },
        submitting: {
          tags: ['dialog', 'busy'],
          description: '"Please wait...": the dialog cannot be closed while the decision runs.',
          invoke: {
            id: 'decide',
            src: 'decide',
            input: ({ context }) => ({ id: context.chosen!, decision: context.decision!, reason: context.reason.trim() }),
            onDone: {
              target: 'idle',
              description: 'Decided: the toast, and the queue read again.',
              actions: [{ type: 'notifyDecided', params: ({ event }) => ({ info: event.output }) }, 'clearChoice', 'markStale'],
            },
            onError: [
              {
                guard: { type: 'isAlreadyDecided', params: ({ event }) => ({ error: event.error }) },
                target: 'idle',
                description: 'Decided first by someone else: the dialog closes, the queue is read again, and the page says so.',
                actions: ['clearChoice', 'sayAlreadyDecided', 'markStale'],
              },
              {
                guard: 'isApproval',
                target: 'approving',
                description: 'Refused: the server’s sentence in the dialog.',
                actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) },
              },
              { target: 'rejecting', actions: { type: 'setError', params: ({ event }) => ({ error: event.error }) } },
            ],
          },
        },
      },
    },
  },
});

export type ReviewQueueLogic = typeof reviewQueueMachine;
