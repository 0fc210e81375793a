import type { SnapshotFrom } from 'xstate';
import type { WalletItem } from '../../../contracts/index.ts';
import { compareDecimal } from '../../../domain/money.ts';
import { multiplyDecimals, sumDecimals } from '../../../domain/decimal.ts';
import type { LivePrice, PriceDirection } from '../livePrices/livePrices.machine.ts';
import { livePricesOf, type LivePrices } from '../livePrices/livePrices.selectors.ts';
import type { WalletsContext, walletsMachine } from './wallets.machine.ts';

type WalletsSnapshot = SnapshotFrom<typeof walletsMachine>;

/** The first list is on its way (again, after a failure): nothing to show yet. */
export const selectIsLoading = (snapshot: WalletsSnapshot) => snapshot.hasTag('busy');
export const selectWallets = (snapshot: WalletsSnapshot) => snapshot.context.wallets;
/** The show/hide toggle is on "hide": balances, USD values and the total show as dots. */
export const selectIsMasked = (snapshot: WalletsSnapshot) => snapshot.matches({ visibility: 'hidden' });
export const selectTotal = (snapshot: WalletsSnapshot) => snapshot.context.total;
export const selectTotalDirection = (snapshot: WalletsSnapshot) => snapshot.context.totalDirection;
/** The live prices of the trader's coins, once the wallet list has loaded. */
export const selectLivePrices = (snapshot: WalletsSnapshot) => livePricesOf(snapshot);

/** A coin's price as shown: the live one, or the list's until the channel has said anything. */
export const livePriceOf = (wallet: WalletItem, prices: LivePrices | undefined): LivePrice =>
  prices?.[wallet.coin__ticker] ?? { price: wallet.coin__price, direction: null };

/** The USD value of a holding at a price: exact, rounded only where shown. */
export const holdingValue = (wallet: WalletItem, price: string) => multiplyDecimals(wallet.balance, price);

/** Σ balance × price, each coin at the price known for it (the list's when none other is). */
export const portfolioTotal = (wallets: readonly WalletItem[], prices: Readonly<Record<string, string>>) =>
  sumDecimals(wallets.map((wallet) => holdingValue(wallet, prices[wallet.coin__ticker] ?? wallet.coin__price)));

/**
 * The total recomputed from the chart's context, with its move against the total before it (as prices
 * move on the coin_price channel, docs/api.md "Realtime"): up when higher, down when lower; equal keeps the last move; none before a previous total.
 */
export function recomputedTotal(context: WalletsContext): Pick<WalletsContext, 'total' | 'totalDirection'> {
  if (context.wallets === null) return { total: context.total, totalDirection: context.totalDirection };
  const total = portfolioTotal(context.wallets, context.prices);
  const order = context.total === null ? 0 : compareDecimal(total, context.total);
  const totalDirection: PriceDirection | null = order > 0 ? 'up' : order < 0 ? 'down' : context.totalDirection;
  return { total, totalDirection };
}
