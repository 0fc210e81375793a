import { createActor, type AnyMachineSnapshot } from 'xstate';
import type { ReviewQueue } from '../../contracts/operator.ts';
import { bindReviewQueue } from '../../src/machines/reviewQueue/reviewQueue.actors.ts';
import { ALREADY_DECIDED, type ReviewQueueContext } from '../../src/machines/reviewQueue/reviewQueue.machine.ts';
import {
  selectCanConfirm,
  selectCanDecide,
  selectDecisionError,
  selectDialog,
  selectNotice,
  selectQueueView,
  selectWithdrawals,
} from '../../src/machines/reviewQueue/reviewQueue.selectors.ts';
import { Coverage, describeModel, replay, scriptedActors, walk, type ModelEvent, type ModelPath } from '../support/machines.ts';
import { operatorDeps, refusal, reviewQueueOf, reviewedWithdrawal } from '../support/operator.ts';

/**
 * The review queue walked as it is: the queue read (again) as the channel says, and the decision on its one
 * withdrawal: approved after a confirmation, rejected with a reason, refused (the dialog says why), or decided
 * first by another operator (409: the queue is read again and the page says so). A read again answers the queue
 * with the withdrawal still waiting, or without it.
 */
const large = reviewedWithdrawal(7);
const waiting = reviewQueueOf(large);
const empty = reviewQueueOf();
const REFUSED = 'Please write the reason';
const on = (snapshot: AnyMachineSnapshot, value: object) => snapshot.matches(value as never);

function events(snapshot: AnyMachineSnapshot): ModelEvent[] {
  const context = snapshot.context as ReviewQueueContext;
  const list: ModelEvent[] = [];
  const submitting = on(snapshot, { decision: 'submitting' });
  if (on(snapshot, { queue: 'loading' })) {
    list.push(
      { type: 'xstate.done.actor.loadQueue', output: waiting },
      { type: 'xstate.error.actor.loadQueue', error: refusal(500, 'Internet server error') },
      { type: 'realtime.operators.subscribed' },
      { type: 'realtime.reviews.changed' },
    );
  }
  if (on(snapshot, { queue: 'failed' })) list.push({ type: 'queue.retry' }, { type: 'realtime.operators.subscribed' });
  if (on(snapshot, { queue: 'refreshing' })) {
    list.push(
      { type: 'xstate.done.actor.refreshQueue', output: waiting },
      { type: 'xstate.done.actor.refreshQueue', output: empty },
      { type: 'xstate.error.actor.refreshQueue', error: refusal(500, 'Internet server error') },
    );
    if (!submitting) list.push({ type: 'realtime.reviews.changed' }, { type: 'realtime.operators.subscribed' });
  }
  if (on(snapshot, { queue: 'ready' }) && !submitting) {
    list.push({ type: 'realtime.reviews.changed' }, { type: 'realtime.operators.subscribed' });
    if (snapshot.children.operatorsChannel) list.push({ type: 'xstate.error.actor.operatorsChannel', error: new Error('refused') });
  }
  if (context.notice) list.push({ type: 'notice.dismiss' });
  if (!on(snapshot, { queue: 'ready' }) && !submitting) return list;
  if (on(snapshot, { decision: 'idle' })) list.push({ type: 'review.approve', id: large.id }, { type: 'review.reject', id: large.id });
  if (on(snapshot, { decision: 'approving' })) list.push({ type: 'decision.confirm' }, { type: 'dialog.dismiss' });
  if (on(snapshot, { decision: 'rejecting' })) {
    list.push({ type: 'reason.change', value: context.reason === '' ? 'Known mixer' : '' }, { type: 'decision.confirm' }, { type: 'dialog.dismiss' });
  }
  if (submitting) {
    list.push(
      { type: 'xstate.done.actor.decide', output: 'Withdrawal approved.' },
      { type: 'xstate.error.actor.decide', error: refusal(409, 'This withdrawal was already decided.') },
      { type: 'xstate.error.actor.decide', error: refusal(400, REFUSED) },
    );
  }
  return list;
}

