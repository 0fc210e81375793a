/**
 * The product's reference data: the coins, networks, fiat currencies and payment methods every screen
 * offers. Not demo data: a production database needs them too, so they are seeded whenever their table
 * is empty (see `seedReference`), whatever SEED_DEMO says. An operator can change them afterwards; the
 * seed never overwrites.
 */

/** Starting prices in USD; the price feed moves them. Storage places: USDT has 6 on-chain, the rest 8. */
export const REFERENCE_COINS = [
  { label: 'Bitcoin', ticker: 'BTC', decimal_places: 8, usd_price: '97000.00', image: '/coins/btc.svg' },
  { label: 'Ethereum', ticker: 'ETH', decimal_places: 8, usd_price: '3400.00', image: '/coins/eth.svg' },
  { label: 'Tether', ticker: 'USDT', decimal_places: 6, usd_price: '1.00', image: '/coins/usdt.svg' },
  { label: 'Litecoin', ticker: 'LTC', decimal_places: 8, usd_price: '95.00', image: '/coins/ltc.svg' },
] as const;

/**
 * Where each coin travels. `key` names the chain (docs/api.md "User calls"): its address format and derivation
 * (server/src/wallets/networks.ts). `withdrawal_fee` is the network fee a withdrawal pays, in the coin.
 */
export const REFERENCE_NETWORKS: ReadonlyArray<{ ticker: string; name: string; key: string; image: string; withdrawal_fee: string }> = [
  { ticker: 'BTC', name: 'Bitcoin', key: 'bitcoin', image: '/coins/btc.svg', withdrawal_fee: '0.00005' },
  { ticker: 'ETH', name: 'Ethereum (ERC20)', key: 'ethereum', image: '/coins/eth.svg', withdrawal_fee: '0.0008' },
  { ticker: 'USDT', name: 'Ethereum (ERC20)', key: 'ethereum', image: '/coins/eth.svg', withdrawal_fee: '3' },
  { ticker: 'USDT', name: 'Tron (TRC20)', key: 'tron', image: '/coins/trx.svg', withdrawal_fee: '1' },
  { ticker: 'LTC', name: 'Litecoin', key: 'litecoin', image: '/coins/ltc.svg', withdrawal_fee: '0.001' },
];

/** Units per 1 USD, late 2026 ballpark. */
export const REFERENCE_FIAT = [
  { code: 'USD', name: 'US Dollar', usd_rate: '1' },
  { code: 'EUR', name: 'Euro', usd_rate: '0.92' },
  { code: 'GBP', name: 'British Pound', usd_rate: '0.79' },
  { code: 'NGN', name: 'Nigerian Naira', usd_rate: '1650.00' },
  { code: 'KES', name: 'Kenyan Shilling', usd_rate: '129.20' },
  { code: 'INR', name: 'Indian Rupee', usd_rate: '84.50' },
  { code: 'BRL', name: 'Brazilian Real', usd_rate: '5.80' },
] as const;

export const REFERENCE_PAYMENT_METHODS = [
  'Bank Transfer',
  'SEPA',
  'Revolut',
  'Wise',
  'PayPal',
  'M-Pesa',
  'UPI',
  'Pix',
  'Cash in Person',
] as const;
