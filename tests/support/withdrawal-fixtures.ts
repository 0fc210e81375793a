/** Answers for the Withdraw screen's tests (`addresses`, `preview_withdrawal`), shaped by the zod contracts. */
import type { WalletAddressEntry, WalletNetwork, WithdrawalPreview } from '../../contracts/index.ts';
import { btcEntry, ethEntry } from './wallet-fixtures.ts';

/** Bitcoin (one network, chosen for the trader, 0.5 BTC at 60,000.00) and Ethereum (18 places, a price whose quotients do not end): the Wallets screen's. */
export { btcEntry, ethEntry };

const network = (id: number, key: WalletNetwork['key'], name: string, address: string): WalletNetwork => ({
  id,
  key,
  name,
  image: `/networks/${key}.svg`,
  address,
  confirmations: 1,
});

/** Tether: two networks (the trader must choose), 6 places. */
export const usdtEntry: WalletAddressEntry = {
  coin: { id: 3, label: 'Tether', ticker: 'USDT', image: '/coins/usdt.svg', price: '1.00', decimal_places: 6 },
  balance: '250.000000',
  networks: [
    network(2, 'ethereum', 'Ethereum (ERC-20)', '0x00000000000000000000000000000000000000Aa'),
    network(3, 'tron', 'Tron (TRC-20)', 'TOwnAddress000000000000000000000000'),
  ],
};

export const withdrawalCoins: WalletAddressEntry[] = [btcEntry, ethEntry, usdtEntry];

/** Valid-looking recipients; the server, not the form, checks an address against its network. */
export const btcRecipient = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
export const tronRecipient = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';

/** The server's preview of 0.01 BTC: a 0.00002 BTC network fee. */
export const btcPreview: WithdrawalPreview = {
  fee_usd: '1.20',
  fee_crypto: '0.00002000',
  amount_crypto: '0.01000000',
  amount_usd: '600.00',
  receive_crypto: '0.00998000',
  scope: 'external',
  expires: '2026-11-20T10:02:00.000Z',
};

/**
 * The server's preview of 600 USD of Bitcoin, converted at its price of the moment (60,150.00, not the 60,000.00
 * the page read): 0.00997506 BTC, worth 600.00 USD at that price; the same 0.00002 BTC fee.
 */
export const btcUsdPreview: WithdrawalPreview = {
  fee_usd: '1.20',
  fee_crypto: '0.00002000',
  amount_crypto: '0.00997506',
  amount_usd: '600.00',
  receive_crypto: '0.00995506',
  scope: 'external',
  expires: '2026-11-20T10:02:00.000Z',
};

/** The server's preview of 100 USDT on Tron: 1 USDT fee. */
export const usdtPreview: WithdrawalPreview = {
  fee_usd: '1.00',
  fee_crypto: '1.000000',
  amount_crypto: '100.000000',
  amount_usd: '100.00',
  receive_crypto: '99.000000',
  scope: 'external',
  expires: '2026-11-20T10:02:00.000Z',
};

/** The server's sentence for a confirmed withdrawal. */
export const confirmedText = 'Your withdrawal of 0.01 BTC is on its way.';
