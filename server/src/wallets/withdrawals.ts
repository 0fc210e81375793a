import {
  DEPOSIT_MIN_USD,
  WITHDRAWAL_LOCK_HOURS,
  WITHDRAWAL_PREVIEW_SECONDS,
  type NetworkKey,
  type WalletTransactionScope,
  type WithdrawalAsk,
  type WithdrawalPreview,
} from '../../../contracts/wallet.ts';
import type { Db, Queryable } from '../db/db.ts';
import { transactionWithRetry } from '../db/retry.ts';
import { InsufficientFunds, balanceOf, postEntry, type PostingInput } from '../ledger/ledger.ts';
import { FIAT_PLACES, Money, fixed, roundDown, rounded } from '../lib/money.ts';
import { InvalidInput, Refusal, StateConflict } from '../refusals.ts';
import { CHAIN_NETWORKS, isNetworkKey } from './networks.ts';
import { walletSentences as sentences } from './sentences.ts';

export interface WithdrawalsDeps {
  db: Db;
  now: () => Date;
  /** Called after a confirmed external withdrawal commits: the chain watcher broadcasts it soon (ChainService.kick). */
  dispatched: () => void;
}

const HOUR_MS = 3_600_000;

/** A coin on one of its networks, as a withdrawal needs it. */
interface Route {
  coin_id: number;
  ticker: string;
  decimal_places: number;
  usd_price: string;
  /** As coin_networks names it for people ("Tron (TRC20)"). */
  network_name: string;
  key: NetworkKey;
  withdrawal_fee: string;
}

/** A kept preview (withdrawal_previews, migration 015), as confirm reads it back. */
interface KeptPreview {
  user_id: string;
  coin_id: number;
  network: NetworkKey;
  recipient: string;
  scope: WalletTransactionScope;
  amount_crypto: string;
  amount_usd: string;
  fee_crypto: string;
  fee_usd: string;
  expires_at: Date;
}

/** The ledger references migration 015 pins for a withdrawal (the chain watcher posts `:sent` and `:refund`). */
export const withdrawalReferences = {
  hold: (id: string) => `withdrawal:${id}:hold`,
  sent: (id: string) => `withdrawal:${id}:sent`,
  refund: (id: string) => `withdrawal:${id}:refund`,
  /** What the chain's broadcast is named by (ChainAdapter.broadcast is idempotent on it). */
  broadcast: (id: string) => `withdrawal:${id}`,
  /** An internal withdrawal: the sender's available straight to the recipient's, and the recipient's deposit's credit_reference. */
  transfer: (id: string) => `transfer:${id}`,
};

/**
 * When withdrawals open again after a credentials change, as the refusal prints it: in UTC to the minute,
 * rounded up so that the time it names is never still inside the lock.
 */
export function withdrawalLockEnd(changedAt: Date): { at: Date; text: string } {
  const at = new Date(changedAt.getTime() + WITHDRAWAL_LOCK_HOURS * HOUR_MS);
  const shown = new Date(Math.ceil(at.getTime() / 60_000) * 60_000);
  return { at, text: `${shown.toISOString().slice(0, 16).replace('T', ' ')} UTC` };
}

