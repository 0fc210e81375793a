import type { Queryable } from '../infra/db/db.ts';

export interface CoinWithNetworks {
  id: number;
  label: string;
  ticker: string;
  image: string;
  decimal_places: number;
  /** USD, exact decimal string, as the price source last stored it. */
  usd_price: string;
  networks: Array<{ id: number; name: string; key: string; image: string }>;
}

export interface PaymentMethodRow {
  id: number;
  name: string;
}

/** The largest value of an `integer` (int4) column: a bigger id cannot name a coin, and must not reach SQL, which would refuse it. */
export const MAX_INT4 = 2_147_483_647;

/** Coins, networks, fiat currencies and payment methods: small tables, read whole. */
export function referenceDataRepository(db: Queryable) {
  return {
    coinsWithNetworks: () =>
      db.query<CoinWithNetworks>(
        `SELECT c.id, c.label, c.ticker, c.image, c.decimal_places, c.usd_price,
                COALESCE(
                  json_agg(json_build_object('id', n.id, 'name', n.name, 'key', n.key, 'image', n.image) ORDER BY n.id)
                    FILTER (WHERE n.id IS NOT NULL),
                  '[]'
                ) AS networks
         FROM coins c LEFT JOIN coin_networks n ON n.coin_id = c.id
         GROUP BY c.id
         ORDER BY c.id`,
      ),

    coins: () =>
      db.query<{ id: number; label: string; ticker: string; image: string }>(
        'SELECT id, label, ticker, image FROM coins ORDER BY id',
      ),

    currencies: () =>
      db.query<{ code: string; name: string; usd_rate: string }>('SELECT code, name, usd_rate FROM fiat_currencies ORDER BY code'),

    paymentMethods: () => db.query<PaymentMethodRow>('SELECT id, name FROM payment_methods ORDER BY id'),

    coinExists: async (id: number) =>
      Number.isSafeInteger(id) && id >= 1 && id <= MAX_INT4
        ? (await db.maybe('SELECT 1 AS found FROM coins WHERE id = $1', [id])) !== undefined
        : false,

    currencyExists: async (code: string) =>
      (await db.maybe('SELECT 1 AS found FROM fiat_currencies WHERE code = $1', [code])) !== undefined,
  };
}
