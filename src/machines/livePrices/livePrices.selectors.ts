import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { LivePrice, livePricesMachine } from './livePrices.machine.ts';

type LivePricesSnapshot = SnapshotFrom<typeof livePricesMachine>;
export type LivePricesRef = ActorRefFrom<typeof livePricesMachine>;
export type LivePrices = Record<string, LivePrice>;

/** Each coin's price and last move, by ticker. */
export const selectPrices = (snapshot: LivePricesSnapshot): LivePrices => snapshot.context.prices;
/** The server has accepted the subscription and the connection is up: the prices move as they change. */
export const selectIsLive = (snapshot: LivePricesSnapshot) => snapshot.matches('live');

/** The live prices a screen's chart invoked (its child `livePrices`), while the state that shows prices is active. */
export const livePricesOf = (snapshot: { children: Record<string, unknown> }): LivePricesRef | undefined =>
  snapshot.children.livePrices as LivePricesRef | undefined;
