import { and, assign, not, sendParent, setup, stateIn, type EventObject } from 'xstate';
import type {
  ChatMessage,
  ConfirmationProof,
  Conversation,
  TradeAction,
  TradeFacts,
  TradeStatus,
  TradeSummary,
} from '../../../contracts/index.ts';
import type { TradeStage } from '../../../domain/tradeLifecycle/tradeLifecycle.ts';
import type { ReleaseRequest, TradeActionRequest } from '../../services/trades.ts';
import { newestWrittenTo, withMessages } from '../shared/chatMessages.ts';
import { writingReason } from '../shared/reasonDialog.ts';
import { clockRegion } from '../shared/waited.ts';
import type { Notice } from '../shared/notify.ts';
import { unboundAction, unboundCallback, unboundChart, unboundPromise, unboundRule } from '../shared/unbound.ts';
import type { TradeRatingLogic, TradeRatingOutput } from './tradeRating.machine.ts';

export type TradeConversationInput = { conversation: Conversation; username: string };

/**
 * The actions a trader takes with one click: no field, no dialog, only the chart's say-so. Every action the lifecycle
 * has but these three is one (cancel today), so a new action of that kind needs nothing here, only its button's label
 * (tradeChat.selectors.ts).
 */
export type OneClickAction = Exclude<TradeAction, 'mark_paid' | 'release_coin' | 'raise_dispute'>;

export type TradeConversationContext = {
  /** Who is signed in: own messages, others' typing. */
  username: string;
  /** The trade's facts, partner and last message, as last heard. */
  conversation: Conversation;
  /** Oldest first, each id once. */
  messages: ChatMessage[];
  draft: string;
  /** Whose "… is typing..." shows. */
  typist: string | null;
  reason: string;
  /** "Paid from (optional)", as the buyer types it before "Mark Paid". */
  payerAccount: string;
  /**
   * The time as the chart's clock last read it (ISO 8601), null before the first reading: each second while the
   * payment window counts down, each minute while "Under review" counts the time waited.
   */
  now: string | null;
  /** The trade's terms for the header (coin, amounts, rate, method, the payment window's end); null until loaded. */
  summary: TradeSummary | null;
  /**
   * What "Confirm Release" must carry, as the server last said (security/confirmation/): the password, the
   * authenticator code (two-factor on), or nothing (null: a proof given in the last 10 minutes covers this session).
   */
  releaseProof: ConfirmationProof | null;
  /** The password or code as typed in the release dialog; forgotten once the dialog closes or the server answers. */
  proof: string;
  /** The server's sentence for the last refused release (a wrong password, the security hold), shown in the dialog. */
  releaseProblem: string | null;
  /** The one-click action on its way, until the server answers. */
  acting: OneClickAction | null;
};

/** What the trade's channel hands over, parsed against the contracts (tradeChat.actors.ts). */
export type TradeChannelEvent =
  | { type: 'realtime.subscribed' }
  | { type: 'realtime.message.received'; message: ChatMessage }
  | { type: 'realtime.typing.received'; username: string }
  | { type: 'realtime.trade.changed'; facts: TradeFacts; message: ChatMessage };

/**
 * The lifecycle chart's state for the trade as now known (domain/tradeLifecycle), raised by `followLifecycle`
 * each time the facts change: the trade region moves on these, so its diagram shows events, not mirrored flags.
 */
export type LifecycleEvent = { [Stage in TradeStage]: { type: `lifecycle.${Stage}` } }[TradeStage];

/** What the conversation tells the chat screen that invoked it, so the list shows the same trade. */
export type ConversationReport =
  | { type: 'conversation.changed'; conversation: Conversation }
  /** The newest message written to this trader that the conversation shows (null: none), for the list's read mark. */
  | { type: 'conversation.shown'; channel: string; upTo: number | null };

export type TradeConversationEvent =
  | TradeChannelEvent
  | LifecycleEvent
  | { type: 'conversation.updated'; conversation: Conversation }
  | { type: 'message.change'; value: string }
  | { type: 'message.send' }
  | { type: 'trade.act'; action: OneClickAction }
  | { type: 'trade.markPaid' }
  | { type: 'payer.change'; value: string }
  | { type: 'trade.release' }
  | { type: 'trade.dispute' }
  | { type: 'proof.change'; value: string }
  | { type: 'release.confirm' }
  | { type: 'dispute.reason.change'; value: string }
  | { type: 'dispute.submit' }
  | { type: 'dialog.dismiss' };

