import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { ChatMessage, Conversation, DisputeResolution, TradeAction, TradeFacts, TradeRole, TradeSummary } from '../../../contracts/index.ts';
import type { TradeStage } from '../../../domain/tradeLifecycle/tradeLifecycle.ts';
import type { tradeChatMachine } from './tradeChat.machine.ts';
import { actionsFor, isOpenTrade, messageProblem, payerAccountProblem, ratingProblem, reasonProblem, roleOf, stageOf } from './tradeChat.rules.ts';
import type { OneClickAction, TradeConversationEvent, tradeConversationMachine } from './tradeConversation.machine.ts';
import type { tradeRatingMachine } from './tradeRating.machine.ts';
import { leftUntil, waitedSince } from '../shared/waited.ts';

type TradeChatSnapshot = SnapshotFrom<typeof tradeChatMachine>;
type ConversationSnapshot = SnapshotFrom<typeof tradeConversationMachine>;
export type ConversationRef = ActorRefFrom<typeof tradeConversationMachine>;
type RatingSnapshot = SnapshotFrom<typeof tradeRatingMachine>;
export type RatingRef = ActorRefFrom<typeof tradeRatingMachine>;

/** The list shows the last message cut at 35 characters, plus an ellipsis: a preview, not the message. */
export const PREVIEW_LENGTH = 35;
export const previewOf = (text: string) => (text.length > PREVIEW_LENGTH ? `${text.slice(0, PREVIEW_LENGTH).trimEnd()}…` : text);
/** The partner's avatar: the upper-case first letter of their name. */
export const initialOf = (name: string) => name.charAt(0).toUpperCase();

/** Where a trade stands, in words, by the lifecycle chart's state: what tells several trades with one partner apart. */
const STAGE_WORDS: Record<TradeStage, string> = {
  awaitingPayment: 'Awaiting payment',
  paid: 'Paid',
  disputed: 'In dispute',
  completed: 'Completed',
  cancelled: 'Cancelled',
};
export const stageWordsOf = (facts: TradeFacts) => STAGE_WORDS[stageOf(facts)];
/** The unread badge's words for a screen reader: "1 unread message", "3 unread messages". */
export const unreadLabelOf = (count: number) => `${count} unread message${count === 1 ? '' : 's'}`;

// ---- The screen: list, connection, selection -----------------------------------------------------

export const selectSearch = (snapshot: TradeChatSnapshot) => snapshot.context.search;
/** Everything the list holds, whatever the filter. */
export const selectConversations = (snapshot: TradeChatSnapshot) => snapshot.context.conversations;
/** "All" or "Open": which the list shows. */
export const selectFilter = (snapshot: TradeChatSnapshot) => snapshot.context.filter;
/** What the list shows: every conversation, or with "Open" only the trades the lifecycle chart has not finished. */
export const selectVisibleConversations = (snapshot: TradeChatSnapshot): Conversation[] =>
  snapshot.context.filter === 'open' ? snapshot.context.conversations.filter(isOpenTrade) : snapshot.context.conversations;
/** "No open trades." when the filter hides every conversation the list holds. */
export const selectIsFilteredEmpty = (snapshot: TradeChatSnapshot) =>
  snapshot.context.conversations.length > 0 && selectVisibleConversations(snapshot).length === 0;
export const selectSelectedChannel = (snapshot: TradeChatSnapshot) => snapshot.context.channel;
export const selectIsListLoading = (snapshot: TradeChatSnapshot) => snapshot.hasTag('busy');
/** "No conversations yet" once a load found none (not while the first load runs). */
export const selectIsListEmpty = (snapshot: TradeChatSnapshot) => snapshot.matches({ list: 'empty' });
/** none: "Select a conversation"; waiting: a spinner; open: the conversation. */
export const selectSelection = (snapshot: TradeChatSnapshot): 'none' | 'waiting' | 'open' =>
  snapshot.matches({ selection: 'open' }) ? 'open' : snapshot.matches({ selection: 'waiting' }) ? 'waiting' : 'none';
/** The banner ("Reconnecting…") while live updates cannot reach the page. */
export const selectIsOffline = (snapshot: TradeChatSnapshot) => snapshot.matches({ connection: 'offline' });
/** The open conversation's own chart, while one is open. */
export const selectConversationRef = (snapshot: TradeChatSnapshot) => snapshot.children.conversation as ConversationRef | undefined;

// ---- The open conversation -------------------------------------------------------------------------

export const selectConversation = (snapshot: ConversationSnapshot) => snapshot.context.conversation;
export const selectUsername = (snapshot: ConversationSnapshot) => snapshot.context.username;
export const selectMessages = (snapshot: ConversationSnapshot) => snapshot.context.messages;
export type MessageView = ChatMessage & { from: 'own' | 'partner' | 'moderator' | 'system' };
/**
 * Each message with who it is from as the screen places it: own right, the partner's left with their name, a
 * moderator's left with a "Moderator" badge, the system's centred.
 */
