import type { Db } from './db/db.ts';
import type { AppKeys } from './lib/secrets.ts';
import type { PasswordHasher } from './lib/passwords.ts';
import { usersRepository } from './repositories/users.ts';

/**
 * The demo data of contract.md ("Demo data"): fixed, so anyone can try the product and outside checks
 * can rely on it. Balances and offers join this list when the ledger and offers exist.
 */
export const DEMO_PASSWORD = 'peerex-demo';
export const DEMO_TOTP_SECRET = 'JBSWY3DPEHPK3PXP';

export const DEMO_USERS: ReadonlyArray<{ username: string; email: string; totpSecret?: string }> = [
  { username: 'alice', email: 'alice@peerex.test' },
  { username: 'bob', email: 'bob@peerex.test' },
  { username: 'carol', email: 'carol@peerex.test' },
  { username: 'dave', email: 'dave@peerex.test', totpSecret: DEMO_TOTP_SECRET },
];

/** Starting prices in USD; the price feed moves them later. Storage places: USDT has 6 on-chain, the rest 8. */
export const DEMO_COINS = [
  { label: 'Bitcoin', ticker: 'BTC', decimal_places: 8, usd_price: '97000.00', image: '/coins/btc.svg' },
  { label: 'Ethereum', ticker: 'ETH', decimal_places: 8, usd_price: '3400.00', image: '/coins/eth.svg' },
  { label: 'Tether', ticker: 'USDT', decimal_places: 6, usd_price: '1.00', image: '/coins/usdt.svg' },
  { label: 'Litecoin', ticker: 'LTC', decimal_places: 8, usd_price: '95.00', image: '/coins/ltc.svg' },
] as const;

export const DEMO_NETWORKS: ReadonlyArray<{ ticker: string; name: string; key: string; image: string }> = [
  { ticker: 'BTC', name: 'Bitcoin', key: 'bitcoin', image: '/coins/btc.svg' },
  { ticker: 'ETH', name: 'Ethereum (ERC20)', key: 'erc20', image: '/coins/eth.svg' },
  { ticker: 'USDT', name: 'Ethereum (ERC20)', key: 'erc20', image: '/coins/eth.svg' },
  { ticker: 'USDT', name: 'Tron (TRC20)', key: 'trc20', image: '/coins/trx.svg' },
  { ticker: 'LTC', name: 'Litecoin', key: 'litecoin', image: '/coins/ltc.svg' },
];

/** Units per 1 USD, late 2026 ballpark. */
export const DEMO_FIAT = [
  { code: 'USD', name: 'US Dollar', usd_rate: '1' },
  { code: 'EUR', name: 'Euro', usd_rate: '0.92' },
  { code: 'GBP', name: 'British Pound', usd_rate: '0.79' },
  { code: 'NGN', name: 'Nigerian Naira', usd_rate: '1650.00' },
  { code: 'KES', name: 'Kenyan Shilling', usd_rate: '129.20' },
  { code: 'INR', name: 'Indian Rupee', usd_rate: '84.50' },
  { code: 'BRL', name: 'Brazilian Real', usd_rate: '5.80' },
] as const;

export const DEMO_PAYMENT_METHODS = [
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

/** Arbitrary, distinct from the migration lock. */
const SEED_LOCK_KEY = 7_265_015_002;

/**
 * Seeds the demo data when the database is empty (no users and no coins) and does nothing otherwise,
 * so it is safe on every boot and from several processes at once. All or nothing: one transaction.
 * Returns whether it seeded.
 */
export async function seedDemo(
  db: Db,
  deps: { passwords: PasswordHasher; keys: AppKeys; now: () => Date },
): Promise<boolean> {
  // Hashing is slow and needs no lock: do it before the transaction holds the (single PGlite) connection.
  const hashes = await Promise.all(DEMO_USERS.map(() => deps.passwords.hash(DEMO_PASSWORD)));

  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [SEED_LOCK_KEY]);
    const { populated } = await tx.one<{ populated: boolean }>(
      'SELECT EXISTS (SELECT 1 FROM users) OR EXISTS (SELECT 1 FROM coins) AS populated',
    );
    if (populated) return false;

    for (const coin of DEMO_COINS) {
      await tx.query(
        'INSERT INTO coins (label, ticker, decimal_places, usd_price, image) VALUES ($1, $2, $3, $4, $5)',
        [coin.label, coin.ticker, coin.decimal_places, coin.usd_price, coin.image],
      );
    }
    for (const network of DEMO_NETWORKS) {
      await tx.query(
        `INSERT INTO coin_networks (coin_id, name, key, image)
         SELECT id, $2, $3, $4 FROM coins WHERE ticker = $1`,
        [network.ticker, network.name, network.key, network.image],
      );
    }
    for (const fiat of DEMO_FIAT) {
      await tx.query('INSERT INTO fiat_currencies (code, name, usd_rate) VALUES ($1, $2, $3)', [
        fiat.code,
        fiat.name,
        fiat.usd_rate,
      ]);
    }
    for (const name of DEMO_PAYMENT_METHODS) {
      await tx.query('INSERT INTO payment_methods (name) VALUES ($1)', [name]);
    }

    const users = usersRepository(tx);
    for (const [index, user] of DEMO_USERS.entries()) {
      const passwordHash = hashes[index];
      if (passwordHash === undefined) throw new Error('Missing demo password hash');
      await users.insert({
        username: user.username,
        email: user.email,
        passwordHash,
        totpSecret: user.totpSecret ? deps.keys.seal(user.totpSecret) : undefined,
        now: deps.now(),
      });
    }
    return true;
  });
}
