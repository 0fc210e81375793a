import type { WalletItem } from '../../../contracts/index.ts';

/**
 * The live prices chart's input on the screens that list the trader's wallets (the dashboard, My Wallets): each
 * coin's USD price as the list was read, where the coin_price channel takes over; none before the list arrives.
 */
export const walletPrices = ({ context }: { context: { wallets: WalletItem[] | null } }) => ({
  prices: (context.wallets ?? []).map((wallet) => ({ ticker: wallet.coin__ticker, price: wallet.coin__price })),
});