/** The SQL of withdrawals: a small repository of this file's own, like repositories/*.ts. */
function withdrawalsRepository(db: Queryable) {
  return {
    /** Every network of the coin with this ticker (none: no such coin), in the order base/coins/ lists them. */
    routesOf: (ticker: string) =>
      db.query<Omit<Route, 'key'> & { key: string }>(
        `SELECT c.id AS coin_id, c.ticker, c.decimal_places, c.usd_price::text AS usd_price, n.name AS network_name, n.key,
                n.withdrawal_fee::text AS withdrawal_fee
         FROM coins c LEFT JOIN coin_networks n ON n.coin_id = c.id
         WHERE c.ticker = upper($1)
         ORDER BY n.id`,
        [ticker],
      ),

    credentialsChangedAt: async (userId: string) =>
      (await db.one<{ at: Date | null }>('SELECT credentials_changed_at AS at FROM users WHERE id = $1', [userId])).at,

    /** Who a deposit address on this network belongs to, if it is one of the product's. */
    depositAddressOwner: async (network: NetworkKey, address: string) =>
      (await db.maybe<{ user_id: string }>('SELECT user_id FROM deposit_addresses WHERE network = $1 AND address = $2', [network, address]))
        ?.user_id,

    /** Keeps the user's one pending withdrawal: a new preview replaces the old one. */
    keep: (preview: Omit<KeptPreview, 'network'> & { network: string }) =>
      db.query(
        `INSERT INTO withdrawal_previews (user_id, coin_id, network, recipient, scope, amount_crypto, amount_usd, fee_crypto, fee_usd, expires_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         ON CONFLICT (user_id) DO UPDATE SET coin_id = excluded.coin_id, network = excluded.network, recipient = excluded.recipient,
           scope = excluded.scope, amount_crypto = excluded.amount_crypto, amount_usd = excluded.amount_usd,
           fee_crypto = excluded.fee_crypto, fee_usd = excluded.fee_usd, expires_at = excluded.expires_at`,
        [
          preview.user_id,
          preview.coin_id,
          preview.network,
          preview.recipient,
          preview.scope,
          preview.amount_crypto,
          preview.amount_usd,
          preview.fee_crypto,
          preview.fee_usd,
          preview.expires_at,
        ],
      ),

    /** Forgets the user's kept preview, if any. */
    discard: (userId: string) => db.query('DELETE FROM withdrawal_previews WHERE user_id = $1', [userId]),

    /**
     * Takes the user's kept preview out, expired or not, in one statement: of two confirms racing, the second
     * waits on the row the first deletes and then finds nothing, so a preview executes at most once.
     */
    take: (userId: string) =>
      db.maybe<KeptPreview>(
        `DELETE FROM withdrawal_previews WHERE user_id = $1
         RETURNING user_id, coin_id, network, recipient, scope, amount_crypto::text AS amount_crypto, amount_usd::text AS amount_usd,
                   fee_crypto::text AS fee_crypto, fee_usd::text AS fee_usd, expires_at`,
        [userId],
      ),

    /** A withdrawal or deposit row of the history (wallet_transactions), answering its id. */
    insertTransaction: async (row: {
      userId: string;
      coinId: number;
      network: string;
      transType: 'deposit' | 'withdrawal';
      status: 'pending' | 'completed';
      scope: WalletTransactionScope;
      amountCrypto: string;
      amountUsd: string;
      feeCrypto: string;
      feeUsd: string;
      address: string;
      creditReference: string | null;
      at: Date;
    }) =>
      (
        await db.one<{ id: string }>(
          `INSERT INTO wallet_transactions (user_id, coin_id, network, trans_type, status, scope, amount_crypto, amount_usd,
                                            fee_crypto, fee_usd, address, credit_reference, created_at, completed_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, CASE WHEN $5 = 'completed' THEN $13::timestamptz END)
           RETURNING id`,
          [
            row.userId,
            row.coinId,
            row.network,
            row.transType,
            row.status,
            row.scope,
            row.amountCrypto,
            row.amountUsd,
            row.feeCrypto,
            row.feeUsd,
            row.address,
            row.creditReference,
            row.at,
          ],
        )
      ).id,
  };
}

/** What confirm did inside its transaction; refusals that must keep what it wrote (a deleted expired preview) come back as values. */
type Confirmed =
  | { kind: 'external' }
  | { kind: 'internal' }
  | { kind: 'refused'; refusal: StateConflict };

