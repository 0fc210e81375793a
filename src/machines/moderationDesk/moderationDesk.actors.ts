import { assign, fromCallback, fromPromise, type EventObject } from 'xstate';
import { MODERATION_CHANNEL, TRADE_EVENTS, chatMessage, moderationEvent, realtimeEvents, tradeChannelName } from '../../../contracts/index.ts';
import { parsed } from '../shared/channels.ts';
import type { FlowDeps } from '../shared/deps.ts';
import { moderationDeskMachine, type ModerationChannelEvent } from './moderationDesk.machine.ts';
import { deskRules, settled } from './moderationDesk.rules.ts';

/** The events on a trade's channel that change its facts: the parties' four, and a moderator's settlement. */
const FACT_EVENTS = [...TRADE_EVENTS, realtimeEvents.disputeResolved];

/** The desk's chart with its rules and the browser's clock: what every use of it, tests included, starts from. */
export const moderationDeskLogic = moderationDeskMachine.provide({
  guards: deskRules,
  actions: {
    tick: assign({ now: () => Date.now() }),
    settle: assign(({ context }, params: { outcome: 'release' | 'refund'; text: string }) => ({
      detail: context.detail && settled(context.detail, params.outcome, params.text, new Date().toISOString()),
    })),
  },
});

export const bindModerationDesk = (deps: FlowDeps) =>
  moderationDeskLogic.provide({
    actors: {
      loadDisputes: fromPromise(() => deps.moderation.list()),
      loadDispute: fromPromise(({ input }) => deps.moderation.get(input)),
      sendMessage: fromPromise(({ input }) => deps.moderation.message(input)),
      resolveDispute: fromPromise(({ input }) => deps.moderation.resolve(input)),
      // Leaving the page ends the subscription: the returned function unbinds.
      moderationChannel: fromCallback<EventObject>(({ sendBack }) => {
        const send = (event: ModerationChannelEvent) => sendBack(event);
        const changed = parsed(moderationEvent, ({ channel }) => send({ type: 'realtime.dispute.changed', channel }));
        return deps.realtime.subscribe(MODERATION_CHANNEL, {
          events: { [realtimeEvents.disputeRaised]: changed, [realtimeEvents.disputeResolved]: changed },
          onSubscribed: () => send({ type: 'realtime.disputes.subscribed' }),
        });
      }),
      // Leaving the dispute ends the subscription.
      tradeChannel: fromCallback<EventObject, { channel: string }>(({ input, sendBack }) => {
        const send = (event: ModerationChannelEvent) => sendBack(event);
        // Any of them means the facts moved: they are read again whole, so the payload need not be trusted.
        const changed = () => send({ type: 'realtime.trade.changed' });
        return deps.realtime.subscribe(tradeChannelName(input.channel), {
          events: {
            [realtimeEvents.newMessage]: parsed(chatMessage, (message) => send({ type: 'realtime.message.received', message })),
            ...Object.fromEntries(FACT_EVENTS.map((name) => [name, changed])),
          },
          onSubscribed: () => send({ type: 'realtime.trade.subscribed' }),
        });
      }),
    },
    actions: {
      notifySettled: (_, params) => deps.notify({ title: 'Dispute settled', description: params.info, type: 'success' }),
    },
  });
