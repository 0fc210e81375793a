import type { EventObject } from 'xstate';
import { unboundCallback } from './unbound.ts';

/**
 * The pieces of the charts that follow the tab's realtime connection (the bell, the chat list), so each says
 * once what they do alike while staying one file the Stately visualizer loads on its own: the trader's own
 * channel, and the region that tells whether the connection reaches the page. The names a chart declares in
 * `setup` are those of `liveActors`, bound by shared/channels.ts's helpers in the chart's `.actors.ts`.
 */

/** The socket's state as the binding's `watchConnection` actor tells it. */
export type ConnectionEvent = { type: 'realtime.connecting' } | { type: 'realtime.connected' } | { type: 'realtime.offline' };

/** The subscriptions, for the chart's `setup`: the trader's own channel (`private-user-<username>`) and the socket's state. */
export const liveActors = {
  /** `realtime.subscribed` on each (re)join, and the events the chart's binding reads from the channel. */
  userChannel: unboundCallback<EventObject, { username: string }>('userChannel'),
  /** The socket's state: `realtime.connecting` / `connected` / `offline`. */
  watchConnection: unboundCallback<EventObject>('watchConnection'),
};

/**
 * The trader's own channel, invoked by the region whose list it keeps current (leaving the region ends it);
 * `onError` says what the list shows without it.
 */
export const userChannel = (onError: string) => ({
  id: 'userChannel',
  src: 'userChannel' as const,
  input: ({ context }: { context: { username: string } }) => ({ username: context.username }),
  onError: { description: onError },
});

/**
 * The region that tells whether the channels reach the page: connecting at first, then `live` or `offline` as
 * the socket goes (each chart words the two, and what moves it between them); no socket at all is offline.
 */
export const connectionRegion = <const Live, const Offline>(description: string, live: Live, offline: Offline) => ({
  description,
  invoke: { id: 'connection', src: 'watchConnection' as const, onError: { target: '.offline' } },
  initial: 'connecting' as const,
  states: {
    connecting: { on: { 'realtime.connected': { target: 'live' }, 'realtime.offline': { target: 'offline' } } },
    live,
    offline,
  },
});

/**
 * The connection region of a chart that only says where the socket stands (the bell, the operators' overview):
 * `live` and `offline` follow the socket as it goes, back to `connecting` while it tries again; the chart words
 * the region and each of the two.
 */
export const socketRegion = (description: string, live: string, offline: string) =>
  connectionRegion(
    description,
    { description: live, on: { 'realtime.offline': { target: 'offline' }, 'realtime.connecting': { target: 'connecting' } } },
    { description: offline, on: { 'realtime.connected': { target: 'live' }, 'realtime.connecting': { target: 'connecting' } } },
  );

/**
 * The transitions of a state that shows what was last read until the channel tells of a change or of being joined
 * again (`told`: each event with what it means): to `target` (by default `refreshing`, a sibling that reads again),
 * entered anew when the chart is in it already (`reenter`: a read on its way may have read before the change).
 */
export const readAgainOn = <const Told extends string, const Target extends string = 'refreshing'>(
  told: Record<Told, string>,
  { target = 'refreshing' as Target, reenter = false }: { target?: Target; reenter?: boolean } = {},
) =>
  Object.fromEntries(
    Object.entries(told).map(([event, description]) => [event, { target, ...(reenter ? { reenter: true } : {}), description }]),
  ) as Record<Told, { target: Target; reenter?: true; description: string }>;

/**
 * A state that shows what was last read until it is read again (`refreshing`, a sibling): when a change made here
 * marked it stale (the chart's guard `stale`; `staleWhy` says which change), or when the channel tells of a
 * change or of being joined again (`told`: each event with what it means).
 */
export const readAgainWhen = <const Stale extends string, const Told extends string>(stale: Stale, staleWhy: string, told: Record<Told, string>) => ({
  always: { guard: stale, target: 'refreshing' as const, description: staleWhy },
  on: readAgainOn(told),
});

/**
 * What the trader's own channel tells the screens of their wallet (My Wallets, Deposit, Recent Transactions),
 * as shared/channels.ts `walletChanges` binds it: `wallet` (a balance or a history row changed, docs/api.md
 * "Realtime") and each (re)join.
 */
export type WalletChannelEvent = { type: 'realtime.wallet.changed' } | { type: 'realtime.subscribed' };

/** What each of those events means to a wallet screen: what it shows is read again (`readAgainOn`). */
export const walletTold = {
  'realtime.wallet.changed':
    'The server says a balance or a history row of the trader changed (a deposit seen or credited, a withdrawal held or settled, a trade’s escrow moved): read again now.',
  'realtime.subscribed': 'The channel was joined (again, after a reconnect): read again, so a change told before the join is not missed.',
} as const;
