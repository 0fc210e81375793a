import type { Queryable } from '../infra/db/db.ts';

/** What the ledger owes traders in one coin: the sum of their accounts of each kind, exact decimal strings. */
export interface OwedRow {
  coin_id: number;
  ticker: string;
  decimal_places: number;
  available: string;
  escrow: string;
  withdrawing: string;
  /** The platform's fee account: the operator's money, not owed, shown beside it. */
  fees: string;
}

/**
 * The SQL of `npm run chain:reconcile` (chain/reconcile.ts) and of `npm run wallet:sweep` (chain/evm/sweep.ts):
 * what the ledger owes per coin, what the wallets recorded arriving and leaving per network, the deposit addresses
 * and the withdrawals on their way. Only reads.
 */
export function reconcileRepository(db: Queryable) {
  return {
    /**
     * Every coin with the sum of the traders' balances (ledger_account_balances, migration 009: each account's
     * slots summed) per kind. NUMERIC sums, read as text: exact.
     */
    owedPerCoin: () =>
      db.query<OwedRow>(
        `SELECT c.id AS coin_id, c.ticker, c.decimal_places,
                coalesce(sum(b.balance) FILTER (WHERE b.kind = 'available'), 0)::text AS available,
                coalesce(sum(b.balance) FILTER (WHERE b.kind = 'escrow'), 0)::text AS escrow,
                coalesce(sum(b.balance) FILTER (WHERE b.kind = 'withdrawing'), 0)::text AS withdrawing,
                coalesce(sum(b.balance) FILTER (WHERE b.kind = 'fees'), 0)::text AS fees
         FROM coins c LEFT JOIN ledger_account_balances b ON b.coin_id = c.id AND b.kind IN ('available', 'escrow', 'withdrawing', 'fees')
         GROUP BY c.id, c.ticker, c.decimal_places
         ORDER BY c.id`,
      ),

    /** The networks each coin travels on (coin_networks), in the order they were added. */
    coinNetworks: () =>
      db.query<{ coin_id: number; network: string }>('SELECT coin_id, key AS network FROM coin_networks ORDER BY coin_id, id'),

    /**
     * Per coin and network, what the wallets recorded crossing the chain: credited external deposits and completed
     * external withdrawals (their whole amount: the network fee left the ledger with it). Internal transfers never
     * touched a chain and are not counted.
     */
    recordedPerNetwork: () =>
      db.query<{ coin_id: number; network: string; arrived: string; sent: string }>(
        `SELECT coin_id, network,
                coalesce(sum(amount_crypto) FILTER (WHERE trans_type = 'deposit'), 0)::text AS arrived,
                coalesce(sum(amount_crypto) FILTER (WHERE trans_type = 'withdrawal'), 0)::text AS sent
         FROM wallet_transactions
         WHERE scope = 'external' AND status = 'completed'
         GROUP BY coin_id, network`,
      ),

    /** The network's deposit addresses with their BIP-32 child index, in index order. */
    /** The hot wallet that has paid on the network, as the hot wallet recorded itself (evm_hot_wallets, migration 028). */
    hotWalletOn: async (network: string) =>
      (await db.maybe<{ address: string }>('SELECT address FROM evm_hot_wallets WHERE network = $1 ORDER BY address LIMIT 1', [network]))?.address,

    depositAddressesOn: (network: string) =>
      db.query<{ user_id: string; derivation_index: number; address: string }>(
        'SELECT user_id, derivation_index, address FROM deposit_addresses WHERE network = $1 ORDER BY derivation_index',
        [network],
      ),

    /**
     * External withdrawals on the network whose transaction was broadcast (a txid stored) but that are not settled
     * yet: once mined, their coins have left the chain while the ledger still holds them in `withdrawing`.
     */
    broadcastWithdrawalsOn: (network: string) =>
      db.query<{ id: string; coin_id: number; txid: string; amount_crypto: string }>(
        `SELECT id, coin_id, txid, amount_crypto::text AS amount_crypto
         FROM wallet_transactions
         WHERE network = $1 AND trans_type = 'withdrawal' AND scope = 'external' AND status = 'pending' AND txid IS NOT NULL
         ORDER BY id`,
        [network],
      ),
  };
}
