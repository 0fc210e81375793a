import type { SnapshotFrom } from 'xstate';
import type { reviewQueueMachine } from './reviewQueue.machine.ts';
import { reasonProblem } from '../traderDossier/traderDossier.rules.ts';

type QueueSnapshot = SnapshotFrom<typeof reviewQueueMachine>;

/** loading: a spinner; failed: a message and "Try again"; empty: "Nothing waits for review"; ready: the rows (also while read again). */
export const selectQueueView = (snapshot: QueueSnapshot): 'loading' | 'failed' | 'empty' | 'ready' => {
  if (snapshot.matches({ queue: 'loading' })) return 'loading';
  if (snapshot.matches({ queue: 'failed' })) return 'failed';
  return snapshot.context.withdrawals.length === 0 ? 'empty' : 'ready';
};
export const selectWithdrawals = (snapshot: QueueSnapshot) => snapshot.context.withdrawals;
export const selectThreshold = (snapshot: QueueSnapshot) => snapshot.context.threshold;
export const selectIsRefreshing = (snapshot: QueueSnapshot) => snapshot.matches({ queue: 'refreshing' });
/** "Another operator decided this withdrawal first…", until dismissed or another decision is begun. */
export const selectNotice = (snapshot: QueueSnapshot) => snapshot.context.notice;
/** The row's two buttons are enabled while no dialog is open. */
export const selectCanDecide = (snapshot: QueueSnapshot) => snapshot.matches({ decision: 'idle' });

/** The dialog: which decision, about which withdrawal, or null while it is closed. */
export const selectDialog = (snapshot: QueueSnapshot) => {
  const { chosen, decision } = snapshot.context;
  if (!snapshot.hasTag('dialog') || chosen === null || decision === null) return null;
  const withdrawal = snapshot.context.withdrawals.find((row) => row.id === chosen) ?? null;
  return { decision, withdrawal, id: chosen };
};
export const selectReason = (snapshot: QueueSnapshot) => snapshot.context.reason;
/** "Please write the reason" while it is blank. */
export const selectReasonError = (snapshot: QueueSnapshot) => reasonProblem(snapshot.context.reason);
/** The server's refusal of this decision, shown in the dialog. */
export const selectDecisionError = (snapshot: QueueSnapshot) => snapshot.context.error;
export const selectCanConfirm = (snapshot: QueueSnapshot) => snapshot.can({ type: 'decision.confirm' });
export const selectIsSubmitting = (snapshot: QueueSnapshot) => snapshot.matches({ decision: 'submitting' });
