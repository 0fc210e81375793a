/** Wallet answers for the dashboard and live price tests, shaped by the zod contracts. */
import type { WalletItem } from '../../contracts/index.ts';

export const btcWallet: WalletItem = {
  id: 1,
  balance: '0.50000000',
  coin__price: '60000.00',
  coin__ticker: 'BTC',
  coin__label: 'Bitcoin',
  coin__image: '/coins/btc.svg',
  coin__decimal_places: 8,
};
export const ethWallet: WalletItem = {
  id: 2,
  balance: '2.000000000000000000',
  coin__price: '3000.10',
  coin__ticker: 'ETH',
  coin__label: 'Ethereum',
  coin__image: '/coins/eth.svg',
  coin__decimal_places: 18,
};
/** One wallet per coin, as `user/wallet/` lists them. */
export const wallets: WalletItem[] = [btcWallet, ethWallet];
