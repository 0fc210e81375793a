import { Decimal } from 'decimal.js';
import type { OfferType } from '../../contracts/market.ts';
import type { UserRole } from '../../contracts/security.ts';
import type { Db } from './infra/db/db.ts';
import type { AppKeys } from './infra/secrets.ts';
import type { PasswordHasher } from './infra/passwords.ts';
import { offersService } from './offers/offers.ts';
import {
  REFERENCE_COINS,
  REFERENCE_FIAT,
  REFERENCE_NETWORKS,
  REFERENCE_PAYMENT_METHODS,
} from './offers/reference-data.ts';
import { postEntry } from './ledger/ledger.ts';
import { usersRepository } from './accounts/users.repository.ts';
import { walletTransactionsRepository } from './wallets/wallet-transactions.repository.ts';
import { Refusal } from './refusals.ts';

/**
 * The demo data (README "Demo accounts"): fixed, so anyone can try the product and outside checks
 * can rely on it.
 */
export const DEMO_PASSWORD = 'peerex-demo';
export const DEMO_TOTP_SECRET = 'JBSWY3DPEHPK3PXP';

export const DEMO_USERS: ReadonlyArray<{ username: string; email: string; totpSecret?: string; role?: UserRole }> = [
  { username: 'alice', email: 'alice@peerex.test' },
  { username: 'bob', email: 'bob@peerex.test' },
  { username: 'carol', email: 'carol@peerex.test' },
  { username: 'dave', email: 'dave@peerex.test', totpSecret: DEMO_TOTP_SECRET },
  // The dispute desk's demo: settles the demo traders' disputes; holds nothing and publishes no offers.
  { username: 'mod', email: 'mod@peerex.test', role: 'moderator' },
  // The operator console's demo (docs/operators.md): runs the platform; not a trader, holds nothing.
  { username: 'ops', email: 'ops@peerex.test', role: 'operator' },
];

export interface DemoOffer {
  username: string;
  offer_type: OfferType;
  ticker: string;
  currency: (typeof REFERENCE_FIAT)[number]['code'];
  /**
   * The trader's margin over the currency's market rate: sellers ask a little more fiat per USD,
   * buyers offer a little less, as on any P2P market.
   */
  margin: string;
  min_amount: string;
  max_amount: string;
  payment_methods: ReadonlyArray<(typeof REFERENCE_PAYMENT_METHODS)[number]>;
  terms: string | null;
}

/** A few live offers per demo trader (dave, the two-factor demo, and mod, the moderator, have none), oldest first. */
export const DEMO_OFFERS: readonly DemoOffer[] = [
  { username: 'alice', offer_type: 'sell', ticker: 'BTC', currency: 'EUR', margin: '0.02', min_amount: '100', max_amount: '5000', payment_methods: ['SEPA', 'Revolut', 'Wise'], terms: 'SEPA Instant only. I release within 15 minutes of seeing the payment.' },
  { username: 'bob', offer_type: 'sell', ticker: 'USDT', currency: 'NGN', margin: '0.018', min_amount: '20000', max_amount: '2000000', payment_methods: ['Bank Transfer'], terms: 'Pay from a bank account in your own name.' },
  { username: 'carol', offer_type: 'sell', ticker: 'USDT', currency: 'KES', margin: '0.02', min_amount: '1000', max_amount: '200000', payment_methods: ['M-Pesa'], terms: 'M-Pesa only. Paste the confirmation SMS in the chat.' },
  { username: 'alice', offer_type: 'buy', ticker: 'USDT', currency: 'USD', margin: '-0.01', min_amount: '50', max_amount: '2000', payment_methods: ['PayPal', 'Bank Transfer', 'Revolut'], terms: null },
  { username: 'bob', offer_type: 'buy', ticker: 'BTC', currency: 'NGN', margin: '-0.015', min_amount: '50000', max_amount: '5000000', payment_methods: ['Bank Transfer', 'Cash in Person'], terms: 'Cash in person in Lagos (Ikeja) only.' },
  { username: 'carol', offer_type: 'buy', ticker: 'ETH', currency: 'INR', margin: '-0.01', min_amount: '5000', max_amount: '500000', payment_methods: ['UPI', 'Bank Transfer'], terms: null },
  { username: 'alice', offer_type: 'sell', ticker: 'ETH', currency: 'GBP', margin: '0.015', min_amount: '50', max_amount: '3000', payment_methods: ['Revolut', 'Wise', 'Bank Transfer'], terms: null },
  { username: 'bob', offer_type: 'sell', ticker: 'LTC', currency: 'USD', margin: '0.01', min_amount: '20', max_amount: '1500', payment_methods: ['PayPal', 'Wise'], terms: null },
  { username: 'carol', offer_type: 'sell', ticker: 'BTC', currency: 'BRL', margin: '0.025', min_amount: '100', max_amount: '25000', payment_methods: ['Pix'], terms: 'Pix only; the name on the Pix must match your account.' },
  { username: 'carol', offer_type: 'buy', ticker: 'LTC', currency: 'EUR', margin: '-0.02', min_amount: '50', max_amount: '1000', payment_methods: ['SEPA', 'Revolut', 'Wise', 'PayPal', 'Cash in Person'], terms: null },
];