export const selectMessageViews = (snapshot: ConversationSnapshot): MessageView[] =>
  snapshot.context.messages.map((message) => ({
    ...message,
    from: message.from_moderator
      ? 'moderator'
      : message.sender === null
        ? 'system'
        : message.sender === snapshot.context.username
          ? 'own'
          : 'partner',
  }));
export const selectIsLoadingMessages = (snapshot: ConversationSnapshot) => snapshot.matches({ messages: 'loading' });

// ---- The header's summary of the trade ---------------------------------------------------------------------

/** The trade's terms (coin and amount, fiat total, rate, payment method), once loaded; null before, or if it failed. */
export const selectTradeSummary = (snapshot: ConversationSnapshot): TradeSummary | null => snapshot.context.summary;
/** This trader's role in the trade ("You are buying" / "You are selling"), by the rule the buttons follow. */
export const selectRole = (snapshot: ConversationSnapshot): TradeRole => roleOf(snapshot.context.conversation);
/**
 * The payment window while the buyer has yet to mark paid, on the chart's clock (it ticks each second then): the
 * time left ("14:32"), or `left: null` once it ran out (the server's sweep cancels the trade shortly). Null once
 * paid or finished, and while the window's end or the time is not known yet.
 */
export const selectPaymentWindow = (snapshot: ConversationSnapshot): { left: string | null } | null => {
  if (!snapshot.matches({ trade: { pending: 'awaitingPayment' } })) return null;
  const { summary, now } = snapshot.context;
  if (!summary || !now) return null;
  return { left: leftUntil(summary.pay_by, Date.parse(now)) };
};
/** The account the buyer said they paid from, once marked paid and if they said one. */
export const selectPaidFrom = (snapshot: ConversationSnapshot): string | null => {
  const { buyer_paid, payer_account } = snapshot.context.conversation;
  return buyer_paid && payer_account ? payer_account : null;
};
/** "{username} is typing..." while someone else's notice is fresh. */
export const selectTypingLine = (snapshot: ConversationSnapshot) =>
  snapshot.matches({ partnerTyping: 'visible' }) && snapshot.context.typist ? `${snapshot.context.typist} is typing...` : null;

/** The message input shows only while the trade is pending. */
export const selectCanWrite = (snapshot: ConversationSnapshot) => snapshot.matches({ trade: 'pending' });
export const selectDraft = (snapshot: ConversationSnapshot) => snapshot.context.draft;
export const selectCanSend = (snapshot: ConversationSnapshot) => snapshot.can({ type: 'message.send' });
export const selectIsSending = (snapshot: ConversationSnapshot) => snapshot.matches({ composer: 'sending' });
/** A message too long to send says so; a blank one just is not sent. */
export const selectDraftError = (snapshot: ConversationSnapshot) =>
  snapshot.context.draft.trim() === '' ? undefined : messageProblem(snapshot.context.draft);

export type ActionButton = {
  action: TradeAction;
  label: string;
  event: TradeConversationEvent;
  /** Enabled: the chart takes its event now (no other action running, no dialog open). */
  enabled: boolean;
  busy: boolean;
};

type Button = { label: string; event: TradeConversationEvent; isBusy: (snapshot: ConversationSnapshot) => boolean };

/** A one-click action's button: the chart's `trade.act`, busy while that action is on its way. */
const oneClick = (action: OneClickAction, label: string): Button => ({
  label,
  event: { type: 'trade.act', action },
  isBusy: (s) => s.matches({ actions: 'acting' }) && s.context.acting === action,
});

const buttons: Record<TradeAction, Button> =
  {
    cancel: oneClick('cancel', 'Cancel Trade'),
    mark_paid: { label: 'Mark Paid', event: { type: 'trade.markPaid' }, isBusy: (s) => s.matches({ actions: 'markingPaid' }) },
    raise_dispute: {
      label: 'Raise Dispute',
      event: { type: 'trade.dispute' },
      isBusy: (s) => s.matches({ actions: { disputing: 'submitting' } }),
    },
    release_coin: {
      label: 'Release Crypto',
      event: { type: 'trade.release' },
      isBusy: (s) => s.matches({ actions: { releasing: 'submitting' } }),
    },
  };

/**
 * The action buttons: exactly the actions the lifecycle chart allows this trader now, in its order
 * (availableActions in domain/tradeLifecycle, the rule the server refuses by; docs/rules.md "Chat actions").
 */
export const selectActionButtons = (snapshot: ConversationSnapshot): ActionButton[] =>
  actionsFor(snapshot.context.conversation).map((action) => {
    const { label, event, isBusy } = buttons[action];
    return { action, label, event, enabled: snapshot.can(event), busy: isBusy(snapshot) };
  });

/** Which confirmation is open: releasing asks once, disputing asks for a reason. */
export const selectDialog = (snapshot: ConversationSnapshot): 'release' | 'dispute' | null =>
  snapshot.matches({ actions: 'releasing' }) ? 'release' : snapshot.matches({ actions: 'disputing' }) ? 'dispute' : null;
