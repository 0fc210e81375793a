import { DEPOSIT_MIN_USD, type NetworkKey } from '../../../contracts/wallet.ts';
import type { IncomingTransfer } from '../chain/adapter.ts';
import type { ChainLog } from '../chain/watcher.ts';
import { uniqueViolation, type Db } from '../infra/db/db.ts';
import { retrying, transactionWithRetry } from '../infra/db/retry.ts';
import { postEntry } from '../ledger/ledger.ts';
import { FIAT_PLACES, Money, fixed, rounded } from '../ledger/money.ts';
import { notify, type Notified } from '../notifications/notify.ts';
import { walletTexts } from '../notifications/texts.ts';
import { chainNetworkOf } from './networks.ts';
import { depositAddressesRepository } from './deposit-addresses.repository.ts';
import { walletTransactionsRepository, type ChainDepositRows } from './wallet-transactions.repository.ts';
import { walletsRepository } from './wallets.repository.ts';

/**
 * Deposits as the chain watcher (chain/watcher.ts) sees them arrive (docs/rules.md "Wallets"): a transfer to a
 * trader's deposit address becomes a `pending` row of their history at once, or `cancelled` when it is worth
 * less than DEPOSIT_MIN_USD; at DEPOSIT_CONFIRMATIONS it is credited through the ledger, exactly once.
 *
 * Several processes run this at the same time by construction, never by locks held across the chain: the
 * row is inserted with ON CONFLICT DO NOTHING on its (network, txid, vout), the credit flips the row from
 * `pending` in the same transaction as the ledger entry, and the entry's reference
 * (`deposit:<network>:<txid>:<vout>`, migration 015) is unique in the ledger as well.
 */
export interface ChainDepositsDeps {
  db: Db;
  now: () => Date;
  log: ChainLog;
  /** After a credit's commit: its notification, live and to the push worker (never throws). */
  announce: (rows: readonly Notified[]) => Promise<void>;
  /** After a deposit is recorded or credited: `wallet` on its owner's channel (never throws). */
  walletChanged: (userIds: readonly string[]) => Promise<void>;
}

/** A deposit still waiting for its confirmations. */
export interface PendingDeposit {
  id: string;
  txid: string;
}

const DECIMAL = /^\d{1,40}(\.\d{1,40})?$/;

export const depositReference = (network: NetworkKey, txid: string, vout: number) => `deposit:${network}:${txid}:${vout}`;

/**
 * What the table and the ledger reference can hold: an output index that fits `integer`, a txid of letters
 * and digits short enough for `deposit:<network>:<txid>:<vout>`. One transfer that cannot be stored must
 * be skipped, not fail the batch: the cursor would never move past it and the network would stop.
 */
const MAX_VOUT = 2 ** 31 - 1;
const STORABLE_TXID = /^[0-9A-Za-z]{1,128}$/;
const isStorableOutput = (transfer: { txid: string; vout: number }) =>
  STORABLE_TXID.test(transfer.txid) && Number.isInteger(transfer.vout) && transfer.vout >= 0 && transfer.vout <= MAX_VOUT;