/**
 * What each demo trader (dave aside: the two-factor demo holds nothing) starts with, per coin, deposited
 * through the ledger from the platform's deposit account as an outside deposit would be, and listed in their
 * wallet history as completed deposits (migration 015 backfills the same rows on older databases).
 */
export const DEMO_TRADERS_WITH_BALANCES = ['alice', 'bob', 'carol'] as const;
export const DEMO_DEPOSITS: Readonly<Record<string, string>> = { BTC: '2', ETH: '40', USDT: '50000', LTC: '300' };

/** Places of a demo rate: enough for 0.9384 EUR per USD, few enough to read. */
const DEMO_RATE_PLACES = 4;
/** Minutes between demo offers' creation times, so "newest first" has a fixed order. */
const DEMO_OFFER_SPACING_MS = 7 * 60_000;

/** Arbitrary, distinct from the migration lock. */
const SEED_LOCK_KEY = 7_265_015_002;

/** True when every reference table has rows (a start's check: seedReference would then fill nothing). */
export const REFERENCE_DATA_PRESENT =
  'EXISTS (SELECT 1 FROM coins) AND EXISTS (SELECT 1 FROM fiat_currencies) AND EXISTS (SELECT 1 FROM payment_methods)';

/** True when the demo data's seeding would find users and do nothing (seedDemo). */
export const DEMO_DATA_PRESENT = 'EXISTS (SELECT 1 FROM users)';

/**
 * The reference data (reference-data.ts), each table filled only while it is empty: safe on every boot
 * and from several processes at once, and never overwriting what an operator changed. Runs whatever
 * SEED_DEMO says. Returns the tables it filled.
 */