/**
 * What a conversation gains over the trade's life is set once and never unset (the paying account, the dispute's
 * time, the settlement, this trader's rating): a stale report (a reload begun before) never takes it away again.
 */
function laterAdditions(known: Conversation, heard: Conversation) {
  return {
    payer_account: heard.payer_account ?? known.payer_account,
    disputed_at: heard.disputed_at ?? known.disputed_at,
    resolution: heard.resolution ?? known.resolution,
    my_rating: heard.my_rating ?? known.my_rating,
  };
}

const writing = { type: 'isWriting', params: ({ event }: { event: { value: string } }) => ({ value: event.value }) } as const;

/** A conversation's trade facts, without the rest of it. */
const factsIn = ({ status, buyer_paid, dispute_raised }: TradeFacts): TradeFacts => ({ status, buyer_paid, dispute_raised });


const takeAction = (action: TradeAction) => ({ type: 'canTakeAction', params: { action } }) as const;
/** An action the server accepted: the trade region shows its outcome at once, as the lifecycle chart has it. */
const accepted = (action: TradeAction) => ({ type: 'keepAccepted', params: { action } }) as const;
/** The server's sentence for an accepted action, as the toast "Action Performed!". */
const actionPerformed = {
  type: 'notify',
  params: ({ event }: { event: { output: string } }): Notice => ({
    title: 'Action Performed!',
    description: event.output,
    type: 'success',
  }),
} as const;

/** `release_coin` with the proof the server asked for, as typed (a code without spaces: "123 456" is pasted too). */
const releaseInput = ({ context }: { context: TradeConversationContext }): ReleaseRequest => {
  const { channel } = context.conversation;
  if (context.releaseProof === 'password') return { type: 'release_coin', channel, password: context.proof };
  if (context.releaseProof === 'code') return { type: 'release_coin', channel, code: context.proof.replace(/\s/g, '') };
  return { type: 'release_coin', channel };
};
/** A refused release: the server's sentence shows in the dialog, and what was typed is typed again. */
const refuseRelease = { type: 'refuseRelease', params: ({ event }: { event: { error: unknown } }) => ({ error: event.error }) } as const;

