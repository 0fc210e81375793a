import { assign, not, setup, type EventObject } from 'xstate';
import type { ChatMessage, DisputeOutcome } from '../../../contracts/index.ts';
import type { DisputeDetail, DisputeSummary } from '../../../contracts/moderation.ts';
import { unboundAction, unboundCallback, unboundPromise, unboundRule } from '../shared/unbound.ts';
import { withMessages } from '../shared/chatMessages.ts';
import { channelGuards, noneChosen } from '../shared/channelSelection.ts';
import { readAgainWhen } from '../shared/liveRegions.ts';
import { writingReason } from '../shared/reasonDialog.ts';
import { clockRegion } from '../shared/waited.ts';

export type ModerationDeskInput = {
  /** The dispute the page was opened on (`/moderation?channel=`), if any. */
  channel: string | null;
};

export type ModerationDeskContext = {
  /** The open disputes, oldest first, as the last list left them. */
  disputes: DisputeSummary[];
  /** The dispute asked for: loading, or open. */
  channel: string | null;
  /** The open dispute's facts and whole chat, as last read and heard. */
  detail: DisputeDetail | null;
  draft: string;
  /** Which settlement the dialog asks about, while it is open. */
  outcome: DisputeOutcome | null;
  /** The written resolution in the dialog: the reason the settlement carries. */
  reason: string;
  /** The desk's clock (ms since the epoch), read every minute: each dispute's wait is counted to it. */
  now: number;
  /** A settlement made here: the list is read again once no read of it is on its way. */
  listStale: boolean;
  /** A settlement made or refused here: the open dispute is read again. */
  detailStale: boolean;
};

/** What the channels hand over, parsed against the contracts (moderationDesk.actors.ts). */
export type ModerationChannelEvent =
  | { type: 'realtime.disputes.subscribed' }
  /** `dispute_raised` or `dispute_resolved` on `private-moderation`. */
  | { type: 'realtime.dispute.changed'; channel: string }
  | { type: 'realtime.trade.subscribed' }
  | { type: 'realtime.message.received'; message: ChatMessage }
  /** One of the trade events (`payment_marked`, …, `dispute_resolved`) on the open trade's channel. */
  | { type: 'realtime.trade.changed' };

export type ModerationDeskEvent =
  | ModerationChannelEvent
  | { type: 'list.retry' }
  | { type: 'dispute.select'; channel: string }
  | { type: 'dispute.close' }
  | { type: 'detail.retry' }
  | { type: 'message.change'; value: string }
  | { type: 'message.send' }
  | { type: 'resolve.release' }
  | { type: 'resolve.refund' }
  | { type: 'resolution.change'; value: string }
  | { type: 'resolution.confirm' }
  | { type: 'dialog.dismiss' };

const resolvable = (outcome: DisputeOutcome) => ({ type: 'canResolve', params: { outcome } }) as const;
const reading = { target: 'refreshing', reenter: true } as const;
/**
 * The list read (`loadDisputes`, invoked as `id`): kept, then shown, or "No open disputes"; `failed` is where a
 * failure leads.
 */
const readingDisputes = (id: string, failed: string) => ({
  id,
  src: 'loadDisputes' as const,
  onDone: { target: 'checking', actions: { type: 'keepDisputes' as const, params: ({ event }: { event: { output: DisputeSummary[] } }) => ({ disputes: event.output }) } },
  onError: { target: failed },
});

/**
 * /moderation, the dispute desk: the open disputes oldest first (live on `private-moderation`), one dispute's
 * facts and whole chat (live on its trade's channel), the moderator's messages, and the settlement.
 */