export async function seedReference(db: Db): Promise<string[]> {
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [SEED_LOCK_KEY]);
    const { coins, fiat, methods } = await tx.one<{ coins: boolean; fiat: boolean; methods: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM coins) AS coins, EXISTS (SELECT 1 FROM fiat_currencies) AS fiat,
              EXISTS (SELECT 1 FROM payment_methods) AS methods`,
    );
    const filled: string[] = [];
    if (!coins) {
      for (const coin of REFERENCE_COINS) {
        await tx.query(
          'INSERT INTO coins (label, ticker, decimal_places, usd_price, image) VALUES ($1, $2, $3, $4, $5)',
          [coin.label, coin.ticker, coin.decimal_places, coin.usd_price, coin.image],
        );
      }
      for (const network of REFERENCE_NETWORKS) {
        await tx.query(
          `INSERT INTO coin_networks (coin_id, name, key, image, withdrawal_fee)
           SELECT id, $2, $3, $4, $5 FROM coins WHERE ticker = $1`,
          [network.ticker, network.name, network.key, network.image, network.withdrawal_fee],
        );
      }
      filled.push('coins', 'coin_networks');
    }
    if (!fiat) {
      for (const currency of REFERENCE_FIAT) {
        await tx.query('INSERT INTO fiat_currencies (code, name, usd_rate) VALUES ($1, $2, $3)', [
          currency.code,
          currency.name,
          currency.usd_rate,
        ]);
      }
      filled.push('fiat_currencies');
    }
    if (!methods) {
      for (const name of REFERENCE_PAYMENT_METHODS) {
        await tx.query('INSERT INTO payment_methods (name) VALUES ($1)', [name]);
      }
      filled.push('payment_methods');
    }
    return filled;
  });
}

/**
 * The demo traders and their offers, on a database without users only (so it is safe on every boot and
 * from several processes at once), all or nothing in one transaction. Offers are published through the
 * same rules and SQL as market/offers/. Needs the reference data (seedReference) first.
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
    const { populated } = await tx.one<{ populated: boolean }>(`SELECT ${DEMO_DATA_PRESENT} AS populated`);
    if (populated) return false;

    const users = usersRepository(tx);
    const userIds = new Map<string, string>();
    for (const [index, user] of DEMO_USERS.entries()) {
      const passwordHash = hashes[index];
      if (passwordHash === undefined) throw new Error('Missing demo password hash');
      const row = await users.insert({
        username: user.username,
        email: user.email,
        passwordHash,
        totpSecret: user.totpSecret ? deps.keys.seal(user.totpSecret) : undefined,
        role: user.role,
        now: deps.now(),
      });
      userIds.set(user.username, row.id);
    }

    const coins = await tx.query<{ id: number; ticker: string }>('SELECT id, ticker FROM coins ORDER BY id');
    for (const username of DEMO_TRADERS_WITH_BALANCES) {
      const userId = userIds.get(username);
      if (!userId) continue;
      for (const coin of coins) {
        const amount = DEMO_DEPOSITS[coin.ticker];
        // A coin an operator added has no demo amount: its balance starts at nothing.
        if (amount === undefined) continue;
        const reference = `deposit:demo-${username}-${coin.ticker}`;
        await postEntry(tx, {
          reference,
          at: deps.now(),
          postings: [
            { account: { kind: 'deposits', coinId: coin.id }, amount: `-${amount}` },
            { account: { kind: 'available', userId, coinId: coin.id }, amount },
          ],
        });
        // The history shows it as the deposit it stands for, credited by exactly this entry.
        await walletTransactionsRepository(tx).insertDemoDeposit({ userId, coinId: coin.id, amount, reference, at: deps.now() });
      }
    }

    const offers = offersService(tx);
    const now = deps.now().getTime();
    for (const [index, offer] of DEMO_OFFERS.entries()) {
      const userId = userIds.get(offer.username);
      const coin = await tx.maybe<{ id: number }>('SELECT id FROM coins WHERE ticker = $1', [offer.ticker]);
      const fx = await tx.maybe<{ usd_rate: string }>('SELECT usd_rate FROM fiat_currencies WHERE code = $1', [offer.currency]);
      // An operator may have changed the reference data before turning the demo on: skip what no longer fits.
      if (!userId || !coin || !fx) continue;
      const rate = new Decimal(fx.usd_rate).times(new Decimal(1).plus(offer.margin)).toDecimalPlaces(DEMO_RATE_PLACES);
      try {
        await offers.publish(
          userId,
          {
            offer_type: offer.offer_type,
            coin: coin.id,
            currency: offer.currency,
            rate: rate.toFixed(),
            min_amount: offer.min_amount,
            max_amount: offer.max_amount,
            payment_methods: [...offer.payment_methods],
            terms: offer.terms,
          },
          new Date(now - (DEMO_OFFERS.length - index) * DEMO_OFFER_SPACING_MS),
        );
      } catch (error) {
        // A refusal (a payment method the operator removed) skips that offer; anything else is a bug.
        if (!(error instanceof Refusal)) throw error;
      }
    }
    return true;
  });
}
