import { and, assign, or, sendTo, setup, stateIn } from 'xstate';
import type { Conversation } from '../../../contracts/index.ts';
import { channelGuards, noneChosen } from '../shared/channelSelection.ts';
import { connectionRegion, liveActors, userChannel, type ConnectionEvent } from '../shared/liveRegions.ts';
import { unboundChart, unboundPromise } from '../shared/unbound.ts';
import type { ConversationReport, TradeConversationLogic } from './tradeConversation.machine.ts';

export type TradeChatInput = {
  username: string;
  /** The conversation the page was opened on (`/chat?channel=`), if any. */
  channel: string | null;
};

export type TradeChatContext = {
  username: string;
  /** The list as the last load and the live updates left it, latest activity first. */
  conversations: Conversation[];
  search: string;
  /** The conversation asked for: open, or waiting for the list to bring it. */
  channel: string | null;
};

export type TradeChatEvent =
  | { type: 'conversation.select'; channel: string }
  | { type: 'conversation.close' }
  | { type: 'search.change'; value: string }
  | ConnectionEvent
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

/** A conversation heard (on the trader's channel, or by the open conversation): its entry moves to the top. */
const upsertHeard = {
  type: 'upsertConversation',
  params: ({ event }: { event: { conversation: Conversation } }) => ({ conversation: event.conversation }),
} as const;

/** /chat: the conversation list, the live connection, and the selected trade's conversation as a child chart. */
export const tradeChatMachine = setup({
  types: { context: {} as TradeChatContext, events: {} as TradeChatEvent, input: {} as TradeChatInput },
  actors: {
    loadConversations: unboundPromise<Conversation[], { search: string }>('loadConversations'),
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
    setChannel: assign((_, params: { channel: string }) => ({ channel: params.channel })),
    clearChannel: assign({ channel: null }),
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
    /** No load is running or about to: what the list holds is all it will hold for now. */
    hasListSettled: or([stateIn('#tradeChat.list.ready'), stateIn('#tradeChat.list.empty')]),
  },
}).createMachine({
  id: 'tradeChat',
  description: 'Conversations on the left (search, live updates), the selected trade on the right, and whether the connection is live.',
  context: ({ input }) => ({ username: input.username, conversations: [], search: '', channel: input.channel }),
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
        'realtime.conversation.received': { description: 'A trade opened, changed or got a message: its entry moves to the top.', actions: upsertHeard },
        'conversation.changed': { description: 'The open conversation heard a message or a change of its trade.', actions: upsertHeard },
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