export function chainDeposits({ db, now, log, announce, walletChanged }: ChainDepositsDeps) {
  return {
    /**
     * Records the transfers that paid a known deposit address; answers how many rows are new or changed (a
     * transfer seen before, by this process or another, adds nothing unless it is now in another block, or
     * comes back after a re-organisation dropped it). Transfers to other addresses are the rest of
     * the chain's traffic and are skipped without a word.
     */
    async record(network: NetworkKey, transfers: readonly IncomingTransfer[]): Promise<number> {
      if (transfers.length === 0) return 0;
      const chain = chainNetworkOf(network);
      // The watcher reads only networks it knows (chain/watcher.ts networks()).
      if (!chain) throw new Error(`No address rules for network ${network}`);
      const canonical = transfers.map((transfer) => chain.parseAddress(transfer.address));
      const wanted = [...new Set(canonical.filter((address) => address !== undefined))];
      if (wanted.length === 0) return 0;
      const owners = new Map((await depositAddressesRepository(db).ownersOf(network, wanted)).map((row) => [row.address, row.user_id]));
      if (owners.size === 0) return 0;
      // The price at arrival is the one stored now: what the 5 USD minimum and the history's USD value use.
      const coins = new Map((await walletsRepository(db).coinsOn(network)).map((row) => [row.ticker, row]));

      const rows: ChainDepositRows = { userIds: [], coinIds: [], statuses: [], amounts: [], usds: [], addresses: [], txids: [], vouts: [], references: [], blocks: [] };
      // One row per output: a page that names one twice would make the insert touch a row twice.
      const taken = new Set<string>();
      transfers.forEach((transfer, index) => {
        const key = `${transfer.txid}:${transfer.vout}`;
        if (taken.has(key)) return;
        taken.add(key);
        const address = canonical[index];
        const owner = address === undefined ? undefined : owners.get(address);
        if (address === undefined || owner === undefined) return;
        const coin = coins.get(transfer.asset);
        if (!coin) {
          // A token the product does not carry on this network (someone sent an unsupported one): the
          // platform cannot credit it; an operator may want to know it is sitting on the address.
          log.warn({ network, txid: transfer.txid, vout: transfer.vout, asset: transfer.asset, address }, 'deposit of an asset that is not a coin on this network: ignored');
          return;
        }
        if (!DECIMAL.test(transfer.amount) || !isStorableOutput(transfer)) {
          log.error({ network, transfer }, 'chain adapter reported a malformed transfer: ignored');
          return;
        }
        // A chain may carry more places than the coin is kept with (ETH has 18): what no balance can hold
        // stays on the address, the rest is the deposit.
        const amount = new Money(transfer.amount).toDecimalPlaces(coin.decimal_places, Money.ROUND_DOWN);
        if (!amount.eq(transfer.amount)) {
          log.warn({ network, txid: transfer.txid, amount: transfer.amount, kept: amount.toFixed() }, 'deposit has more places than its coin: rounded down');
        }
        if (amount.isZero()) return;
        const usd = amount.times(coin.usd_price);
        rows.userIds.push(owner);
        rows.coinIds.push(coin.id);
        rows.statuses.push(usd.lt(DEPOSIT_MIN_USD) ? 'cancelled' : 'pending');
        rows.amounts.push(amount.toFixed());
        rows.usds.push(rounded(usd, FIAT_PLACES));
        rows.addresses.push(address);
        rows.txids.push(transfer.txid);
        rows.vouts.push(transfer.vout);
        rows.references.push(depositReference(network, transfer.txid, transfer.vout));
        rows.blocks.push(transfer.block === undefined ? null : String(transfer.block));
      });
      if (rows.userIds.length === 0) return 0;
      // Two processes reading one block insert its deposits at once. The insert's ON CONFLICT waits for a racing
      // insert on (network, txid, vout) only once that row's entry is there; seen a moment earlier, the race ends on
      // credit_reference (the same key in other words) with a unique violation instead. Run again, it finds the row
      // the other process committed and counts nothing twice (tests/server/evm-chain.test.ts, two processes).
      const inserted = await retrying(
        () => walletTransactionsRepository(db).insertChainDeposits(network, now(), rows),
        4,
        (error) => uniqueViolation(error) === 'wallet_transactions_credit_reference_key',
      );
      // A new pending row in their history (or one back from a re-organisation).
      await walletChanged(inserted.map((row) => row.user_id));
      return inserted.length;
    },

    /** The network's deposits from the chain waiting for confirmations, oldest first (internal ones settle at once). */
    pending: (network: NetworkKey): Promise<PendingDeposit[]> => walletTransactionsRepository(db).pendingChainDeposits(network),

    /**
     * Credits one deposit: `completed`, the ledger entry and the owner's notification in one transaction, only
     * if the row was still pending when this transaction locked it. Answers whether this call credited it (false: another round
     * or process did, and nothing moved). Locks: the deposit's row, then the ledger's balances
     * (server/src/ledger/README.md "Lock order").
     */
    credit: async (id: string): Promise<boolean> => {
      const credited = await transactionWithRetry(db, async (tx) => {
        const at = now();
        const row = await walletTransactionsRepository(tx).creditDeposit(id, at);
        if (!row) return undefined;
        await postEntry(tx, {
          reference: row.credit_reference,
          at,
          postings: [
            { account: { kind: 'deposits', coinId: row.coin_id }, amount: new Money(row.amount_crypto).neg() },
            { account: { kind: 'available', userId: row.user_id, coinId: row.coin_id }, amount: row.amount_crypto },
          ],
        });
        const told = walletTexts.depositCredited(row.user_id, fixed(row.amount_crypto, row.decimal_places), row.ticker, row.network);
        return { owner: row.user_id, notified: await notify(tx, [told], at) };
      });
      if (!credited) return false;
      await announce(credited.notified);
      await walletChanged([credited.owner]);
      return true;
    },
  };
}
export type ChainDeposits = ReturnType<typeof chainDeposits>;
