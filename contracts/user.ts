import { z } from 'zod/mini';
import { apiNames, decimalString } from './common.ts';

export const tradeStatus = z.enum(['pending', 'completed', 'cancelled']);
export type TradeStatus = z.infer<typeof tradeStatus>;

export const recentTrade = z.object({
  id: z.union([z.string(), z.number()]),
  trade_type: z.enum(['buy', 'sell']),
  amount_crypto: decimalString,
  status: z.string(),
  created: z.string(),
  offer__coin__image: z.string(),
  offer__coin__decimal_places: z.int(),
  offer__coin__ticker: z.string(),
});
export type RecentTrade = z.infer<typeof recentTrade>;

/** user/overview/ — total_balance is USD as a decimal string with 2 places. */
export const overview = z.object({
  total_balance: decimalString,
  active_offers: z.int(),
  completed_trades: z.int(),
  open_chats: z.int(),
  recent_trades: z.array(recentTrade),
}).register(apiNames, { id: 'Overview' });
export type Overview = z.infer<typeof overview>;