/** One trade's conversation in /chat, invoked by the chat screen (tradeChat.machine.ts) for the selected trade. */
export const tradeConversationMachine = setup({
  types: {
    context: {} as TradeConversationContext,
    events: {} as TradeConversationEvent,
    input: {} as TradeConversationInput,
  },
  actors: {
    tradeChannel: unboundCallback<EventObject, { channel: string }>('tradeChannel'),
    loadMessages: unboundPromise<ChatMessage[], { channel: string }>('loadMessages'),
    sendMessage: unboundPromise<ChatMessage, { channel: string; text: string }>('sendMessage'),
    sendTyping: unboundPromise<unknown, { channel: string }>('sendTyping'),
    /** The trade's terms for the header (market/chat/{channel}/ `summary`). */
    loadSummary: unboundPromise<TradeSummary, { channel: string }>('loadSummary'),
    /** Answers the sentence shown as "Action Performed!". */
    performAction: unboundPromise<string, TradeActionRequest>('performAction'),
    /** What the next release of this session must carry (security/confirmation/ `status`). */
    releaseProof: unboundPromise<ConfirmationProof | null>('releaseProof'),
    /** `release_coin` with its proof; refused quietly, since the dialog shows the sentence. */
    releaseCoin: unboundPromise<string, ReleaseRequest>('releaseCoin'),
    // The rating form (tradeRating.machine.ts), declared by its type: this file stands alone.
    tradeRating: unboundChart<TradeRatingLogic>('tradeRating'),
  },
  delays: { typingThrottle: 500, typingVisible: 1500, reviewTick: 60_000, waitingTick: 1000 },
  actions: {
    keepMessages: assign(({ context }, params: { messages: ChatMessage[] }) => ({
      messages: withMessages(context.messages, params.messages),
    })),
    /** A message shows, and becomes the conversation's last message (the list's preview). */
    addMessage: assign(({ context }, params: { message: ChatMessage }) => ({
      messages: withMessages(context.messages, [params.message]),
      conversation: { ...context.conversation, last_message: params.message.text },
    })),
    /**
     * Keeps facts heard if the lifecycle chart leads there from the facts known (laterFacts): a trade only moves
     * forward, so a late or stale report never moves it back. Bound in tradeChat.actors.ts.
     */
    keepFacts: unboundAction<TradeFacts>('keepFacts'),
    /** The rest of what the list heard; its facts go through keepFacts. */
    keepConversation: assign(({ context }, params: { conversation: Conversation }) => ({
      conversation: {
        ...params.conversation,
        ...factsIn(context.conversation),
        ...laterAdditions(context.conversation, params.conversation),
      },
    })),
    setPayerAccount: assign((_, params: { value: string }) => ({ payerAccount: params.value })),
    /** The seller hears it from the server; this trader's own screen shows what was sent at once. */
    keepPayerAccount: assign(({ context }) => ({
      payerAccount: '',
      conversation: { ...context.conversation, payer_account: context.payerAccount.trim() || null },
    })),
    keepMyRating: assign(({ context }, params: TradeRatingOutput) => ({ conversation: { ...context.conversation, my_rating: params } })),
    /** Reads the time into `now` (bound: the browser's clock; a fixed one in the model tests). */
    tick: unboundAction('tick'),
    keepSummary: assign((_, params: { summary: TradeSummary }) => ({ summary: params.summary })),
    setDraft: assign((_, params: { value: string }) => ({ draft: params.value })),
    /** The input clears once the message is stored, unless the trader has typed on meanwhile. */
    clearSent: assign(({ context }, params: { text: string }) => ({ draft: context.draft.trim() === params.text ? '' : context.draft })),
    setTypist: assign((_, params: { username: string }) => ({ typist: params.username })),
    clearTypist: assign({ typist: null }),
    setReason: assign((_, params: { value: string }) => ({ reason: params.value })),
    clearReason: assign({ reason: '' }),
    keepReleaseProof: assign((_, params: { proof: ConfirmationProof | null }) => ({ releaseProof: params.proof })),
    setProof: assign((_, params: { value: string }) => ({ proof: params.value })),
    refuseRelease: assign((_, params: { error: unknown }) => ({
      proof: '',
      releaseProblem: params.error instanceof Error && params.error.message !== '' ? params.error.message : 'The release did not go through. Please try again.',
    })),
    clearReleaseProblem: assign({ releaseProblem: null }),
    forgetActing: assign({ acting: null }),
    /** Nothing typed or said in the release dialog outlives it. */
    forgetRelease: assign({ releaseProof: null, proof: '', releaseProblem: null }),
    reportConversation: sendParent(
      ({ context }): ConversationReport => ({ type: 'conversation.changed', conversation: context.conversation }),
    ),
    /** What the trader can now see of what was written to them: the list marks it read up to there, and no further. */
    reportShown: sendParent(
      ({ context }): ConversationReport => ({
        type: 'conversation.shown',
        channel: context.conversation.channel,
        upTo: newestWrittenTo(context.messages, context.username),
      }),
    ),
    notify: (_, _params: Notice) => {},
    /**
     * Raises the lifecycle chart's state for the facts as now known (`lifecycle.paid`, …): bound in
     * tradeChat.actors.ts with the chart of domain/tradeLifecycle, the one the server consults.
     */
    followLifecycle: unboundAction('followLifecycle'),
    /** Keeps the facts an accepted action leaves (the lifecycle chart's target for it) and follows them: bound in tradeChat.actors.ts. */
    keepAccepted: unboundAction<{ action: TradeAction }>('keepAccepted'),
  },
  guards: {
    /**
     * A message shows if it is for everyone (a system message), or this trader sent or receives it: the channel
     * may carry words meant for one party only.
     */
    isVisibleToMe: (_, params: { message: ChatMessage; username: string }) =>
      params.message.recipient === 'all' || params.message.recipient === params.username || params.message.sender === params.username,
    isOthersTyping: (_, params: { typist: string; username: string }) => params.typist !== params.username,
    isFromTypist: (_, params: { sender: string | null; typist: string | null }) =>
      params.sender !== null && params.sender === params.typist,
    isWriting: (_, params: { value: string }) => params.value.trim() !== '',
    isRated: ({ context }) => context.conversation.my_rating !== null,
    /** The lifecycle chart's answer for this trade and this trader's role: the one the server consults. */
    canTakeAction: unboundRule<{ action: TradeAction }>('canTakeAction'),
    /** Text the server would store (trimmed, 1–2,000 characters) on a pending trade. */
    canSend: unboundRule<{ text: string; status: TradeStatus }>('canSend'),
    isReasonWritten: unboundRule<{ reason: string }>('isReasonWritten'),
    /** Blank (not stated) or at most 120 characters. */
    isPayerAccountValid: unboundRule<undefined>('isPayerAccountValid'),
    /** The proof the server asked for is typed (a password, or six digits), or none is asked. */
    isProofReady: unboundRule<{ proof: ConfirmationProof | null; value: string }>('isProofReady'),
    /** 403: the proof was missing or wrong (the server's other 403, "Only the seller…", cannot reach a seller's dialog). */
    isProofRefused: (_, params: { error: unknown }) =>
      typeof params.error === 'object' && params.error !== null && 'status' in params.error && params.error.status === 403,
  },
}).createMachine({
  id: 'tradeConversation',
  description:
    "One trade's chat: its messages, live on the trade's channel, the trade's state as the lifecycle has it, the message input and the trade actions.",
  context: ({ input }) => ({
    username: input.username,
    conversation: input.conversation,
    messages: [],
    draft: '',
    typist: null,
    reason: '',
    payerAccount: '',
    now: null,
    summary: null,
    releaseProof: null,
    proof: '',
    releaseProblem: null,
    acting: null,
  }),
  invoke: {
    id: 'tradeChannel',
    src: 'tradeChannel',
    input: ({ context }) => ({ channel: context.conversation.channel }),
    onError: { description: 'No live channel: what was said shows on the next load.' },
  },
  type: 'parallel',
  states: {
    messages: {
      initial: 'loading',
      on: {
        'realtime.message.received': {
          guard: { type: 'isVisibleToMe', params: ({ context, event }) => ({ message: event.message, username: context.username }) },
          actions: [{ type: 'addMessage', params: ({ event }) => ({ message: event.message }) }, 'reportConversation', 'reportShown'],
        },
        'realtime.subscribed': {
          target: '.loading',
          description: 'The channel is live (first, and again after every reconnect): load again, so nothing said meanwhile stays missing.',
        },
      },
      states: {
        loading: {
          invoke: {
            id: 'loadMessages',
            src: 'loadMessages',
            input: ({ context }) => ({ channel: context.conversation.channel }),
            onDone: { target: 'ready', actions: [{ type: 'keepMessages', params: ({ event }) => ({ messages: event.output }) }, 'reportShown'] },
            onError: { target: 'ready', description: 'A chat failure clears the loading state and shows no message of its own.' },
          },
        },
        ready: {},
      },
    },
    summary: {
      description: "The trade's terms for the header: frozen when the trade opened, so loaded once.",
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            id: 'loadSummary',
            src: 'loadSummary',
            input: ({ context }) => ({ channel: context.conversation.channel }),
            onDone: { target: 'shown', actions: { type: 'keepSummary', params: ({ event }) => ({ summary: event.output }) } },
            onError: { target: 'missing' },
          },
        },
        shown: {},
        missing: {
          description: 'Not loaded: the header shows the partner and the status only.',
          on: { 'realtime.subscribed': { target: 'loading', description: 'The channel is live again: asked once more.' } },
        },
      },
    },
    trade: {
      description:
        "The lifecycle chart (domain/tradeLifecycle) as this trade follows it: each change of the facts (what the server reports, an action it accepted) raises the chart's state, and the region moves on it. A stale report raises a state already passed, which no state here takes: a trade only moves forward.",
      initial: 'pending',
      entry: 'followLifecycle',
      on: {
        'realtime.trade.changed': {
          actions: [
            { type: 'keepFacts', params: ({ event }) => event.facts },
            { type: 'addMessage', params: ({ event }) => ({ message: event.message }) },
            'reportConversation',
            'followLifecycle',
          ],
        },
        'conversation.updated': {
          description: 'The list heard of this trade (the user channel, a reload).',
          actions: [
            { type: 'keepConversation', params: ({ event }) => ({ conversation: event.conversation }) },
            { type: 'keepFacts', params: ({ event }) => factsIn(event.conversation) },
            'followLifecycle',
          ],
        },
      },
      states: {
        pending: {
          description: 'The message input shows.',
          initial: 'awaitingPayment',
          on: {
            'lifecycle.completed': { target: 'completed', description: 'Released, by the seller or a moderator.' },
            'lifecycle.cancelled': { target: 'cancelled', description: 'Cancelled, run out, or refunded by a moderator.' },
          },
          states: {
            awaitingPayment: {
              ...clockRegion(
                'buyer_paid false: "Cancel Trade" for both, "Mark Paid" for the buyer; the header counts the payment window down, reading the time each waitingTick.',
              ),
              on: {
                'lifecycle.paid': { target: 'paid' },
                'lifecycle.disputed': { target: 'disputed', description: 'Paid and disputed meanwhile (heard on a reload).' },
              },
            },
            paid: {
              description: 'buyer_paid true: "Raise Dispute" for both, "Release Crypto" for the seller.',
              on: { 'lifecycle.disputed': { target: 'disputed' } },
            },
            disputed: {
              description: 'Frozen until a moderator settles it: no actions, the chat goes on; "Under review" counts the minutes waited.',
              entry: 'tick',
              after: { reviewTick: { target: 'disputed', reenter: true, description: 'A minute more on the banner.' } },
            },
          },
        },
        completed: {
          description: 'The buyer holds the crypto; the input is gone. Each party may rate the other once.',
          initial: 'checkingRating',
          states: {
            checkingRating: { always: [{ guard: 'isRated', target: 'rated' }, { target: 'rating' }] },
            rating: {
              description: '"Rate {partner}": stars and a comment (the tradeRating chart).',
              always: { guard: 'isRated', target: 'rated', description: 'Rated elsewhere (another tab): the server republished it.' },
              invoke: {
                id: 'rating',
                src: 'tradeRating',
                input: ({ context }) => ({ channel: context.conversation.channel, partner: context.conversation.partner }),
                onDone: { target: 'rated', actions: [{ type: 'keepMyRating', params: ({ event }) => event.output }, 'reportConversation'] },
              },
            },
            rated: { description: '"You rated {partner} N/5".' },
          },
        },
        cancelled: { description: 'The seller holds the crypto again; the input is gone.' },
      },
    },
    composer: {
      initial: 'idle',
      on: { 'message.change': { actions: { type: 'setDraft', params: ({ event }) => ({ value: event.value }) } } },
      states: {
        idle: {
          on: {
            'message.send': {
              guard: { type: 'canSend', params: ({ context }) => ({ text: context.draft, status: context.conversation.status }) },
              target: 'sending',
              description: 'Enter or "Send"; an empty or blank message is not sent.',
            },
          },
        },
        sending: {
          invoke: {
            id: 'sendMessage',
            src: 'sendMessage',
            input: ({ context }) => ({ channel: context.conversation.channel, text: context.draft.trim() }),
            onDone: {
              target: 'idle',
              actions: [
                { type: 'addMessage', params: ({ event }) => ({ message: event.output }) },
                { type: 'clearSent', params: ({ event }) => ({ text: event.output.text }) },
                'reportConversation',
              ],
            },
            onError: { target: 'idle', description: 'The refusal shows as a toast (a finished trade); the text stays.' },
          },
        },
      },
    },
    typingNotice: {
      description:
        'Tells the partner "… is typing...": at once on the first keystroke, then at most once per typingThrottle for as long as the trader types on (a throttle with a leading and a trailing edge).',
      initial: 'ready',
      states: {
        ready: {
          on: { 'message.change': { guard: writing, target: 'cooling', description: 'The first keystroke after a pause: a notice goes out at once.' } },
        },
        cooling: {
          description: 'One notice went out; the next waits until typingThrottle has passed.',
          invoke: {
            id: 'sendTyping',
            src: 'sendTyping',
            input: ({ context }) => ({ channel: context.conversation.channel }),
            onError: { description: 'Best effort: a lost notice is not worth a message.' },
          },
          initial: 'quiet',
          states: {
            quiet: {
              description: 'Nothing typed since the notice.',
              on: { 'message.change': { guard: writing, target: 'typedOn' } },
            },
            typedOn: {
              description: 'Typed on since the notice: the next one goes out once the time is up.',
              always: {
                guard: stateIn('#tradeConversation.composer.sending'),
                target: 'quiet',
                description: 'The message is on its way: no notice trails it.',
              },
            },
          },
          after: {
            typingThrottle: [
              {
                guard: stateIn('#tradeConversation.typingNotice.cooling.typedOn'),
                target: 'cooling',
                reenter: true,
                description: 'Still typing: the next notice goes out now.',
              },
              { target: 'ready' },
            ],
          },
        },
      },
    },
    partnerTyping: {
      initial: 'hidden',
      on: {
        'realtime.typing.received': {
          guard: { type: 'isOthersTyping', params: ({ context, event }) => ({ typist: event.username, username: context.username }) },
          target: '.visible',
          description: "Someone else's notice shows the line, and each one starts its time again; this trader's own are ignored.",
          actions: { type: 'setTypist', params: ({ event }) => ({ username: event.username }) },
        },
      },
      states: {
        hidden: {},
        visible: {
          description: '"{username} is typing..." for typingVisible.',
          after: { typingVisible: { target: 'hidden', actions: 'clearTypist' } },
          on: {
            'realtime.message.received': {
              guard: { type: 'isFromTypist', params: ({ context, event }) => ({ sender: event.message.sender, typist: context.typist }) },
              target: 'hidden',
              description: 'Their message arrived: they are done typing it.',
              actions: 'clearTypist',
            },
          },
        },
      },
    },
    actions: {
      description: "The buttons: the lifecycle chart's availableActions for this trader's role, one at a time.",
      initial: 'idle',
      on: { 'payer.change': { actions: { type: 'setPayerAccount', params: ({ event }) => ({ value: event.value }) } } },
      states: {
        idle: {
          on: {
            'trade.act': {
              guard: { type: 'canTakeAction', params: ({ event }) => ({ action: event.action }) },
              target: 'acting',
              description: 'A one-click action (Cancel Trade): no field, no dialog.',
              actions: assign({ acting: ({ event }) => event.action }),
            },
            'trade.markPaid': {
              guard: and([takeAction('mark_paid'), 'isPayerAccountValid']),
              target: 'markingPaid',
              description: 'One click, with the paying account if the buyer stated one (at most 120 characters).',
            },
            'trade.release': { guard: takeAction('release_coin'), target: 'releasing', description: 'It cannot be undone: asked once, with a second proof.' },
            'trade.dispute': { guard: takeAction('raise_dispute'), target: 'disputing', description: '"Raise Dispute" opens the dialog.' },
          },
        },
        acting: {
          tags: ['busy'],
          invoke: {
            id: 'oneClickAction',
            src: 'performAction',
            input: ({ context }) => ({ type: context.acting!, channel: context.conversation.channel }),
            onDone: {
              target: 'idle',
              actions: [actionPerformed, { type: 'keepAccepted', params: ({ context }) => ({ action: context.acting! }) }, 'reportConversation', 'forgetActing'],
            },
            onError: { target: 'idle', description: 'The refusal shows as a toast.', actions: 'forgetActing' },
          },
        },
        markingPaid: {
          tags: ['busy'],
          invoke: {
            id: 'markPaid',
            src: 'performAction',
            input: ({ context }) => ({
              type: 'mark_paid' as const,
              channel: context.conversation.channel,
              ...(context.payerAccount.trim() ? { payer_account: context.payerAccount.trim() } : {}),
            }),
            onDone: {
              target: 'idle',
              actions: [actionPerformed, accepted('mark_paid'), 'keepPayerAccount', 'reportConversation'],
            },
            onError: { target: 'idle' },
          },
        },
        releasing: {
          tags: ['open'],
          description: 'Releasing cannot be undone: asked once, with the second proof the server asks for (docs/rules.md "Trades").',
          initial: 'checking',
          exit: 'forgetRelease',
          states: {
            checking: {
              description:
                'Asks what the release must carry: the password, the authenticator code (two-factor on), or nothing while a proof given in the last 10 minutes covers this session.',
              invoke: {
                id: 'releaseProof',
                src: 'releaseProof',
                onDone: { target: 'confirming', actions: { type: 'keepReleaseProof', params: ({ event }) => ({ proof: event.output }) } },
                onError: {
                  target: 'confirming',
                  description: 'Unknown: the release goes without a proof; if one is needed the server refuses it (403) and the dialog asks again.',
                  actions: { type: 'keepReleaseProof', params: { proof: null } },
                },
              },
              always: {
                guard: not(takeAction('release_coin')),
                target: '#tradeConversation.actions.idle',
                description: 'The trade changed under the question.',
              },
              on: { 'dialog.dismiss': { target: '#tradeConversation.actions.idle' } },
            },
            confirming: {
              description: 'The question, with the password or code input when one is asked, and the last refusal if any.',
              always: {
                guard: not(takeAction('release_coin')),
                target: '#tradeConversation.actions.idle',
                description: 'The trade changed under the question.',
              },
              on: {
                'proof.change': { actions: { type: 'setProof', params: ({ event }) => ({ value: event.value }) } },
                'release.confirm': {
                  guard: { type: 'isProofReady', params: ({ context }) => ({ proof: context.releaseProof, value: context.proof }) },
                  target: 'submitting',
                  actions: 'clearReleaseProblem',
                },
                'dialog.dismiss': { target: '#tradeConversation.actions.idle' },
              },
            },
            submitting: {
              tags: ['busy'],
              description: 'Closing is refused while the release runs.',
              invoke: {
                id: 'releaseCoin',
                src: 'releaseCoin',
                input: releaseInput,
                onDone: {
                  target: '#tradeConversation.actions.idle',
                  actions: [actionPerformed, accepted('release_coin'), 'reportConversation'],
                },
                onError: [
                  {
                    guard: { type: 'isProofRefused', params: ({ event }) => ({ error: event.error }) },
                    target: 'checking',
                    description:
                      'A missing or wrong proof (403): its sentence shows, and the dialog asks again for what the server asks now (the window may have closed meanwhile).',
                    actions: refuseRelease,
                  },
                  {
                    target: 'confirming',
                    description: 'Any other refusal (the security hold, a sign-in lockout, the trade changed): its sentence shows in the dialog.',
                    actions: refuseRelease,
                  },
                ],
              },
            },
          },
        },
        disputing: {
          tags: ['open'],
          initial: 'editing',
          states: {
            editing: {
              description: 'Submit stays disabled while the reason is empty ("Please enter the reason for your dispute").',
              always: {
                guard: not(takeAction('raise_dispute')),
                target: '#tradeConversation.actions.idle',
                description: 'The trade changed under the dialog.',
                actions: 'clearReason',
              },
              on: writingReason({ change: 'dispute.reason.change', submit: 'dispute.submit' }, 'submitting', {
                target: '#tradeConversation.actions.idle',
                actions: 'clearReason',
              }),
            },
            submitting: {
              tags: ['busy'],
              invoke: {
                id: 'raiseDispute',
                src: 'performAction',
                input: ({ context }) => ({
                  type: 'raise_dispute' as const,
                  channel: context.conversation.channel,
                  reason: context.reason.trim(),
                }),
                onDone: {
                  target: '#tradeConversation.actions.idle',
                  actions: [actionPerformed, 'clearReason', accepted('raise_dispute'), 'reportConversation'],
                },
                onError: { target: 'editing', description: 'The refusal shows as a toast; the reason stays.' },
              },
            },
          },
        },
      },
    },
  },
});

/** The conversation chart as the chat screen's chart declares it (its file imports only types); bound in its route. */
export type TradeConversationLogic = typeof tradeConversationMachine;
