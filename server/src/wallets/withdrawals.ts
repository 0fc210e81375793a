import {
  DEPOSIT_MIN_USD,
  WITHDRAWAL_LOCK_HOURS,
  WITHDRAWAL_PREVIEW_SECONDS,
  type WalletTransactionScope,
  type WithdrawalAsk,
  type WithdrawalPreview,
} from '../../../contracts/wallet.ts';
import type { Db, Queryable } from '../infra/db/db.ts';
import { transactionWithRetry } from '../infra/db/retry.ts';
import { InsufficientFunds, balanceOf, postEntry, tradersOf, type PostingInput } from '../ledger/ledger.ts';
import { FIAT_PLACES, Money, fixed, roundDown, rounded } from '../ledger/money.ts';
import { notify, type Notified } from '../notifications/notify.ts';
import { operatorTexts, utcMinuteUp, walletTexts } from '../notifications/texts.ts';
import { usersRepository } from '../accounts/users.repository.ts';
import { Refusal } from '../refusals.ts';
import { withdrawalsRepository, type KeptPreview, type Route } from './withdrawals.repository.ts';
import { allowlistRefusal } from '../accounts/protections.ts';
import { holdEnd, securityChangesOf } from '../accounts/security-hold.ts';
import { chainNetworkOf, type ChainNetwork } from './networks.ts';
import { refuse } from '../sentences.ts';
import { walletSentences as sentences } from './sentences.ts';

export interface WithdrawalsDeps {
  db: Db;
  now: () => Date;
  /** Called after a confirmed external withdrawal commits: the chain watcher broadcasts it soon (ChainService.kick). */
  dispatched: () => void;
  /** After an internal transfer's commit: the recipient's notification, live and to the push worker (never throws). */
  announce: (rows: readonly Notified[]) => Promise<void>;
  /**
   * WITHDRAWAL_REVIEW_USD: an external withdrawal worth this much or more at the preview's price waits for an
   * operator (docs/operators.md "Withdrawal review"). An exact decimal string; '0': never.
   */
  reviewThresholdUsd: string;
  /** After a withdrawal entered review and committed: the operators' console reads its queue again (never throws). */
  reviewQueueChanged: () => void;
  /** After a confirm's commit, for GET /metrics: `confirmed`, and `completed` too for an internal transfer (settled at once). */
  counted: (outcome: WithdrawalOutcome) => void;
  /** After a confirm's commit: `wallet` on the channels of the traders whose balances it moved (never throws). */
  walletChanged: (userIds: readonly string[]) => Promise<void>;
}

/**
 * What GET /metrics counts of withdrawals (docs/operators.md "Monitoring"): confirmed by their trader, completed
 * (an internal transfer at once, an external one when the chain confirms it), refunded (the chain refused it).
 */