export const moderationDeskMachine = setup({
  types: { context: {} as ModerationDeskContext, events: {} as ModerationDeskEvent, input: {} as ModerationDeskInput },
  actors: {
    loadDisputes: unboundPromise<DisputeSummary[]>('loadDisputes'),
    loadDispute: unboundPromise<DisputeDetail, { channel: string }>('loadDispute'),
    sendMessage: unboundPromise<ChatMessage, { channel: string; text: string }>('sendMessage'),
    /** Answers the sentence of the success toast. */
    resolveDispute: unboundPromise<string, { channel: string; outcome: DisputeOutcome; resolution: string }>('resolveDispute'),
    /** `private-moderation`: `realtime.dispute.changed`, and `realtime.disputes.subscribed` on each (re)join. */
    moderationChannel: unboundCallback<EventObject>('moderationChannel'),
    /** `private-<channel>`: messages and trade events, and `realtime.trade.subscribed` on each (re)join. */
    tradeChannel: unboundCallback<EventObject, { channel: string }>('tradeChannel'),
  },
  delays: { waitingTick: 60_000 },
  actions: {
    keepDisputes: assign((_, params: { disputes: DisputeSummary[] }) => ({ disputes: params.disputes })),
    /** Another dispute: nothing of the last one (its chat, a draft, a dialog) carries over. */
    setChannel: assign((_, params: { channel: string }) => ({
      channel: params.channel,
      detail: null,
      draft: '',
      outcome: null,
      reason: '',
      detailStale: false,
    })),
    clearChannel: assign({ channel: null, detail: null, draft: '', outcome: null, reason: '', detailStale: false }),
    /** A fresh read, keeping any message heard live that it does not have yet. */
    keepDetail: assign(({ context }, params: { detail: DisputeDetail }) => ({
      detail: { ...params.detail, messages: withMessages(context.detail?.messages ?? [], params.detail.messages) },
    })),
    addMessage: assign(({ context }, params: { message: ChatMessage }) => ({
      detail: context.detail && { ...context.detail, messages: withMessages(context.detail.messages, [params.message]) },
    })),
    setDraft: assign((_, params: { value: string }) => ({ draft: params.value })),
    /** The input clears once the message is stored, unless the moderator has typed on meanwhile. */
    clearSent: assign(({ context }, params: { text: string }) => ({ draft: context.draft.trim() === params.text ? '' : context.draft })),
    setOutcome: assign((_, params: { outcome: DisputeOutcome }) => ({ outcome: params.outcome, reason: '' })),
    setReason: assign((_, params: { value: string }) => ({ reason: params.value })),
    clearResolution: assign({ outcome: null, reason: '' }),
    markListStale: assign({ listStale: true }),
    markListRead: assign({ listStale: false }),
    markDetailStale: assign({ detailStale: true }),
    markDetailRead: assign({ detailStale: false }),
    /** Reads the time into `now` (bound: the browser's clock). */
    tick: unboundAction('tick'),
    /** The trade as the lifecycle chart settles it, with the resolution written here (bound: the lifecycle chart). */
    settle: unboundAction<{ outcome: DisputeOutcome; text: string }>('settle'),
    /** "Dispute settled" with the server's sentence (bound to the toaster). */
    notifySettled: unboundAction<{ info: string }>('notifySettled'),
  },
  guards: {
    hasDisputes: ({ context }) => context.disputes.length > 0,
    ...channelGuards,
    isListStale: ({ context }) => context.listStale,
    isDetailStale: ({ context }) => context.detailStale,
    /** Text the server would store (trimmed, 1–2,000 characters) on a trade still pending. */
    canSend: unboundRule<{ text: string; detail: DisputeDetail | null }>('canSend'),
    /** The lifecycle chart's answer: only a disputed trade is settled, and only once. */
    canResolve: unboundRule<{ outcome: DisputeOutcome }>('canResolve'),
    /** The same answer for the settlement the dialog asks about. */
    canResolveChosen: unboundRule<void>('canResolveChosen'),
    /** "Please write the resolution" until it is (at most 2,000 characters). */
    isReasonWritten: unboundRule<{ reason: string }>('isReasonWritten'),
  },
}).createMachine({
  id: 'moderationDesk',
  description:
    'The dispute desk: disputed trades oldest first with their wait, one dispute’s facts and chat live, the moderator’s messages and the two settlements.',
  context: ({ input }) => ({
    disputes: [],
    channel: input.channel,
    detail: null,
    draft: '',
    outcome: null,
    reason: '',
    now: 0,
    listStale: false,
    detailStale: false,
  }),
  type: 'parallel',
  states: {
    list: {
      invoke: {
        id: 'moderationChannel',
        src: 'moderationChannel',
        onError: { description: 'No live list: it shows what the loads bring.' },
      },
      initial: 'loading',
      states: {
        loading: {
          tags: ['busy'],
          entry: 'markListRead',
          invoke: readingDisputes('loadDisputes', 'failed'),
          on: {
            'realtime.disputes.subscribed': {
              target: 'loading',
              reenter: true,
              description: 'Joined while the list was on its way: read it again, so nothing raised before the join is missed.',
            },
            'realtime.dispute.changed': { target: 'loading', reenter: true },
          },
        },
        checking: { always: [{ guard: 'hasDisputes', target: 'ready' }, { target: 'empty' }] },
        ready: readAgainWhen('isListStale', 'A dispute was settled here.', {
          'realtime.dispute.changed': 'A dispute was raised or settled (by anyone).',
          'realtime.disputes.subscribed': 'Joined again after a reconnect: read what was missed.',
        }),
        empty: {
          description: '"No open disputes".',
          always: { guard: 'isListStale', target: 'refreshing' },
          on: { 'realtime.dispute.changed': { target: 'refreshing' }, 'realtime.disputes.subscribed': { target: 'refreshing' } },
        },
        refreshing: {
          description: 'Read again; what shows stays meanwhile, and stays if the read fails.',
          entry: 'markListRead',
          invoke: readingDisputes('refreshDisputes', 'checking'),
          on: { 'realtime.dispute.changed': reading, 'realtime.disputes.subscribed': reading },
        },
        failed: {
          description: 'The first read failed: a message and "Try again".',
          on: { 'list.retry': { target: 'loading' }, 'realtime.disputes.subscribed': { target: 'loading' } },
        },
      },
    },
    detail: {
      initial: 'none',
      on: {
        'dispute.select': [
          { guard: { type: 'isCurrentChannel', params: ({ event }) => ({ channel: event.channel }) }, description: 'Already open.' },
          { target: '.loading', actions: { type: 'setChannel', params: ({ event }) => ({ channel: event.channel }) } },
        ],
        'dispute.close': { target: '.none', description: 'Back to the list (small screens).', actions: 'clearChannel' },
      },
      states: {
        none: noneChosen('"Select a dispute".', 'loading', 'The page was opened on a dispute (?channel=).'),
        loading: {
          tags: ['busy'],
          invoke: {
            id: 'loadDispute',
            src: 'loadDispute',
            input: ({ context }) => ({ channel: context.channel! }),
            onDone: { target: 'open', actions: { type: 'keepDetail', params: ({ event }) => ({ detail: event.output }) } },
            onError: { target: 'failed' },
          },
        },
        failed: {
          description: 'Not readable (gone, not a dispute, or the network): a message and "Try again".',
          on: { 'detail.retry': { target: 'loading' } },
        },
        open: {
          invoke: {
            id: 'tradeChannel',
            src: 'tradeChannel',
            input: ({ context }) => ({ channel: context.channel! }),
            onError: { description: 'No live chat: what was said shows on the next read.' },
          },
          type: 'parallel',
          states: {
            facts: {
              initial: 'current',
              states: {
                current: readAgainWhen('isDetailStale', 'A settlement was made or refused here.', {
                  'realtime.trade.changed': 'Paid, released, cancelled, disputed or settled: read the facts again.',
                  'realtime.trade.subscribed': 'Joined (again): read what was said meanwhile.',
                }),
                refreshing: {
                  entry: 'markDetailRead',
                  invoke: {
                    id: 'refreshDispute',
                    src: 'loadDispute',
                    input: ({ context }) => ({ channel: context.channel! }),
                    onDone: { target: 'current', actions: { type: 'keepDetail', params: ({ event }) => ({ detail: event.output }) } },
                    onError: { target: 'current', description: 'What shows stays.' },
                  },
                  on: { 'realtime.trade.changed': reading, 'realtime.trade.subscribed': reading },
                },
              },
            },
            composer: {
              initial: 'idle',
              on: {
                'message.change': { actions: { type: 'setDraft', params: ({ event }) => ({ value: event.value }) } },
                'realtime.message.received': { actions: { type: 'addMessage', params: ({ event }) => ({ message: event.message }) } },
              },
              states: {
                idle: {
                  on: {
                    'message.send': {
                      guard: { type: 'canSend', params: ({ context }) => ({ text: context.draft, detail: context.detail }) },
                      target: 'sending',
                      description: 'Enter or "Send"; a blank message is not sent, nor one into a settled trade.',
                    },
                  },
                },
                sending: {
                  tags: ['busy'],
                  invoke: {
                    id: 'sendMessage',
                    src: 'sendMessage',
                    input: ({ context }) => ({ channel: context.channel!, text: context.draft.trim() }),
                    onDone: {
                      target: 'idle',
                      actions: [
                        { type: 'addMessage', params: ({ event }) => ({ message: event.output }) },
                        { type: 'clearSent', params: ({ event }) => ({ text: event.output.text }) },
                      ],
                    },
                    onError: { target: 'idle', description: 'The refusal shows as a toast; the text stays.' },
                  },
                },
              },
            },
            settlement: {
              description: '"Release to buyer" and "Refund seller": each asks for a written resolution first.',
              initial: 'idle',
              states: {
                idle: {
                  on: {
                    'resolve.release': {
                      guard: resolvable('release'),
                      target: 'confirming',
                      actions: { type: 'setOutcome', params: { outcome: 'release' } },
                    },
                    'resolve.refund': {
                      guard: resolvable('refund'),
                      target: 'confirming',
                      actions: { type: 'setOutcome', params: { outcome: 'refund' } },
                    },
                  },
                },
                confirming: {
                  tags: ['open'],
                  description: 'Confirm stays disabled while the resolution is empty ("Please write the resolution").',
                  always: {
                    guard: not('canResolveChosen'),
                    target: 'idle',
                    description: 'Settled under the dialog (another moderator, a read of the facts).',
                    actions: 'clearResolution',
                  },
                  on: writingReason({ change: 'resolution.change', submit: 'resolution.confirm' }, 'submitting', {
                    target: 'idle',
                    actions: 'clearResolution',
                  }),
                },
                submitting: {
                  tags: ['open', 'busy'],
                  description: '"Please wait...": closing is refused while the settlement runs.',
                  invoke: {
                    id: 'resolveDispute',
                    src: 'resolveDispute',
                    input: ({ context }) => ({ channel: context.channel!, outcome: context.outcome!, resolution: context.reason.trim() }),
                    onDone: {
                      target: 'idle',
                      description: 'Settled: the toast, the trade shown settled at once, then the facts and the list read again.',
                      actions: [
                        { type: 'notifySettled', params: ({ event }) => ({ info: event.output }) },
                        { type: 'settle', params: ({ context }) => ({ outcome: context.outcome!, text: context.reason.trim() }) },
                        'clearResolution',
                        'markDetailStale',
                        'markListStale',
                      ],
                    },
                    onError: {
                      target: 'confirming',
                      description:
                        'Refused (a red toast with the server’s sentence): the facts are read again; settled meanwhile closes the dialog, else the text stays.',
                      actions: 'markDetailStale',
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
    clock: clockRegion('Reads the time once a minute, so each dispute’s "Waiting …" stays current.'),
  },
});

export type ModerationDeskLogic = typeof moderationDeskMachine;