const walked = bindReviewQueue(operatorDeps().deps);
const model = walk(walked, { events });

async function run(path: ModelPath, coverage?: Coverage) {
  const fakes = scriptedActors(['loadQueue', 'decide', 'operatorsChannel'] as const);
  const harness = operatorDeps();
  const actor = createActor(bindReviewQueue(harness.deps).provide({ actors: fakes.actors as never }), { inspect: coverage?.inspect }).start();

  // The oracle: what the operator sees, from the path's events.
  let queue: ReviewQueue | null = null;
  let failed = false;
  let dialog: { decision: 'approve' | 'reject'; submitting: boolean } | null = null;
  let reason = '';
  let error: string | null = null;
  let notice: string | null = null;
  let decided = 0;
  await replay(actor, path, fakes, (snapshot, { event }) => {
    switch (event.type) {
      case 'xstate.done.actor.loadQueue':
      case 'xstate.done.actor.refreshQueue':
        queue = event.output as ReviewQueue;
        break;
      case 'xstate.error.actor.loadQueue':
        failed = true;
        break;
      case 'queue.retry':
      case 'realtime.operators.subscribed':
        if (queue === null) failed = false;
        break;
      case 'review.approve':
      case 'review.reject':
        if (dialog === null && (queue as ReviewQueue | null)?.withdrawals.some((row) => row.id === event.id)) {
          dialog = { decision: event.type === 'review.approve' ? 'approve' : 'reject', submitting: false };
          reason = '';
          error = null;
          notice = null;
        }
        break;
      case 'reason.change':
        reason = String(event.value);
        break;
      case 'decision.confirm':
        if (dialog && (dialog.decision === 'approve' || reason.trim() !== '')) {
          dialog = { ...dialog, submitting: true };
          expect(fakes.calls.at(-1)?.input, 'the decision asked for').toEqual({ id: large.id, decision: dialog.decision, reason: reason.trim() });
        }
        break;
      case 'dialog.dismiss':
        dialog = null;
        reason = '';
        error = null;
        break;
      case 'notice.dismiss':
        notice = null;
        break;
      case 'xstate.done.actor.decide':
        decided += 1;
        dialog = null;
        reason = '';
        expect(fakes.isRunning('refreshQueue') || (snapshot.context as ReviewQueueContext).stale, 'read again after a decision').toBe(true);
        break;
      case 'xstate.error.actor.decide':
        if ((event.error as { status: number }).status === 409) {
          dialog = null;
          reason = '';
          notice = ALREADY_DECIDED;
          expect(fakes.isRunning('refreshQueue') || (snapshot.context as ReviewQueueContext).stale, 'read again after a 409').toBe(true);
        } else {
          dialog = dialog && { ...dialog, submitting: false };
          error = REFUSED;
        }
        break;
    }
    const s = snapshot as never;
    const shown = queue as ReviewQueue | null;
    expect(selectQueueView(s), 'view').toBe(
      fakes.isRunning('loadQueue') ? 'loading' : failed && !shown ? 'failed' : shown && shown.withdrawals.length > 0 ? 'ready' : 'empty',
    );
    expect(selectWithdrawals(s), 'rows').toEqual(shown?.withdrawals ?? []);
    expect(selectDialog(s)?.decision ?? null, 'dialog').toBe(dialog?.decision ?? null);
    expect(selectCanDecide(s), 'Approve/Reject').toBe(dialog === null);
    expect(selectDecisionError(s), 'refusal in the dialog').toBe(dialog ? error : null);
    expect(selectCanConfirm(s), 'confirm').toBe(dialog !== null && !dialog.submitting && (dialog.decision === 'approve' || reason.trim() !== ''));
    expect(selectNotice(s), 'notice').toBe(notice);
    expect(fakes.isRunning('decide'), 'Please wait...').toBe(dialog?.submitting ?? false);
    expect(harness.notices, 'toasts').toHaveLength(decided);
  });
  actor.stop();
}

describeModel('review queue', walked, model, 30, run);
