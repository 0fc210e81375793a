import { assign, enqueueActions, fromCallback, fromPromise, type EventObject } from 'xstate';
import {
  TRADE_EVENTS,
  chatMessage,
  conversation,
  realtimeEvents,
  tradeChannelName,
  tradeEvent,
  typingEvent,
  userChannelName,
  type TradeAction,
  type TradeFacts,
} from '../../../contracts/index.ts';
import { factsAfter, laterFacts, stageOf } from '../../../domain/tradeLifecycle/tradeLifecycle.ts';
import { parsed, watchingConnection } from '../shared/channels.ts';
import type { FlowDeps } from '../shared/deps.ts';
import { tradeChatMachine, type TradeChatEvent } from './tradeChat.machine.ts';
import { chatRules, ratingRules } from './tradeChat.rules.ts';
import { tradeConversationMachine, type TradeChannelEvent } from './tradeConversation.machine.ts';
import { tradeRatingMachine } from './tradeRating.machine.ts';

/** The rating form with its rule: what every use of it, tests included, starts from. */
export const tradeRatingLogic = tradeRatingMachine.provide({ guards: ratingRules });

export const bindTradeRating = (deps: FlowDeps) =>
  tradeRatingLogic.provide({
    actors: { rate: fromPromise(({ input }) => deps.trades.rate(input)) },
    actions: { notify: (_, params) => deps.notify(params) },
  });

/**
 * The conversation chart with its rules: what every use of it, tests included, starts from. Its trade region
 * follows the lifecycle chart of domain/tradeLifecycle, the one the server consults: the chart's state for the
 * facts as known, whether facts heard are later than those known, and the facts an accepted action leaves all
 * come from there.
 */
export const tradeConversationLogic = tradeConversationMachine.provide({
  guards: chatRules,
  actions: {
    keepFacts: enqueueActions(({ context, enqueue }, heard: TradeFacts) =>
      enqueue.assign({ conversation: { ...context.conversation, ...laterFacts(context.conversation, heard) } }),
    ),
    followLifecycle: enqueueActions(({ context, enqueue }) => enqueue.raise({ type: `lifecycle.${stageOf(context.conversation)}` })),
    keepAccepted: enqueueActions(({ enqueue }, params: { action: TradeAction }) => {
      enqueue({ type: 'keepFacts', params: factsAfter(params.action) });
      enqueue('followLifecycle');
    }),
    tick: assign({ now: () => new Date().toISOString() }),
  },
  actors: { tradeRating: tradeRatingLogic },
});

export const bindTradeConversation = (deps: FlowDeps) =>
  tradeConversationLogic.provide({
    actors: {
      // Leaving the conversation ends the subscription: the returned function unbinds.
      tradeChannel: fromCallback<EventObject, { channel: string }>(({ input, sendBack }) => {
        const send = (event: TradeChannelEvent) => sendBack(event);
        const tradeChanged = parsed(tradeEvent, ({ status, buyer_paid, dispute_raised, message }) =>
          send({ type: 'realtime.trade.changed', facts: { status, buyer_paid, dispute_raised }, message }),
        );
        return deps.realtime.subscribe(tradeChannelName(input.channel), {
          events: {
            [realtimeEvents.newMessage]: parsed(chatMessage, (message) => send({ type: 'realtime.message.received', message })),
            [realtimeEvents.typing]: parsed(typingEvent, ({ username }) => send({ type: 'realtime.typing.received', username })),
            ...Object.fromEntries(TRADE_EVENTS.map((name) => [name, tradeChanged])),
          },
          onSubscribed: () => send({ type: 'realtime.subscribed' }),
        });
      }),
      loadMessages: fromPromise(({ input }) => deps.chat.messages(input)),
      sendMessage: fromPromise(({ input }) => deps.chat.send(input)),
      sendTyping: fromPromise(({ input }) => deps.chat.typing(input)),
      loadSummary: fromPromise(({ input }) => deps.chat.summary(input)),
      performAction: fromPromise(({ input }) => deps.trades.act(input)),
      releaseProof: fromPromise(() => deps.trades.releaseProof()),
      releaseCoin: fromPromise(({ input }) => deps.trades.release(input)),
      tradeRating: bindTradeRating(deps),
    },
    actions: { notify: (_, params) => deps.notify(params) },
  });

export const bindTradeChat = (deps: FlowDeps) =>
  tradeChatMachine.provide({
    actors: {
      loadConversations: fromPromise(({ input }) => deps.chat.conversations(input)),
      markRead: fromPromise(({ input }) => deps.chat.markRead(input)),
      // The page's visibility, now and at each change, so a background tab marks nothing read (the chart's `reading`).
      pageVisibility: fromCallback<EventObject, undefined>(({ sendBack }) => {
        const tell = () => sendBack({ type: document.visibilityState === 'hidden' ? 'page.hidden' : 'page.visible' } satisfies TradeChatEvent);
        tell();
        document.addEventListener('visibilitychange', tell);
        return () => document.removeEventListener('visibilitychange', tell);
      }),
      userChannel: fromCallback<EventObject, { username: string }>(({ input, sendBack }) =>
        deps.realtime.subscribe(userChannelName(input.username), {
          events: {
            [realtimeEvents.conversation]: parsed(conversation, (entry) =>
              sendBack({ type: 'realtime.conversation.received', conversation: entry } satisfies TradeChatEvent),
            ),
          },
          onSubscribed: () => sendBack({ type: 'realtime.subscribed' } satisfies TradeChatEvent),
        }),
      ),
      watchConnection: watchingConnection(deps.realtime),
      tradeConversation: bindTradeConversation(deps),
    },
  });