/** An action is on its way: the dialogs cannot be closed meanwhile. */
export const selectIsActionBusy = (snapshot: ConversationSnapshot) => snapshot.hasTag('busy');
export const selectReason = (snapshot: ConversationSnapshot) => snapshot.context.reason;
/** "Please enter the reason for your dispute" while it is empty. */
export const selectReasonError = (snapshot: ConversationSnapshot) => reasonProblem(snapshot.context.reason);
export const selectCanSubmitDispute = (snapshot: ConversationSnapshot) => snapshot.can({ type: 'dispute.submit' });
export const selectCanConfirmRelease = (snapshot: ConversationSnapshot) => snapshot.can({ type: 'release.confirm' });
/**
 * The input the release dialog shows: 'password', 'code' (two-factor on), or null when the server asks for none
 * (a proof in the last 10 minutes covers this session) and while it is being asked.
 */
export const selectReleaseProof = (snapshot: ConversationSnapshot) =>
  snapshot.matches({ actions: { releasing: 'checking' } }) ? null : snapshot.context.releaseProof;
/** The dialog is asking the server what the release needs: nothing to confirm yet. */
export const selectIsCheckingRelease = (snapshot: ConversationSnapshot) => snapshot.matches({ actions: { releasing: 'checking' } });
export const selectProof = (snapshot: ConversationSnapshot) => snapshot.context.proof;
/** The server's sentence for the last refused release (a wrong password, the security hold), or null. */
export const selectReleaseProblem = (snapshot: ConversationSnapshot) => snapshot.context.releaseProblem;

// ---- The paying account, the dispute under review, the settlement, the rating ---------------------------------

/** "Paid from (optional)" shows to the buyer while "Mark Paid" is one of their buttons. */
export const selectShowsPayerField = (snapshot: ConversationSnapshot) => actionsFor(snapshot.context.conversation).includes('mark_paid');
export const selectPayerAccount = (snapshot: ConversationSnapshot) => snapshot.context.payerAccount;
/** "The paying account can be at most 120 characters" (the contract's sentence), or undefined. */
export const selectPayerAccountError = (snapshot: ConversationSnapshot) => payerAccountProblem(snapshot.context.payerAccount);

/**
 * The seller's line beside "Release Crypto" once the buyer marked paid, while the trade is pending: the account
 * the buyer stated (null: they did not say). Undefined for the buyer, or before payment, or once finished.
 */
export const selectPayerLine = (snapshot: ConversationSnapshot): { account: string | null } | undefined => {
  const { conversation } = snapshot.context;
  if (roleOf(conversation) !== 'seller' || conversation.status !== 'pending' || !conversation.buyer_paid) return undefined;
  return { account: conversation.payer_account };
};

/**
 * The "Under review" banner while the trade is disputed: how long it has waited, counted from `disputed_at` to
 * the chart's clock (which ticks each minute); null when the server did not say when (an older trade).
 */
export const selectReview = (snapshot: ConversationSnapshot): { waited: string | null } | undefined => {
  if (!snapshot.matches({ trade: { pending: 'disputed' } })) return undefined;
  const { conversation, now } = snapshot.context;
  if (!conversation.disputed_at || !now) return { waited: null };
  return { waited: waitedSince(conversation.disputed_at, Date.parse(now)) };
};

/** How a moderator settled the dispute, once they did. */
export const selectResolution = (snapshot: ConversationSnapshot): DisputeResolution | null => snapshot.context.conversation.resolution;

/** The rating form's chart, while the completed trade is not rated yet. */
export const selectRatingRef = (snapshot: ConversationSnapshot) => snapshot.children.rating as RatingRef | undefined;
/** "You rated {partner} N/5" once rated. */
export const selectMyRating = (snapshot: ConversationSnapshot) =>
  snapshot.matches({ trade: { completed: 'rated' } }) ? snapshot.context.conversation.my_rating : null;

export const selectRatingPartner = (snapshot: RatingSnapshot) => snapshot.context.partner;
export const selectRatingScore = (snapshot: RatingSnapshot) => snapshot.context.score;
export const selectRatingComment = (snapshot: RatingSnapshot) => snapshot.context.comment;
/** The rating form is one row of stars until a score is chosen; the optional comment opens then (or once written). */
export const selectShowsRatingComment = (snapshot: RatingSnapshot) => snapshot.context.score !== null || snapshot.context.comment !== '';
/** The comment's length limit, once the comment is over it (no score yet is shown by the disabled Submit). */
export const selectRatingCommentError = (snapshot: RatingSnapshot) =>
  ratingProblem(snapshot.context.score ?? 1, snapshot.context.comment);
export const selectCanSubmitRating = (snapshot: RatingSnapshot) => snapshot.can({ type: 'rating.submit' });
export const selectIsRatingBusy = (snapshot: RatingSnapshot) => snapshot.hasTag('busy');