/** `preview_withdrawal` and `confirm_withdrawal` (contract.md "Wallets"). */
export function withdrawals(deps: WithdrawalsDeps) {
  const { db } = deps;

  /** The lock after a credentials change (migration 015, contract.md): the refusal while it lasts. */
  async function lockRefusal(q: Queryable, userId: string): Promise<StateConflict | undefined> {
    const changedAt = await withdrawalsRepository(q).credentialsChangedAt(userId);
    if (changedAt === null) return undefined;
    const end = withdrawalLockEnd(changedAt);
    return end.at > deps.now() ? new StateConflict(sentences.withdrawalsLocked(WITHDRAWAL_LOCK_HOURS, end.text)) : undefined;
  }

  /** The coin and network asked for, or the refusal naming the networks the coin does travel on. */
  async function routeOf(ticker: string, network: string): Promise<Route> {
    const routes = await withdrawalsRepository(db).routesOf(ticker);
    const [coin] = routes;
    if (!coin) throw new InvalidInput(sentences.unknownWithdrawalCoin);
    // Only chains this server can check addresses of: a network an operator added without its code is not one.
    const usable = routes.filter((route): route is Route => route.key !== null && isNetworkKey(route.key));
    const route = usable.find((candidate) => candidate.key === network.toLowerCase());
    if (!route) throw new InvalidInput(sentences.unknownWithdrawalNetwork(coin.ticker, usable.map((candidate) => candidate.network_name)));
    return route;
  }

  /** The amount asked, in the coin: as typed (mode crypto), or converted at the current price and rounded down (mode usd). */
  function cryptoAmountOf(ask: WithdrawalAsk, route: Route): Money {
    const amount = new Money(ask.amount);
    if (ask.mode === 'crypto') {
      if (amount.decimalPlaces() > route.decimal_places) throw new InvalidInput(sentences.tooManyCryptoPlaces(route.ticker, route.decimal_places));
      return amount;
    }
    if (amount.decimalPlaces() > FIAT_PLACES) throw new InvalidInput(sentences.tooManyUsdPlaces);
    return roundDown(amount.div(route.usd_price), route.decimal_places);
  }

  /**
   * Checks a withdrawal as the trader typed it, in the order they would fix it (the lock, the coin and
   * network, the address, the amount), answers its figures and keeps it for WITHDRAWAL_PREVIEW_SECONDS as
   * the one withdrawal `confirm` may execute. A recipient that is another trader's deposit address on that
   * network is an internal transfer: settled in the ledger at once, with no network fee.
   */
  async function checkAndKeep(userId: string, ask: WithdrawalAsk): Promise<WithdrawalPreview> {
    const repository = withdrawalsRepository(db);
    const locked = await lockRefusal(db, userId);
    if (locked) throw locked;
    const route = await routeOf(ask.ticker, ask.network);
    const recipient = CHAIN_NETWORKS[route.key].parseAddress(ask.recipient);
    if (recipient === undefined) throw new InvalidInput(sentences.invalidRecipient(route.network_name));
    const owner = await repository.depositAddressOwner(route.key, recipient);
    if (owner === userId) throw new InvalidInput(sentences.ownDepositAddress);
    const scope: WalletTransactionScope = owner === undefined ? 'external' : 'internal';

    const amount = cryptoAmountOf(ask, route);
    if (amount.isZero()) throw new InvalidInput(sentences.amountTooSmallToWithdraw);
    const available = await balanceOf(db, { kind: 'available', userId, coinId: route.coin_id });
    if (amount.gt(available)) throw new InvalidInput(sentences.amountAboveBalance);
    // An internal transfer arrives as a deposit, so it obeys the deposit minimum: nobody can fill another
    // trader's history with free dust.
    if (scope === 'internal' && amount.times(route.usd_price).lt(DEPOSIT_MIN_USD)) {
      throw new InvalidInput(sentences.internalTransferTooSmall(DEPOSIT_MIN_USD));
    }
    const fee = scope === 'internal' ? new Money(0) : new Money(route.withdrawal_fee);
    if (amount.lte(fee)) throw new InvalidInput(sentences.amountNotAboveFee(fixed(fee, route.decimal_places), route.ticker));

    const expires = new Date(deps.now().getTime() + WITHDRAWAL_PREVIEW_SECONDS * 1000);
    const kept = {
      user_id: userId,
      coin_id: route.coin_id,
      network: route.key,
      recipient,
      scope,
      amount_crypto: fixed(amount, route.decimal_places),
      amount_usd: rounded(amount.times(route.usd_price), FIAT_PLACES),
      fee_crypto: fixed(fee, route.decimal_places),
      fee_usd: rounded(fee.times(route.usd_price), FIAT_PLACES),
      expires_at: expires,
    };
    await repository.keep(kept);
    return {
      fee_usd: kept.fee_usd,
      fee_crypto: kept.fee_crypto,
      amount_crypto: kept.amount_crypto,
      amount_usd: kept.amount_usd,
      receive_crypto: fixed(amount.minus(fee), route.decimal_places),
      scope,
      expires: expires.toISOString(),
    };
  }

  /**
   * Confirm's one transaction: takes the kept preview out and executes it. Throws InsufficientFunds, and
   * everything rolls back, when the balance no longer covers it.
   */
  async function execute(tx: Queryable, userId: string): Promise<Confirmed> {
    const repository = withdrawalsRepository(tx);
    const preview = await repository.take(userId);
    const now = deps.now();
    // An expired preview is gone as well: committing the delete is the point, so it is refused outside.
    if (!preview || preview.expires_at <= now) return { kind: 'refused', refusal: new StateConflict(sentences.noWithdrawalToConfirm) };
    const locked = await lockRefusal(tx, userId);
    if (locked) return { kind: 'refused', refusal: locked };

    const figures = {
      coinId: preview.coin_id,
      network: preview.network,
      amountCrypto: preview.amount_crypto,
      amountUsd: preview.amount_usd,
      address: preview.recipient,
      at: now,
    };
    const amount = new Money(preview.amount_crypto);
    const sender = { kind: 'available', userId, coinId: preview.coin_id } as const;
    if (preview.scope === 'external') {
      const id = await repository.insertTransaction({
        ...figures,
        userId,
        transType: 'withdrawal',
        status: 'pending',
        scope: 'external',
        feeCrypto: preview.fee_crypto,
        feeUsd: preview.fee_usd,
        creditReference: null,
      });
      await postEntry(tx, {
        reference: withdrawalReferences.hold(id),
        at: now,
        postings: [
          { account: sender, amount: amount.negated() },
          { account: { kind: 'withdrawing', userId, coinId: preview.coin_id }, amount },
        ],
      });
      return { kind: 'external' };
    }

    // Deposit addresses are never reused, so the owner the preview found is the owner now.
    const recipientId = await repository.depositAddressOwner(preview.network, preview.recipient);
    if (recipientId === undefined || recipientId === userId) throw new Error(`Deposit address ${preview.recipient} has no other owner`);
    const id = await repository.insertTransaction({
      ...figures,
      userId,
      transType: 'withdrawal',
      status: 'completed',
      scope: 'internal',
      feeCrypto: '0',
      feeUsd: '0',
      creditReference: null,
    });
    const reference = withdrawalReferences.transfer(id);
    await repository.insertTransaction({
      ...figures,
      userId: recipientId,
      transType: 'deposit',
      status: 'completed',
      scope: 'internal',
      feeCrypto: '0',
      feeUsd: '0',
      creditReference: reference,
    });
    const postings: PostingInput[] = [
      { account: sender, amount: amount.negated() },
      { account: { kind: 'available', userId: recipientId, coinId: preview.coin_id }, amount },
    ];
    await postEntry(tx, { reference, at: now, postings });
    return { kind: 'internal' };
  }

  return {
    /**
     * `preview_withdrawal`. A refused preview leaves nothing to confirm either: confirm only ever executes
     * the last withdrawal the trader was shown figures for, never an older one the screen has since cleared.
     */
    async preview(userId: string, ask: WithdrawalAsk): Promise<WithdrawalPreview> {
      try {
        return await checkAndKeep(userId, ask);
      } catch (error) {
        if (error instanceof Refusal) await withdrawalsRepository(db).discard(userId);
        throw error;
      }
    },

    /** Drops the caller's kept preview: a preview the schema refused before it reached `preview`. */
    async discard(userId: string): Promise<void> {
      await withdrawalsRepository(db).discard(userId);
    },

    /**
     * Executes the caller's kept preview exactly once, in one transaction with taking it out. External: the
     * pending withdrawal and its hold (available → withdrawing), which the chain watcher then broadcasts.
     * Internal: the sender's withdrawal, the recipient's deposit and the transfer between their available
     * balances, all completed at once. The balance is decided by the ledger under its row lock, so no
     * interleaving of confirms, trades and transfers can spend a coin twice. Answers the sentence the web
     * app shows.
     */
    async confirm(userId: string): Promise<string> {
      let outcome: Confirmed;
      try {
        outcome = await transactionWithRetry(db, (tx) => execute(tx, userId));
      } catch (error) {
        if (!(error instanceof InsufficientFunds)) throw error;
        // Spent meanwhile (a trade opened, another withdrawal): the transaction rolled back, so nothing of the
        // withdrawal was written. The preview goes too, as the screen clears it (spec section 8).
        await withdrawalsRepository(db).discard(userId);
        throw new InvalidInput(sentences.amountAboveBalance);
      }
      if (outcome.kind === 'refused') throw outcome.refusal;
      if (outcome.kind === 'external') {
        deps.dispatched();
        return sentences.withdrawalSubmitted;
      }
      return sentences.internalTransferSent;
    },
  };
}
export type Withdrawals = ReturnType<typeof withdrawals>;