export const WITHDRAWAL_OUTCOMES = ['confirmed', 'completed', 'refunded'] as const;
export type WithdrawalOutcome = (typeof WITHDRAWAL_OUTCOMES)[number];

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
 * When withdrawals open again after a credentials change (the security hold's end, accounts/security-hold.ts),
 * as the refusal prints it: in UTC to the minute, rounded up so that the time it names is never still inside the lock.
 */
export function withdrawalLockEnd(changedAt: Date): { at: Date; text: string } {
  const at = holdEnd(changedAt);
  return { at, text: utcMinuteUp(at) };
}

/** What confirm did inside its transaction; refusals that must keep what it wrote (a deleted expired preview) come back as values. */
type Confirmed =
  | { kind: 'external'; moved: string[] }
  | { kind: 'review'; moved: string[]; notified: Notified[] }
  | { kind: 'internal'; moved: string[]; notified: Notified[] }
  | { kind: 'refused'; refusal: Refusal };

/** `preview_withdrawal` and `confirm_withdrawal` (docs/api.md "User calls"). */
export function withdrawals(deps: WithdrawalsDeps) {
  const { db } = deps;

  /**
   * The security hold after a credentials change (migration 015, accounts/security-hold.ts): the refusal while it
   * lasts. A new allowlist address holds selling but not withdrawals: the address itself waits (allowlistRefusal).
   */
  async function lockRefusal(q: Queryable, userId: string): Promise<Refusal | undefined> {
    const changedAt = (await securityChangesOf(q, userId)).credentialsChangedAt;
    if (changedAt === null) return undefined;
    const end = withdrawalLockEnd(changedAt);
    return end.at > deps.now() ? refuse.withdrawalsLocked(WITHDRAWAL_LOCK_HOURS, end.text) : undefined;
  }

  /** The coin and network asked for with the network's rules, or the refusal naming the networks the coin does travel on. */
  async function routeOf(ticker: string, network: string): Promise<{ route: Route; chain: ChainNetwork }> {
    const routes = await withdrawalsRepository(db).routesOf(ticker);
    const [coin] = routes;
    if (!coin) throw refuse.unknownWithdrawalCoin();
    // Only chains this server can check addresses of: a network an operator added without configuring it is not one.
    const usable = routes.flatMap((route) => {
      const chain = route.key === null ? undefined : chainNetworkOf(route.key);
      return chain ? [{ route, chain }] : [];
    });
    const found = usable.find((candidate) => candidate.route.key === network.toLowerCase());
    if (!found) throw refuse.unknownWithdrawalNetwork(coin.ticker, usable.map((candidate) => candidate.route.network_name));
    return found;
  }

  /** The amount asked, in the coin: as typed (mode crypto), or converted at the current price and rounded down (mode usd). */
  function cryptoAmountOf(ask: WithdrawalAsk, route: Route): Money {
    const amount = new Money(ask.amount);
    if (ask.mode === 'crypto') {
      if (amount.decimalPlaces() > route.decimal_places) throw refuse.tooManyCryptoPlaces(route.ticker, route.decimal_places);
      return amount;
    }
    if (amount.decimalPlaces() > FIAT_PLACES) throw refuse.tooManyUsdPlaces();
    return roundDown(amount.div(route.usd_price), route.decimal_places);
  }

  /**
   * Whether an external withdrawal waits for an operator: its worth at the preview's price, exactly (amount_usd is
   * rounded to cents), at or above the threshold. A preview kept before migration 033 has no price: its amount_usd.
   */
  function needsReview(preview: KeptPreview): boolean {
    const threshold = new Money(deps.reviewThresholdUsd);
    if (threshold.isZero()) return false;
    const worth = preview.usd_price === null ? new Money(preview.amount_usd) : new Money(preview.amount_crypto).times(preview.usd_price);
    return worth.gte(threshold);
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
    const { route, chain } = await routeOf(ask.ticker, ask.network);
    const recipient = chain.parseAddress(ask.recipient);
    if (recipient === undefined) throw refuse.invalidRecipient(route.network_name);
    const notAllowed = await allowlistRefusal(db, userId, route.key, recipient, deps.now());
    if (notAllowed) throw notAllowed;
    const owner = await repository.depositAddressOwner(route.key, recipient);
    if (owner === userId) throw refuse.ownDepositAddress();
    const scope: WalletTransactionScope = owner === undefined ? 'external' : 'internal';

    const amount = cryptoAmountOf(ask, route);
    if (amount.isZero()) throw refuse.amountTooSmallToWithdraw();
    const available = await balanceOf(db, { kind: 'available', userId, coinId: route.coin_id });
    if (amount.gt(available)) throw refuse.amountAboveBalance();
    // An internal transfer arrives as a deposit, so it obeys the deposit minimum: nobody can fill another
    // trader's history with free dust.
    if (scope === 'internal' && amount.times(route.usd_price).lt(DEPOSIT_MIN_USD)) {
      throw refuse.internalTransferTooSmall(DEPOSIT_MIN_USD);
    }
    const fee = scope === 'internal' ? new Money(0) : new Money(route.withdrawal_fee);
    if (amount.lte(fee)) throw refuse.amountNotAboveFee(fixed(fee, route.decimal_places), route.ticker);

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
      usd_price: route.usd_price,
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
   * everything rolls back, when the balance no longer covers it. Its locks are taken in the order its
   * statements run: preview, protections and allowlist, then the ledger's balances
   * (wallets/withdrawals.repository.ts).
   */
  async function execute(tx: Queryable, userId: string): Promise<Confirmed> {
    const repository = withdrawalsRepository(tx);
    const preview = await repository.take(userId);
    const now = deps.now();
    // An expired preview is gone as well: committing the delete is the point, so it is refused outside.
    if (!preview || preview.expires_at <= now) return { kind: 'refused', refusal: refuse.noWithdrawalToConfirm() };
    const locked = await lockRefusal(tx, userId);
    if (locked) return { kind: 'refused', refusal: locked };
    // The allowlist again, in this transaction and held to its end: an address removed (or the list turned on)
    // since the preview, or being removed now, counts.
    const notAllowed = await allowlistRefusal(tx, userId, preview.network, preview.recipient, now, true);
    if (notAllowed) return { kind: 'refused', refusal: notAllowed };

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
      // A large one waits for an operator (docs/rules.md "Wallets"); its amount is held all the same, so the balance
      // it leaves is decided here, under the ledger's lock, like any other withdrawal's.
      const review = needsReview(preview);
      const id = await repository.insertTransaction({
        ...figures,
        userId,
        transType: 'withdrawal',
        status: review ? 'review' : 'pending',
        scope: 'external',
        feeCrypto: preview.fee_crypto,
        feeUsd: preview.fee_usd,
        creditReference: null,
      });
      const hold: PostingInput[] = [
        { account: sender, amount: amount.negated() },
        { account: { kind: 'withdrawing', userId, coinId: preview.coin_id }, amount },
      ];
      await postEntry(tx, { reference: withdrawalReferences.hold(id), at: now, postings: hold });
      if (!review) return { kind: 'external', moved: tradersOf(hold) };
      // Every operator is told, in this transaction: a withdrawal in review that nobody hears of waits forever.
      const words = await repository.transferWords(userId, preview.coin_id);
      const operators = await usersRepository(tx).idsOfRole('operator');
      const amountText = fixed(preview.amount_crypto, words.decimal_places);
      const drafts = operators.map((operatorId) =>
        operatorTexts.withdrawalReview(operatorId, words.sender, amountText, words.ticker, preview.network, preview.amount_usd),
      );
      return { kind: 'review', moved: tradersOf(hold), notified: await notify(tx, drafts, now) };
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
    // The recipient learns of it (the sender has the answer of this very call).
    const words = await repository.transferWords(userId, preview.coin_id);
    const notified = await notify(tx, [walletTexts.internalDepositCredited(recipientId, fixed(preview.amount_crypto, words.decimal_places), words.ticker, words.sender)], now);
    return { kind: 'internal', moved: tradersOf(postings), notified };
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
        // withdrawal was written. The preview goes too, as the screen clears it (docs/web-app.md "Failures").
        await withdrawalsRepository(db).discard(userId);
        throw refuse.amountAboveBalance();
      }
      if (outcome.kind === 'refused') throw outcome.refusal;
      deps.counted('confirmed');
      await deps.walletChanged(outcome.moved);
      if (outcome.kind === 'external') {
        deps.dispatched();
        return sentences.withdrawalSubmitted;
      }
      if (outcome.kind === 'review') {
        // Not handed to the chain: the watcher picks up `pending` only, which an operator's approval makes it.
        await deps.announce(outcome.notified);
        deps.reviewQueueChanged();
        return sentences.withdrawalInReview;
      }
      deps.counted('completed');
      await deps.announce(outcome.notified);
      return sentences.internalTransferSent;
    },
  };
}
export type Withdrawals = ReturnType<typeof withdrawals>;
