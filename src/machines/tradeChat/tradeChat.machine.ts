import { and, assign, or, sendTo, setup, stateIn, type EventObject } from 'xstate';
import type { Conversation, ConversationRead } from '../../../contracts/index.ts';
import { channelGuards, noneChosen } from '../shared/channelSelection.ts';
import { connectionRegion, liveActors, userChannel, type ConnectionEvent } from '../shared/liveRegions.ts';
import { unboundCallback, unboundChart, unboundPromise } from '../shared/unbound.ts';
import type { ConversationReport, TradeConversationLogic } from './tradeConversation.machine.ts';

export type TradeChatInput = {
  username: string;
  /** The conversation the page was opened on (`/chat?channel=`), if any. */
  channel: string | null;
};

/** Which trades the list shows: all of them, or only the open ones (those the lifecycle chart has not finished). */
export type ConversationFilter = 'all' | 'open';

export type TradeChatContext = {
  username: string;
  /** The list as the last load and the live updates left it, latest activity first, each with its unread count. */
  conversations: Conversation[];
  search: string;
  /** Kept here, applied by the list's selector: a trade that finishes leaves the "Open" list at once. */
  filter: ConversationFilter;
  /** The conversation asked for: open, or waiting for the list to bring it. */
  channel: string | null;
  /**
   * Whether the page is in view (the browser's visibilitychange, through the binding): a page in a background tab
   * marks nothing read, so what arrives there stays unread until the trader looks. Visible until the page says.
   */
  pageVisible: boolean;
  /** The newest message written to the trader that the open conversation shows (null: none yet): a mark goes no further. */
  shownUpTo: number | null;
  /** Where this page's last mark of the open conversation reached (null: none since it opened). */
  readUpTo: number | null;
};

export type TradeChatEvent =
  | { type: 'conversation.select'; channel: string }
  | { type: 'conversation.close' }
  | { type: 'search.change'; value: string }
  | { type: 'filter.change'; filter: ConversationFilter }
  | ConnectionEvent
  | { type: 'page.visible' }
  | { type: 'page.hidden' }
  | { type: 'realtime.subscribed' }
  | { type: 'realtime.conversation.received'; conversation: Conversation }
  | ConversationReport;

/**
 * The list with `conversation` in first place (it has the latest activity), replacing its old entry; a new
 * one joins only if it matches the search, as the server would have filtered it (docs/api.md "Chat calls").
 */
function withConversation(list: Conversation[], conversation: Conversation, search: string): Conversation[] {
  const known = list.some((entry) => entry.channel === conversation.channel);
  const wanted = search.trim().toLowerCase();
  if (!known && !conversation.partner.toLowerCase().includes(wanted)) return list;
  return [conversation, ...list.filter((entry) => entry.channel !== conversation.channel)];
}

/** A conversation heard (on the trader's channel, or a reload's): its entry moves to the top, with the count the server keeps. */
const upsertHeard = {
  type: 'upsertConversation',
  params: ({ event }: { event: { conversation: Conversation } }) => ({ conversation: event.conversation }),
} as const;

/** The open conversation's `unread` set to `count`, the rest as they are. */
const withUnread = (list: Conversation[], channel: string | null, count: (entry: Conversation) => number) =>
  list.map((entry) => (entry.channel === channel ? { ...entry, unread: count(entry) } : entry));

/**
 * The open conversation can be marked read: the page is in view, the conversation shows a message written to the
 * trader, and either the list counts some unread or a newer one shows than the last mark reached.
 */
const readable = and(['isConversationOpen', 'isPageVisible', 'hasShownMessages', or(['hasUnreadSelected', 'hasShownSinceMark'])]);

