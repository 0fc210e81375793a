import type { SnapshotFrom } from 'xstate';
import type { ChatMessage, DisputeOutcome } from '../../../contracts/index.ts';
import type { DisputeSummary } from '../../../contracts/moderation.ts';
import type { ModerationDeskEvent, moderationDeskMachine } from './moderationDesk.machine.ts';
import { waitedSince } from '../shared/waited.ts';
import { messageProblem, resolutionProblem } from './moderationDesk.rules.ts';

type DeskSnapshot = SnapshotFrom<typeof moderationDeskMachine>;

/** "Waiting 2 h 14 min" from when the dispute was raised to `now` (ms). */
export const waitingText = (disputedAt: string, now: number): string => `Waiting ${waitedSince(disputedAt, now)}`;

/** How much of the reason a list row shows before an ellipsis. */
export const REASON_PREVIEW_LENGTH = 90;
export const clipReason = (reason: string) =>
  reason.length > REASON_PREVIEW_LENGTH ? `${reason.slice(0, REASON_PREVIEW_LENGTH).trimEnd()}…` : reason;

// ---- The list -------------------------------------------------------------------------------------

export type DisputeRow = DisputeSummary & { waiting: string; reasonPreview: string };

export const selectDisputeRows = (snapshot: DeskSnapshot): DisputeRow[] =>
  snapshot.context.disputes.map((dispute) => ({
    ...dispute,
    waiting: waitingText(dispute.disputed_at, snapshot.context.now),
    reasonPreview: clipReason(dispute.reason),
  }));
/** loading: a spinner; failed: a message and "Try again"; empty: "No open disputes"; ready: the rows (also while read again). */
export const selectListView = (snapshot: DeskSnapshot): 'loading' | 'failed' | 'empty' | 'ready' => {
  if (snapshot.matches({ list: 'loading' })) return 'loading';
  if (snapshot.matches({ list: 'failed' })) return 'failed';
  return snapshot.context.disputes.length === 0 ? 'empty' : 'ready';
};
export const selectIsListRefreshing = (snapshot: DeskSnapshot) => snapshot.matches({ list: 'refreshing' });

// ---- The selected dispute -------------------------------------------------------------------------

export const selectSelectedChannel = (snapshot: DeskSnapshot) => snapshot.context.channel;
/** none: "Select a dispute"; loading: a spinner; failed: a message and "Try again"; open: the dispute. */
export const selectDetailView = (snapshot: DeskSnapshot): 'none' | 'loading' | 'failed' | 'open' =>
  snapshot.matches({ detail: 'open' })
    ? 'open'
    : snapshot.matches({ detail: 'loading' })
      ? 'loading'
      : snapshot.matches({ detail: 'failed' })
        ? 'failed'
        : 'none';
export const selectDetail = (snapshot: DeskSnapshot) => snapshot.context.detail;
/** The wait of the open dispute, on the desk's clock. */
export const selectDetailWaiting = (snapshot: DeskSnapshot) =>
  snapshot.context.detail ? waitingText(snapshot.context.detail.disputed_at, snapshot.context.now) : '';
/** The trade is no longer pending (settled here, by another moderator, or before): its outcome shows instead of the buttons. */
export const selectIsSettled = (snapshot: DeskSnapshot) => (snapshot.context.detail ? snapshot.context.detail.status !== 'pending' : false);

export type DeskMessageView = ChatMessage & { from: 'moderator' | 'system' | 'buyer' | 'seller' | 'other' };
/** Each message with who it is from as the desk shows it: the system's centred, the moderator's apart, the parties' by role. */
export const selectMessageViews = (snapshot: DeskSnapshot): DeskMessageView[] => {
  const detail = snapshot.context.detail;
  if (!detail) return [];
  return detail.messages.map((message) => ({
    ...message,
    from: message.from_moderator
      ? 'moderator'
      : message.sender === null
        ? 'system'
        : message.sender === detail.buyer
          ? 'buyer'
          : message.sender === detail.seller
            ? 'seller'
            : 'other',
  }));
};

export const selectDraft = (snapshot: DeskSnapshot) => snapshot.context.draft;
/** A message too long to send says so; a blank one just is not sent. */
export const selectDraftError = (snapshot: DeskSnapshot) =>
  snapshot.context.draft.trim() === '' ? undefined : messageProblem(snapshot.context.draft);
export const selectCanSend = (snapshot: DeskSnapshot) => snapshot.can({ type: 'message.send' });
export const selectIsSending = (snapshot: DeskSnapshot) => snapshot.matches({ detail: { open: { composer: 'sending' } } });

// ---- Settling ---------------------------------------------------------------------------------------

export type SettlementButton = { outcome: DisputeOutcome; label: string; event: ModerationDeskEvent; enabled: boolean };

/** "Release to buyer" and "Refund seller", each enabled while the chart takes it (a disputed trade, no dialog open). */
export const selectSettlementButtons = (snapshot: DeskSnapshot): SettlementButton[] =>
  (
    [
      { outcome: 'release', label: 'Release to buyer', event: { type: 'resolve.release' } },
      { outcome: 'refund', label: 'Refund seller', event: { type: 'resolve.refund' } },
    ] as const
  ).map((button) => ({ ...button, enabled: snapshot.can(button.event) }));

/** Which settlement the dialog asks about, while it is open. */
export const selectDialogOutcome = (snapshot: DeskSnapshot): DisputeOutcome | null =>
  snapshot.hasTag('open') ? snapshot.context.outcome : null;
export const selectResolution = (snapshot: DeskSnapshot) => snapshot.context.reason;
/** "Please write the resolution" while it is empty. */
export const selectResolutionError = (snapshot: DeskSnapshot) => resolutionProblem(snapshot.context.reason);
export const selectCanConfirm = (snapshot: DeskSnapshot) => snapshot.can({ type: 'resolution.confirm' });
/** The settlement is on its way: "Please wait...", and the dialog cannot be closed. */
export const selectIsResolving = (snapshot: DeskSnapshot) => snapshot.matches({ detail: { open: { settlement: 'submitting' } } });
