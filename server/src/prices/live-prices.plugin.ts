import { COIN_PRICE_CHANNEL, realtimeEvents, type PriceEvent } from '../../../contracts/chat.ts';
import { shared } from '../infra/shared.ts';

/**
 * Tier 3: `coin_price` gets a `price` event for every coin on every tick that changed something
 * (docs/api.md "Realtime"), so wallets and cards follow the market without asking.
 */
export const livePricesPlugin = shared('peerex-live-prices', async (app) => {
  const stop = app.prices.subscribe(() => {
    for (const [ticker, price] of app.prices.current()) {
      app.realtime.publish(COIN_PRICE_CHANNEL, realtimeEvents.price, { ticker, price } satisfies PriceEvent);
    }
  });
  app.addHook('onClose', async () => stop());
});