/** /chat: the conversation list, the live connection, and the selected trade's conversation as a child chart. */
export const tradeChatMachine = setup({
  types: { context: {} as TradeChatContext, events: {} as TradeChatEvent, input: {} as TradeChatInput },
  actors: {
    loadConversations: unboundPromise<Conversation[], { search: string }>('loadConversations'),
    markRead: unboundPromise<ConversationRead, { channel: string; upTo: number }>('markRead'),
    /** Sends `page.visible` / `page.hidden`: at once as the page is now, then at each change. */
    pageVisibility: unboundCallback<EventObject, undefined>('pageVisibility'),
    /** `userChannel` brings `conversation` events. */
    ...liveActors,
    // The conversation chart (tradeConversation.machine.ts), declared by its type: this file stands alone.
    tradeConversation: unboundChart<TradeConversationLogic>('tradeConversation'),
  },
  delays: { searchDebounce: 500 },
  actions: {
    setSearch: assign((_, params: { value: string }) => ({ search: params.value })),
    keepConversations: assign((_, params: { conversations: Conversation[] }) => ({ conversations: params.conversations })),
    upsertConversation: assign(({ context }, params: { conversation: Conversation }) => ({
      conversations: withConversation(context.conversations, params.conversation, context.search),
    })),
    /**
     * The open conversation's own report (a message or a change it heard): it knows nothing of unread counts, so
     * the entry keeps the list's.
     */
    upsertReported: assign(({ context }, params: { conversation: Conversation }) => {
      const listed = context.conversations.find((entry) => entry.channel === params.conversation.channel);
      const conversation = { ...params.conversation, unread: listed?.unread ?? params.conversation.unread };
      return { conversations: withConversation(context.conversations, conversation, context.search) };
    }),
    /** The trader has it open, so nothing in it is unread any more (the server is told at the same time). */
    clearOpenUnread: assign(({ context }) => ({ conversations: withUnread(context.conversations, context.channel, () => 0) })),
    setFilter: assign((_, params: { filter: ConversationFilter }) => ({ filter: params.filter })),
    /** Another conversation: nothing of it is shown or marked yet. */
    setChannel: assign((_, params: { channel: string }) => ({ channel: params.channel, shownUpTo: null, readUpTo: null })),
    clearChannel: assign({ channel: null, shownUpTo: null, readUpTo: null }),
    setPageVisible: assign((_, params: { visible: boolean }) => ({ pageVisible: params.visible })),
    /** Never back: a report of fewer shown (a reload under way) leaves the newest known. */
    keepShown: assign(({ context }, params: { upTo: number | null }) => ({
      shownUpTo: params.upTo === null ? context.shownUpTo : Math.max(params.upTo, context.shownUpTo ?? 0),
    })),
    /** The mark on its way reaches what is shown now. */
    keepReadUpTo: assign(({ context }) => ({ readUpTo: context.shownUpTo })),
    /** The open conversation hears what the list heard about its trade. */
    updateConversation: sendTo('conversation', (_, params: { conversation: Conversation }) => ({
      type: 'conversation.updated' as const,
      conversation: params.conversation,
    })),
  },
  guards: {
    hasConversations: ({ context }) => context.conversations.length > 0,
    ...channelGuards,
    /** The asked-for conversation is in the list, so it can open. */
    hasSelectedConversation: ({ context }) => context.conversations.some((entry) => entry.channel === context.channel),
    isListed: ({ context }, params: { channel: string }) => context.conversations.some((entry) => entry.channel === params.channel),
    /** The list's reload (the done event of its load; `and` takes no dynamic params) has the asked-for entry. */
    isSelectedReloaded: ({ context, event }) =>
      (event as unknown as { output: Conversation[] }).output.some((entry) => entry.channel === context.channel),
    isConversationOpen: stateIn('#tradeChat.selection.open'),
    isPageVisible: ({ context }) => context.pageVisible,
    /** The open conversation shows a message written to the trader: something a mark can reach. */
    hasShownMessages: ({ context }) => context.shownUpTo !== null,
    /** It shows one newer than this page's last mark reached (the list's count may not have heard of it yet). */
    hasShownSinceMark: ({ context }) => context.readUpTo !== null && context.shownUpTo !== null && context.shownUpTo > context.readUpTo,
    /** The asked-for conversation's entry counts unread messages (read while it is open). */
    hasUnreadSelected: ({ context }) => context.conversations.some((entry) => entry.channel === context.channel && entry.unread > 0),
    /** No load is running or about to: what the list holds is all it will hold for now. */
    hasListSettled: or([stateIn('#tradeChat.list.ready'), stateIn('#tradeChat.list.empty')]),
  },
}).createMachine({
  id: 'tradeChat',
  description: 'Conversations on the left (search, live updates), the selected trade on the right, and whether the connection is live.',
  context: ({ input }) => ({
    username: input.username,
    conversations: [],
    search: '',
    filter: 'all',
    channel: input.channel,
    pageVisible: true,
    shownUpTo: null,
    readUpTo: null,
  }),
  type: 'parallel',
  states: {
    // First of the regions: its subscription opens the socket before the connection is watched, so a page
    // that is about to connect does not start by saying it is offline.
    list: {
      invoke: userChannel('No live list: it shows what the loads bring.'),
      initial: 'loading',
      on: {
        'search.change': {
          target: '.debouncing',
          description: 'The search waits 500 ms of quiet before the list reloads.',
          actions: { type: 'setSearch', params: ({ event }) => ({ value: event.value }) },
        },
        'realtime.subscribed': {
          target: '.loading',
          description: 'The channel is live (first, and again after every reconnect): load again, so nothing missed stays missing.',
        },
        'realtime.conversation.received': {
          description: 'A trade opened, changed or got a message: its entry moves to the top, with the unread count it now has.',
          actions: upsertHeard,
        },
        'conversation.changed': {
          description: 'The open conversation heard a message or a change of its trade; its unread count stays the list’s.',
          actions: {
            type: 'upsertReported',
            params: ({ event }) => ({ conversation: event.conversation }),
          },
        },
        'filter.change': {
          description: 'All trades, or only the open ones: the list shows them from what it holds, without a reload.',
          actions: { type: 'setFilter', params: ({ event }) => ({ filter: event.filter }) },
        },
      },
      states: {
        debouncing: { after: { searchDebounce: { target: 'loading' } } },
        loading: {
          tags: ['busy'],
          invoke: {
            id: 'loadConversations',
            src: 'loadConversations',
            input: ({ context }) => ({ search: context.search }),
            onDone: [
              {
                guard: and(['isConversationOpen', 'isSelectedReloaded']),
                target: 'checking',
                description: 'The open conversation hears its trade as the reload has it.',
                actions: [
                  { type: 'keepConversations', params: ({ event }) => ({ conversations: event.output }) },
                  {
                    type: 'updateConversation',
                    params: ({ context, event }) => ({ conversation: event.output.find((entry) => entry.channel === context.channel)! }),
                  },
                ],
              },
              { target: 'checking', actions: { type: 'keepConversations', params: ({ event }) => ({ conversations: event.output }) } },
            ],
            onError: { target: 'checking', description: 'A chat failure clears the loading state and shows no message; the list stays.' },
          },
        },
        checking: { always: [{ guard: 'hasConversations', target: 'ready' }, { target: 'empty' }] },
        ready: {},
        empty: { always: { guard: 'hasConversations', target: 'ready', description: 'A trade opened meanwhile.' } },
      },
    },
    connection: connectionRegion(
      'The banner: whether what the channels say reaches this page now.',
      {
        on: {
          'realtime.connecting': { target: 'offline', description: 'The socket dropped and is trying again.' },
          'realtime.offline': { target: 'offline' },
        },
      },
      {
        description: '"Reconnecting…" shows.',
        on: {
          'realtime.connected': {
            target: 'live',
            description: 'Back: each channel is subscribed again, and each reloads once the server accepts it (list, messages).',
          },
        },
      },
    ),
    reading: {
      description:
        'What the open conversation shows of the unread is read while the page is in view: the count goes to 0 and the server is told up to the newest message shown, so the next load agrees. A page in a background tab marks nothing.',
      invoke: { id: 'pageVisibility', src: 'pageVisibility', onError: { description: 'No word from the page: it counts as in view.' } },
      on: {
        'page.visible': {
          description: 'The trader looks again: what arrived meanwhile is read now (idle marks it).',
          actions: { type: 'setPageVisible', params: { visible: true } },
        },
        'page.hidden': {
          description: 'A background tab or a minimized window: what arrives stays unread.',
          actions: { type: 'setPageVisible', params: { visible: false } },
        },
      },
      initial: 'idle',
      states: {
        idle: {
          always: {
            guard: readable,
            target: 'marking',
            description:
              'In view, and the open conversation shows what is unread: opened with a count, one arrived, or the page came back into view.',
          },
        },
        marking: {
          entry: ['clearOpenUnread', 'keepReadUpTo'],
          always: {
            guard: readable,
            target: 'idle',
            description: 'More arrived while the mark is on its way: this one is dropped, and idle marks again, up to the newest shown.',
          },
          invoke: {
            id: 'markRead',
            src: 'markRead',
            input: ({ context }) => ({ channel: context.channel!, upTo: context.readUpTo! }),
            onDone: { target: 'idle' },
            onError: {
              target: 'idle',
              description: 'Quietly: the list shows 0 until a load brings the count the server still has, which marks it again.',
            },
          },
        },
      },
    },
    selection: {
      initial: 'none',
      on: {
        'conversation.select': [
          { guard: { type: 'isCurrentChannel', params: ({ event }) => ({ channel: event.channel }) }, description: 'Already there.' },
          {
            guard: { type: 'isListed', params: ({ event }) => ({ channel: event.channel }) },
            target: '.open',
            actions: { type: 'setChannel', params: ({ event }) => ({ channel: event.channel }) },
          },
          { target: '.waiting', actions: { type: 'setChannel', params: ({ event }) => ({ channel: event.channel }) } },
        ],
        'conversation.close': { target: '.none', description: 'Back to the list (small screens).', actions: 'clearChannel' },
      },
      states: {
        none: noneChosen('"Select a conversation".', 'waiting', 'The page was opened on a conversation.'),
        waiting: {
          description: 'A spinner: the asked-for conversation is not in the list yet (it is loading).',
          always: [
            { guard: 'hasSelectedConversation', target: 'open' },
            { guard: 'hasListSettled', target: 'none', description: 'Not one of this trader’s conversations.', actions: 'clearChannel' },
          ],
        },
        open: {
          invoke: {
            id: 'conversation',
            src: 'tradeConversation',
            input: ({ context }) => ({
              conversation: context.conversations.find((entry) => entry.channel === context.channel)!,
              username: context.username,
            }),
            onError: { target: 'none', actions: 'clearChannel' },
          },
          on: {
            'conversation.shown': {
              guard: { type: 'isCurrentChannel', params: ({ event }) => ({ channel: event.channel }) },
              description: 'Its messages loaded, or one arrived: the read mark may reach the newest written to the trader.',
              actions: { type: 'keepShown', params: ({ event }) => ({ upTo: event.upTo }) },
            },
            'realtime.conversation.received': {
              guard: { type: 'isCurrentChannel', params: ({ event }) => ({ channel: event.conversation.channel }) },
              actions: { type: 'updateConversation', params: ({ event }) => ({ conversation: event.conversation }) },
            },
          },
        },
      },
    },
  },
});
