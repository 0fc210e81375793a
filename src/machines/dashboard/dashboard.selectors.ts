import type { SnapshotFrom } from 'xstate';
import type { Overview, WalletItem } from '../../../contracts/index.ts';
import { multiplyDecimals, subtractDecimals, sumDecimals } from '../../../domain/decimal.ts';
import { livePricesOf, type LivePrices } from '../livePrices/livePrices.selectors.ts';
import type { dashboardMachine } from './dashboard.machine.ts';

type DashboardSnapshot = SnapshotFrom<typeof dashboardMachine>;

export const selectIsLoading = (snapshot: DashboardSnapshot) => snapshot.hasTag('busy');
export const selectOverview = (snapshot: DashboardSnapshot) => snapshot.context.overview;
export const selectWallets = (snapshot: DashboardSnapshot) => snapshot.context.wallets;
/** The wallet list could not load: the live prices panel says so. */
export const selectPricesUnavailable = (snapshot: DashboardSnapshot) => snapshot.matches({ wallets: 'unavailable' });
/** The live prices of the trader's coins, once the wallet list has loaded. */
export const selectLivePrices = (snapshot: DashboardSnapshot) => livePricesOf(snapshot);

/**
 * Total Balance at live prices, an exact decimal string (rounded only where shown); null: none known.
 *
 * The overview's total counts coins in escrow, which the wallet list's available balances leave out, so the
 * live total is the overview's figure moved by what the available balances gained or lost since the wallet
 * list's prices: overview + Σ balance × (live − listed). Escrow thus stays at its starting price rather than
 * vanishing from the total at the first tick. Without an overview it is Σ balance × live; without the
 * wallets, the overview's figure.
 */
export function liveTotalBalance(overview: Overview | null, wallets: WalletItem[] | null, prices: LivePrices | undefined): string | null {
  if (!wallets) return overview?.total_balance ?? null;
  const priceOf = (wallet: WalletItem) => prices?.[wallet.coin__ticker]?.price ?? wallet.coin__price;
  if (!overview) return sumDecimals(wallets.map((wallet) => multiplyDecimals(wallet.balance, priceOf(wallet))));
  const moves = wallets.map((wallet) => multiplyDecimals(wallet.balance, subtractDecimals(priceOf(wallet), wallet.coin__price)));
  return sumDecimals([overview.total_balance, ...moves]);
}
