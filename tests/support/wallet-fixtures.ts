/**
 * Answers of `user/wallet/` for the Wallets and Deposit screens' tests, shaped by the zod contracts. The
 * addresses are index 0 of the BIPs' published "abandon … about" test mnemonic on each network (as
 * tests/server/wallet-keys.test.ts derives them): real, well-formed, and owned by nobody.
 */
import type { BuiltInNetworkKey, WalletAddressEntry, WalletItem, WalletNetwork } from '../../contracts/index.ts';
import { btcWallet, ethWallet } from './wallets.ts';

export const addresses = {
  bitcoin: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
  ethereum: '0x9858EfFD232B4033E47d90003D41EC34EcaEda94',
  tron: 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH',
  litecoin: 'ltc1qjmxnz78nmc8nq77wuxh25n2es7rzm5c2rkk4wh',
} as const;

const network = (id: number, key: BuiltInNetworkKey, name: string, image: string): WalletNetwork => ({
  id,
  key,
  name,
  image,
  address: addresses[key],
  confirmations: key === 'ethereum' ? 12 : 1,
});

export const btcEntry: WalletAddressEntry = {
  coin: { id: 1, label: 'Bitcoin', ticker: 'BTC', image: '/coins/btc.svg', price: '60000.00', decimal_places: 8 },
  balance: '0.50000000',
  networks: [network(1, 'bitcoin', 'Bitcoin', '/coins/btc.svg')],
};
export const ethEntry: WalletAddressEntry = {
  coin: { id: 2, label: 'Ethereum', ticker: 'ETH', image: '/coins/eth.svg', price: '3000.10', decimal_places: 18 },
  balance: '2.000000000000000000',
  networks: [network(2, 'ethereum', 'Ethereum (ERC20)', '/coins/eth.svg')],
};
/** The one coin on two networks: the trader picks ERC20 or TRC20. */
export const usdtEntry: WalletAddressEntry = {
  coin: { id: 3, label: 'Tether', ticker: 'USDT', image: '/coins/usdt.svg', price: '1.00', decimal_places: 6 },
  balance: '1500.000000',
  networks: [network(3, 'ethereum', 'Ethereum (ERC20)', '/coins/eth.svg'), network(4, 'tron', 'Tron (TRC20)', '/coins/trx.svg')],
};
export const ltcEntry: WalletAddressEntry = {
  coin: { id: 4, label: 'Litecoin', ticker: 'LTC', image: '/coins/ltc.svg', price: '80.25', decimal_places: 8 },
  balance: '0.00000000',
  networks: [network(5, 'litecoin', 'Litecoin', '/coins/ltc.svg')],
};
/** One entry per coin, as `addresses` answers. */
export const addressEntries: WalletAddressEntry[] = [btcEntry, ethEntry, usdtEntry, ltcEntry];

export const usdtWallet: WalletItem = {
  id: 3,
  balance: '1500.000000',
  coin__price: '1.00',
  coin__ticker: 'USDT',
  coin__label: 'Tether',
  coin__image: '/coins/usdt.svg',
  coin__decimal_places: 6,
};
/** 0.5 BTC at 60,000.00, 2 ETH at 3,000.10 and 1,500 USDT at 1.00: 37,500.20 USD. */
export const walletList: WalletItem[] = [btcWallet, ethWallet, usdtWallet];
export const walletListTotal = '37500.2';

/** The list after a 0.25 BTC deposit was credited (15,000.00 USD more at the list's price). */
export const creditedList: WalletItem[] = [{ ...btcWallet, balance: '0.75000000' }, ethWallet, usdtWallet];
