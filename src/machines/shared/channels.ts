import { fromCallback, type EventObject } from 'xstate';
import { z } from 'zod/mini';
import type { ConnectionState, RealtimeService } from '../../services/realtime.ts';
import { realtimeEvents, userChannelName, walletEvent } from '../../../contracts/index.ts';
import type { ConnectionEvent, WalletChannelEvent } from './liveRegions.ts';

/**
 * What the bindings of the live charts (the bell, the chat, the dispute desk) use alike to hand the tab's
 * realtime connection to their chart. For the bindings only: a chart's own file never imports this one.
 */

/** A realtime payload handed to the chart only if it is what the contract says; anything else is dropped. */
export const parsed =
  <T>(schema: z.ZodMiniType<T>, deliver: (value: T) => void) =>
  (data: unknown) => {
    const result = z.safeParse(schema, data);
    if (result.success) deliver(result.data);
  };

const connectionEvents: Record<ConnectionState, ConnectionEvent> = {
  connecting: { type: 'realtime.connecting' },
  connected: { type: 'realtime.connected' },
  offline: { type: 'realtime.offline' },
};

/** The `watchConnection` actor of a chart's connection region (shared/liveRegions.ts): the socket's state until the region ends. */
export const watchingConnection = (realtime: Pick<RealtimeService, 'watchConnection'>) =>
  fromCallback<EventObject>(({ sendBack }) => realtime.watchConnection((state) => sendBack(connectionEvents[state])));

/**
 * The `userChannel` actor of a wallet screen (shared/liveRegions.ts `walletTold`): `realtime.wallet.changed` on each
 * `wallet` event of the trader's own channel, `realtime.subscribed` on each (re)join, until the state that invoked it ends.
 */
export const walletChanges = (realtime: Pick<RealtimeService, 'subscribe'>) =>
  fromCallback<EventObject, { username: string }>(({ input, sendBack }) => {
    const send = (event: WalletChannelEvent) => sendBack(event);
    return realtime.subscribe(userChannelName(input.username), {
      events: { [realtimeEvents.wallet]: parsed(walletEvent, () => send({ type: 'realtime.wallet.changed' })) },
      onSubscribed: () => send({ type: 'realtime.subscribed' }),
    });
  });
