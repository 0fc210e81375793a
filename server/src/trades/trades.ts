import { randomInt } from 'node:crypto';
import { MODERATION_CHANNEL, realtimeEvents, tradeChannelName } from '../../../contracts/chat.ts';
import type {
  Conversation,
  DisputeOutcome,
  TradeAction,
  TradeActionAsk,
  TradeAsk,
  TradeFacts,
  TradeHistory,
  TradeHistoryAsk,
  TradeOpenAsk,
  TradePreview,
  ReleaseProof,
  TradeRole,
} from '../../../contracts/trade.ts';
import { OFFER_CONDITION_LIMITS } from '../../../contracts/market.ts';
import { amountRangeProblem } from '../../../domain/money.ts';
import { hasConditions, unmetCondition } from '../../../domain/offerConditions.ts';
import { applyAction } from '../../../domain/tradeLifecycle/tradeLifecycle.ts';
import { conversationAdditions } from '../chat/chat.ts';
import type { ConversationFacts } from '../chat/chat.repository.ts';
import { uniqueViolation, type Db, type Queryable } from '../infra/db/db.ts';
import { retrying, transactionWithRetry } from '../infra/db/retry.ts';
import { BALANCE_SLOTS, InsufficientFunds, balanceOf, ledgerFailure, tradersOf, type PostingInput } from '../ledger/ledger.ts';
import type { Notified, PushOutbox } from '../notifications/notify.ts';
import { tradeTexts } from '../notifications/texts.ts';
import { FIAT_PLACES, Money, fixed, rounded } from '../ledger/money.ts';
import { coinFilterOf, likeContains, pageOf, pageWindow } from '../offers/offers.ts';
import { standingOf } from '../reputation/reputation.ts';
import {
  BUYER_PLACES_INDEX,
  OFFER_PLACES_INDEX,
  tradesRepository,
  type OfferForTrade,
  type SellerSecurityChanges,
  type TradeRow,
  type TradeTerms,
} from './trades.repository.ts';
import { windowOpenAsRead, type Confirmer } from '../accounts/confirmation.ts';
import { holdingSince, isSellingPausedBy, SECURITY_HOLD_HOURS } from '../accounts/security-hold.ts';
import { refuse, sentences } from '../sentences.ts';
import type { AuditRecord, StaffMember } from '../audit/audit.repository.ts';
import { effectsOf, refusalOf, RESOLUTION_OF, storedFacts, TRADE_CHANGES, type TradeChange } from './actions.ts';
import { isTradeChannel, newTradeChannel } from './channels.ts';
import { quoteTrade } from './quote.ts';

/** Trades per page of the history (the pages have Previous/Next only, so the size is the server's). */
export const HISTORY_PAGE_SIZE = 10;
/** The most conversations one list answers; a trader with more finds older ones by searching the partner. */
export const CONVERSATIONS_LIMIT = 200;
/** Payment-window candidates read at a time. */
export const SWEEP_BATCH = 100;
/** The most pending trades one process keeps the terms of (`known` in tradesService), the least recently used let go first. */
export const KNOWN_TRADES = 5_000;

/** What a party or a moderator said with a change: a dispute's reason, the paying account, a written resolution. */
interface ChangeWords {
  reason?: string;
  payerAccount?: string;
  resolution?: string;
  /** A staff member's change (a settlement): its audit log entry, written by the change's own statement. */
  audit?: AuditRecord;
}

/** Who settled, as the traders read it: never the moderator's username. */
const MODERATOR_ACTOR = 'A moderator';

/** What GET /metrics counts of trades (docs/operators.md "Monitoring"): each a change announced after its commit. */
export const TRADE_OUTCOMES = ['opened', 'completed', 'cancelled', 'expired', 'disputed', 'settled'] as const;
export type TradeOutcome = (typeof TRADE_OUTCOMES)[number];

/** The outcome each change counts as; marking paid is a step, not an outcome. A new change must say (the compiler asks). */
const OUTCOME_OF: Readonly<Record<TradeChange, TradeOutcome | undefined>> = {
  mark_paid: undefined,
  release_coin: 'completed',
  cancel: 'cancelled',
  expire: 'expired',
  raise_dispute: 'disputed',
  resolve_release: 'settled',
  resolve_refund: 'settled',
};

/** What an applied transition tells the parties once its transaction committed. */
interface Applied {
  channel: string;
  change: TradeChange;
  /** Who the change told (its notifications, committed with it). */
  notified: Notified[];
  /** The conversation as the change left it. */
  conversation: ConversationFacts;
  /** The usernames of the traders whose balances its ledger movement moved (none for a change that moves no money). */
  moved: string[];
  event: string;
  data: TradeFacts & {
    channel: string;
    message: { id: number; sender: null; recipient: 'all'; text: string; created: string; channel: string };
  };
}

export interface TradesDeps {
  db: Db;
  now: () => Date;
  /** TRADE_FEE_PERCENT: the platform's share of each trade, in percent. */
  feePercent: string;
  /** PAYMENT_WINDOW_MINUTES: how long the buyer has to pay and mark it. */
  paymentWindowMinutes: number;
  /** MAX_OPEN_TRADES: the most pending trades one buyer may hold, counting those they opened as the taker. */
  maxOpenTrades: number;
  /** REPUTATION_MIN_TRADE_USD: a trade worth less (decided at open) counts toward no reputation figure. */
  reputationMinTradeUsd: string;
  publish: (channel: string, event: string, data: unknown) => void;
  /** Whose notifications the trade's statements put in the web push outbox (notifications/notify.ts). */
  pushOutbox: PushOutbox;
  /** A trade opened or changed (after its commit): both parties' conversation lists are told, as the statement answered it. */
  changed: (conversation: ConversationFacts) => Promise<void>;
  /** Which of these traders have a live realtime connection now (the conversations' `online`). */
  online: (usernames: readonly string[]) => Promise<Set<string>>;
  /**
   * A trade completed, or concluded without completing (expired; refunded by a moderator), after its commit:
   * the traders' trades counts or completion rates on Browse Offers changed.
   */
  completed: () => Promise<void>;
  /** After the commit: the notifications the open or change wrote, live and to the push worker (never throws). */
  announce: (rows: readonly Notified[]) => Promise<void>;
  /** After the commit of an open or a change that moved money: `wallet` on the channels of the traders it moved, by username. */
  walletChangedOf: (usernames: readonly string[]) => void;
  /** After the commit of an open or a change that ends a step of the trade's life: counted for GET /metrics. */
  counted: (outcome: TradeOutcome) => void;
  /**
   * The second proof a release needs (accounts/confirmation.ts): passes while the session's window is open or the
   * proof holds; refuses (403, or the lockout's 429) otherwise.
   */
  confirmRelease: (who: Confirmer, proof: ReleaseProof) => Promise<void>;
}

/** A trader calling a trade action: who they are, and the session and address a release's proof is checked for. */
export interface TradeCaller extends Confirmer {
  id: string;
  username: string;
}

/** What a party says with an action: a dispute's reason, mark_paid's paying account, a release's second proof. */
export interface ActionWords {
  reason?: string;
  payerAccount?: string;
  proof?: ReleaseProof;
}

/** What an action's request says besides its channel, as `act` takes it: market/trade/ passes every action through this. */
export function wordsOf(ask: TradeActionAsk): ActionWords {
  switch (ask.type) {
    case 'mark_paid':
      return { payerAccount: ask.payer_account };
    case 'release_coin':
      return { proof: { password: ask.password, code: ask.code } };
    case 'raise_dispute':
      return { reason: ask.reason };
    default:
      // An action that says nothing besides its channel (cancel).
      return {};
  }
}


/** The parties of the trade whose balances these postings move, by username (the trade's row names both). */
const partiesMoved = (trade: Pick<TradeRow, 'buyer_id' | 'seller_id' | 'buyer' | 'seller'>, postings: readonly PostingInput[]): string[] =>
  tradersOf(postings).flatMap((userId) => (userId === trade.buyer_id ? [trade.buyer] : userId === trade.seller_id ? [trade.seller] : []));

/** Another open of the same buyer or on the same offer took the place this one picked (it committed first): run again for the next. */
const lostPlaceRace = (error: unknown) => {
  const index = uniqueViolation(error);
  return index === BUYER_PLACES_INDEX || index === OFFER_PLACES_INDEX;
};

const roleOf = (trade: { buyer_id: string; seller_id: string }, userId: string): TradeRole | undefined =>
  trade.buyer_id === userId ? 'buyer' : trade.seller_id === userId ? 'seller' : undefined;

export function tradesService(deps: TradesDeps) {
  const { db } = deps;

  /**
   * Pending trades this process opened or read, by channel, with their facts as it last saw them, so that a party's
   * action can skip reading the trade again (`act`): the terms never change, and the facts are only where the
   * change's compare-and-set starts from; it checks them in the database, so facts another process or the payment
   * window moved since only cost the read after all. Never what decides a refusal, nor the seller's security hold
   * (the statement checks it as it is now). Bounded by KNOWN_TRADES, in use order (a Map keeps insertion order).
   */
  const known = new Map<string, TradeTerms>();
  const remember = (trade: TradeTerms) => {
    known.delete(trade.channel);
    // Only a trade a party may still change: a disputed or ended one takes no party's action the chart allows.
    if (trade.status !== 'pending' || trade.dispute_raised) return;
    known.set(trade.channel, trade);
    if (known.size > KNOWN_TRADES) known.delete(known.keys().next().value as string);
  };
  const termsOf = ({ seller_credentials_changed_at: _credentials, seller_allowlist_added_at: _allowlist, ...terms }: TradeRow): TradeTerms => terms;

  /**
   * Every rule of docs/rules.md "Trades" that comes before money moves, in the order a person fixes
   * them: the offer, who may take it (the owner's conditions), the method, the range. Answers the roles and the figures.
   */
  async function check(found: OfferForTrade | undefined, userId: string, input: TradeAsk & { rate?: string }) {
    // A paused offer is listed nowhere: to a taker it is as gone as an unknown id (its owner may trade neither).
    if (!found || (!found.is_active && found.user_id !== userId)) throw refuse.offerUnavailable();
    const offer: OfferForTrade = found;
    if (offer.user_id === userId) throw refuse.ownOffer();
    // Read only for an offer that asks something: most do not, and an open is on the hot path.
    if (hasConditions(offer)) {
      const unmet = unmetCondition(offer, await standingOf(db, userId, deps.now()));
      if (unmet) throw refuse.conditionUnmet(unmet);
    }
    if (input.rate !== undefined && !new Money(input.rate).eq(offer.rate)) throw refuse.rateChanged();
    const asked = input.payment_method.trim();
    if (asked === '') throw refuse.selectPaymentMethod();
    const method = offer.payment_methods.find((name) => name.toLowerCase() === asked.toLowerCase());
    if (method === undefined) throw refuse.methodNotAccepted(asked);
    // The very rule (and words) the Trade Preview dialog applies before it asks.
    const outOfRange = amountRangeProblem(input.amount, { min: fixed(offer.min_amount, FIAT_PLACES), max: fixed(offer.max_amount, FIAT_PLACES) });
    if (outOfRange) throw refuse.amountOutOfRange(outOfRange);
    const quote = quoteTrade({
      amount: input.amount,
      rate: offer.rate,
      usdPrice: offer.usd_price,
      decimalPlaces: offer.decimal_places,
      feePercent: deps.feePercent,
    });
    if (!quote) throw refuse.amountTooSmall();
    // Sell offer: the owner sells to the taker. Buy offer: the owner buys from the taker.
    const sellerId = offer.offer_type === 'sell' ? offer.user_id : userId;
    const buyerId = offer.offer_type === 'sell' ? userId : offer.user_id;
    return { offer, quote, method, sellerId, buyerId };
  }

  /**
   * Applies one change the chart allowed, as its row of the table says (trades/actions.ts), in one statement
   * (tradesRepository.transition). Undefined when the compare-and-set lost (another change committed first):
   * nothing was written, and the caller words the refusal from the facts as they are now. `tx`, when given, is
   * a transaction the caller holds (the sweep's, with the row locked); otherwise the statement runs on its
   * own, in autocommit. With `sellerUnchangedSince`, it also applies only while the seller's security hold does not
   * (no credentials or allowlist change after it): undefined otherwise, nothing written.
   */
  async function transition(
    trade: TradeTerms,
    change: TradeChange,
    to: TradeFacts,
    actor: { id: string | null; name: string },
    words: ChangeWords = {},
    tx?: Queryable,
    sellerUnchangedSince?: Date,
  ): Promise<Applied | undefined> {
    const effects = effectsOf(trade, change, to, {
      actor: actor.name,
      actorId: actor.id,
      reason: words.reason ?? '',
      payerAccount: words.payerAccount ?? '',
      resolution: words.resolution ?? '',
      paymentWindowMinutes: deps.paymentWindowMinutes,
      at: deps.now(),
    });
    const write = (q: Queryable) => tradesRepository(q).transition(trade.id, effects, words.audit, deps.pushOutbox, sellerUnchangedSince);
    const message = await (tx ? write(tx) : retrying(() => write(db))).catch((error: unknown) => {
      throw ledgerFailure(error);
    });
    if (!message) return undefined;
    const text = effects.find((effect) => effect.kind === 'systemMessage')?.text ?? '';
    const movement = effects.find((effect) => effect.kind === 'ledger')?.movement;
    return {
      channel: trade.channel,
      change,
      notified: message.notified,
      conversation: message.conversation,
      moved: movement ? partiesMoved(trade, movement.postings) : [],
      event: TRADE_CHANGES[change].event,
      data: {
        channel: trade.channel,
        ...to,
        message: { id: Number(message.id), sender: null, recipient: 'all', text, created: message.created_at.toISOString(), channel: trade.channel },
      },
    };
  }

  /**
   * After the commit of an open or a change: counted, then both conversation lists, whoever it told, and the
   * traders whose balances it moved are told.
   */
  const told = async (conversation: ConversationFacts, notified: readonly Notified[], moved: readonly string[], outcome: TradeOutcome | undefined) => {
    if (outcome) deps.counted(outcome);
    await deps.changed(conversation);
    await deps.announce(notified);
    deps.walletChangedOf(moved);
  };

  /**
   * After the commit: the trade event and its system message on the trade's channel (the message also as
   * `new_message`, so a chat shows it like any other), then both conversation lists, then whoever it told.
   */
  const publish = async (applied: Applied) => {
    const realtimeChannel = tradeChannelName(applied.channel);
    deps.publish(realtimeChannel, applied.event, applied.data);
    deps.publish(realtimeChannel, realtimeEvents.newMessage, applied.data.message);
    await told(applied.conversation, applied.notified, applied.moved, OUTCOME_OF[applied.change]);
  };

  /**
   * The security hold on the trade's seller (accounts/security-hold.ts), as read with the offer or the trade,
   * worded for whoever asked: a taker who would sell, or a taker who would pay a seller who could not release.
   */
  function assertSellerMaySell(seller: SellerSecurityChanges, sellerId: string, takerId: string): void {
    const changes = { credentialsChangedAt: seller.seller_credentials_changed_at, allowlistAddedAt: seller.seller_allowlist_added_at };
    if (!isSellingPausedBy(changes, deps.now())) return;
    throw sellerId === takerId ? refuse.sellingPaused(SECURITY_HOLD_HOURS) : refuse.offerSellerPaused();
  }

  /** Only a taker who is the buyer has their MAX_OPEN_TRADES counted: trades opened on your buy offer are the offer's. */
  const buyerPlacesOf = (takerIsBuyer: boolean) => (takerIsBuyer ? deps.maxOpenTrades : null);

  /**
   * The two caps on pending trades, in the order docs/rules.md "Trades" checks them: the offer's max_open_trades,
   * then MAX_OPEN_TRADES when the taker is the buyer (only the trades they opened count). Counted, for the preview
   * and for wording a refused open; the open itself is decided by the places in its statement.
   */
  async function refuseWhenFull(trades: ReturnType<typeof tradesRepository>, offer: OfferForTrade, buyerId: string, takerId: string) {
    if (await trades.offerIsFull(offer.id, offer.max_open_trades)) throw refuse.offerFull();
    if (buyerId === takerId && (await trades.pendingAsBuyer(buyerId)) >= deps.maxOpenTrades) {
      throw refuse.tooManyOpenTrades(deps.maxOpenTrades);
    }
  }

  /**
   * The open statement behind the offer's row lock, in one transaction. The places decide (the statement and its
   * unique indexes hold the caps on their own); the lock only queues the opens of one offer, so that each statement
   * starts after the one before committed and sees its place taken. Without it, opens of a busy offer picked places
   * their snapshots showed free but a racing open had just taken, and mostly waited, failed and ran again (they queue
   * on the seller's balance anyway, so the lock costs a busy offer nothing). The lock and the statement are written
   * together: the database runs them in order, so the statement still starts once the lock is held, and a quiet
   * offer's open pays no round trip for it (infra/db/postgres.ts pipelines a connection's statements).
   */
  const openQueued = (...args: Parameters<ReturnType<typeof tradesRepository>['open']>) =>
    db.transaction(async (tx) => {
      const trades = tradesRepository(tx);
      const [, opened] = await Promise.all([trades.queueForOffer(args[0].offerId), trades.open(...args)]);
      return opened;
    });

  /** Worth at least REPUTATION_MIN_TRADE_USD: the escrow (the fee included) at the coin's USD price frozen at open. */
  const countsForReputation = (escrowCrypto: string, usdPrice: string) => new Money(escrowCrypto).times(usdPrice).gte(deps.reputationMinTradeUsd);

  return {
    /** market/trade/ `preview`: the figures, after every rule a real open would check. */
    async preview(userId: string, input: TradeAsk): Promise<TradePreview> {
      const trades = tradesRepository(db);
      const { offer, quote, sellerId, buyerId } = await check(await trades.offerForTrade(input.offer, userId), userId, input);
      assertSellerMaySell(offer, sellerId, userId);
      await refuseWhenFull(trades, offer, buyerId, userId);
      const available = await balanceOf(db, { kind: 'available', userId: sellerId, coinId: offer.coin_id });
      if (new Money(available).lt(quote.trading_amount_crypto)) throw refuse.sellerBalanceTooLow();
      return quote;
    },

    /**
     * market/trade/ `open`: in one transaction, the trade with its frozen figures, the seller's escrow
     * (trade:<id>:open) and the conversation with its first system message. The seller's balance is
     * decided by the ledger under its row lock, so concurrent opens against one seller can never take
     * more than the seller has; the offer's pending trades, and the buyer's when the buyer is the taker, by a
     * unique place each, so concurrent opens can never give an offer more than its max_open_trades nor a buyer
     * more than MAX_OPEN_TRADES. Answers the sentence for the taker's toast and the new channel.
     */
    async open(user: { id: string; username: string }, input: TradeOpenAsk): Promise<{ info: string; channel: string; tradeId: string }> {
      const userId = user.id;
      const trades = tradesRepository(db);
      const { offer, quote, method, sellerId, buyerId } = await check(await trades.offerForTrade(input.offer, userId), userId, input);
      assertSellerMaySell(offer, sellerId, userId);
      const at = deps.now();
      const channel = newTradeChannel();
      // Spreads a seller's open trades over their escrow account's balance slots (ledger.ts).
      const escrowSlot = randomInt(BALANCE_SLOTS);
      const [buyer, seller] = userId === buyerId ? [user.username, offer.owner] : [offer.owner, user.username];
      const escrow = new Money(quote.trading_amount_crypto);
      const escrowed: PostingInput[] = [
        { account: { kind: 'available', userId: sellerId, coinId: offer.coin_id }, amount: escrow.negated() },
        { account: { kind: 'escrow', userId: sellerId, coinId: offer.coin_id }, amount: escrow, slot: escrowSlot },
      ];
      // The offer's owner is told, in the open's own statement.
      const ownerTold = tradeTexts.opened(
        { channel, buyer_id: buyerId, seller_id: sellerId, buyer, seller, ticker: offer.ticker, decimal_places: offer.decimal_places, currency_code: offer.currency_code, ...quote },
        offer.user_id,
        method,
        deps.paymentWindowMinutes,
      );
      let opened: { id: string; notified: Notified[]; conversation: ConversationFacts; terms: TradeTerms } | undefined;
      try {
        opened = await retrying(() =>
          openQueued(
            {
              offerId: offer.id,
              buyerId,
              sellerId,
              coinId: offer.coin_id,
              currencyCode: offer.currency_code,
              rate: offer.rate,
              coinUsdPrice: offer.usd_price,
              tradingAmount: quote.trading_amount,
              feeLocal: quote.fee_local,
              amountLocal: quote.amount_local,
              tradingAmountCrypto: quote.trading_amount_crypto,
              feeCrypto: quote.fee_crypto,
              amountCrypto: quote.amount_crypto,
              paymentMethod: method,
              channel,
              escrowSlot,
              buyerPlaces: buyerPlacesOf(buyerId === userId),
              conditions: offer,
              countsForReputation: countsForReputation(quote.trading_amount_crypto, offer.usd_price),
              at,
            },
            `Trade opened: ${buyer} buys ${quote.amount_crypto} ${offer.ticker} (after the fee) from ${seller} ` +
              `for ${quote.trading_amount} ${offer.currency_code} by ${method}. ${quote.trading_amount_crypto} ${offer.ticker} ` +
              `is held in escrow; the buyer has ${deps.paymentWindowMinutes} minutes to pay and mark it paid.`,
            escrowed,
            [ownerTold],
            deps.pushOutbox,
          ),
          // Each lost race means another open of this buyer or on this offer committed and holds a place until it ends,
          // so an open needs at most as many more runs as there are places to lose.
          deps.maxOpenTrades + OFFER_CONDITION_LIMITS.maxOpenTrades.max + 4,
          lostPlaceRace,
        );
      } catch (error) {
        const failure = ledgerFailure(error);
        // The seller's balance, decided by the ledger under its row lock: concurrent opens against one
        // seller can never take more than the seller has.
        if (failure instanceof InsufficientFunds) throw refuse.sellerBalanceTooLow();
        throw failure;
      }
      if (opened === undefined) {
        // Nothing was written: the offer changed between the checks and the statement (which opens only on the
        // offer as it was checked), or the offer or the buyer (when the taker) had no free place. Which one, the
        // offer and the places as they are now say; a place freed since, the offer's it was.
        const now = await check(await trades.offerForTrade(input.offer, userId), userId, input);
        await refuseWhenFull(trades, now.offer, buyerId, userId);
        throw refuse.offerFull();
      }
      remember(opened.terms);
      // Nobody can be listening on the new channel yet (its name was secret until now): only the lists are told.
      await told(opened.conversation, opened.notified, [seller], 'opened');
      const info =
        userId === buyerId
          ? sentences.tradeOpenedForBuyer(quote.trading_amount, offer.currency_code, method)
          : sentences.tradeOpenedForSeller(quote.trading_amount_crypto, offer.ticker, quote.trading_amount, offer.currency_code, method);
      return { info, channel, tradeId: opened.id };
    },

    /**
     * The four actions, addressed by channel. A channel the caller is no party to answers exactly like an
     * unknown one (404), so nobody can learn which channels exist (a moderator included: they settle disputes
     * through the desk, never act as a party). The chart decides; a release then waits on the seller's security
     * hold and needs its second proof (docs/rules.md "Trades", in that order, so a held seller's password is never
     * asked for); the transition applies with a compare-and-set; the loser of a race is refused by the facts the
     * winner wrote. `payerAccount` goes with mark_paid only, `reason` with raise_dispute, `proof` with release_coin.
     *
     * A trade this process knows (`known`) is first changed without reading it: when the chart allows the action
     * from the facts last seen and a release's proof is the window the session lookup read open (so `confirmRelease`
     * would check nothing), the change's statement is the read, the compare-and-set of those facts and, for a
     * release, the seller's security hold as it is now. Whatever that does not apply (facts moved, a hold, no
     * window) goes the whole way below from a fresh read, which decides and words every refusal: the answer is the
     * one the read would have given had it come a moment earlier, as any read before a compare-and-set is.
     */
    async act(user: TradeCaller, action: TradeAction, channel: string, said: ActionWords = {}): Promise<string> {
      const trades = tradesRepository(db);
      const words = action === 'mark_paid' ? { payerAccount: said.payerAccount } : { reason: said.reason };
      const actor = { id: user.id, name: user.username };
      const kept = known.get(channel);
      const keptRole = kept && roleOf(kept, user.id);
      const keptNext = kept && keptRole && applyAction(storedFacts(kept), action, keptRole);
      let applied: Applied | undefined;
      if (kept && keptNext && (action !== 'release_coin' || windowOpenAsRead(user, deps.now()))) {
        const unchangedSince = action === 'release_coin' ? holdingSince(deps.now()) : undefined;
        applied = await transition(kept, action, keptNext, actor, words, undefined, unchangedSince);
        if (applied) remember({ ...kept, ...keptNext });
        else known.delete(channel);
      }
      if (!applied) {
        // Not a channel this server could have made: no need to ask the database.
        const trade = isTradeChannel(channel) ? await trades.byChannel(channel) : undefined;
        const role = trade && roleOf(trade, user.id);
        if (!trade || !role) throw refuse.tradeNotFound();
        const facts = storedFacts(trade);
        const next = applyAction(facts, action, role);
        if (!next) throw refusalOf(facts, action, role);
        if (action === 'release_coin') {
          assertSellerMaySell(trade, user.id, user.id);
          await deps.confirmRelease(user, said.proof ?? {});
        }
        applied = await transition(trade, action, next, actor, words);
        if (!applied) {
          const now = await trades.currentFacts(trade.id);
          throw applyAction(now, action, role) ? refuse.tradeChanged() : refusalOf(now, action, role);
        }
        remember({ ...termsOf(trade), ...next });
      }
      await publish(applied);
      // The dispute desk lists it from now on.
      if (action === 'raise_dispute') deps.publish(MODERATION_CHANNEL, realtimeEvents.disputeRaised, { channel: applied.channel });
      // Only a change that counts moves a completion rate (TRADE_CHANGES `counts`): no refresh on the hot mark_paid.
      if (TRADE_CHANGES[action].counts) await deps.completed();
      return TRADE_CHANGES[action].reply;
    },

    /**
     * The dispute desk's `resolve`: a moderator settles a disputed trade, the coins to the buyer (`release`) or
     * back to the seller (`refund`), with a written resolution. The chart decides (the two settlements out of
     * disputed) and the change goes through the same one-statement transition as the parties' actions, so two
     * moderators at once, or a settlement racing anything else, end with exactly one applied and the ledger
     * moved once. A trade never disputed is not found; a moderator who is one of its parties may not settle it.
     */
    async resolve(moderator: StaffMember, channel: string, outcome: DisputeOutcome, resolution: string): Promise<string> {
      const trades = tradesRepository(db);
      const trade = isTradeChannel(channel) ? await trades.byChannel(channel) : undefined;
      if (!trade || trade.disputed_at === null) throw refuse.tradeNotFound();
      if (roleOf(trade, moderator.id)) throw refuse.ownTradeDispute();
      const change = RESOLUTION_OF[outcome];
      const next = applyAction(storedFacts(trade), change);
      // Only a disputed trade can be settled, and a trade once disputed is pending and disputed until it is.
      if (!next) throw refuse.disputeAlreadySettled();
      // The settlement's audit entry (docs/operators.md "Audit log") commits with it, and only if it applied.
      const audit: AuditRecord = {
        actor: moderator,
        action: 'dispute_resolved',
        target: trade.channel,
        reason: resolution,
        before: storedFacts(trade),
        after: { ...next, outcome },
        at: deps.now(),
      };
      const applied = await transition(trade, change, next, { id: moderator.id, name: MODERATOR_ACTOR }, { resolution, audit });
      if (!applied) throw refuse.disputeAlreadySettled();
      await publish(applied);
      deps.publish(MODERATION_CHANNEL, realtimeEvents.disputeResolved, { channel: trade.channel });
      // Both settlements count (a refund on the buyer): their completion rates moved.
      if (TRADE_CHANGES[change].counts) await deps.completed();
      return outcome === 'release' ? sentences.disputeReleased(trade.buyer) : sentences.disputeRefunded(trade.seller);
    },

    /**
     * The payment window: cancels every pending, unpaid trade opened more than PAYMENT_WINDOW_MINUTES ago,
     * each in its own transaction through the same compare-and-set as the parties' actions, so a buyer's
     * mark_paid racing it ends with exactly one of the two applied. Safe with several processes (see
     * lockForExpiry). Answers how many it cancelled.
     */
    async sweep(): Promise<number> {
      const cutoff = new Date(deps.now().getTime() - deps.paymentWindowMinutes * 60_000);
      let expired = 0;
      // Batch after batch while batches come back full and something in them could be expired; a batch
      // that only met trades other processes hold is left to them.
      for (;;) {
        const candidates = await tradesRepository(db).expiryCandidates(cutoff, SWEEP_BATCH);
        let expiredNow = 0;
        for (const id of candidates) {
          const applied = await transactionWithRetry(db, async (tx) => {
            const trade = await tradesRepository(tx).lockForExpiry(id, cutoff);
            if (!trade) return undefined;
            const next = applyAction(storedFacts(trade), 'expire');
            if (!next) return undefined;
            return transition(trade, 'expire', next, { id: null, name: 'The payment window' }, {}, tx);
          });
          if (applied) {
            expiredNow += 1;
            await publish(applied);
          }
        }
        // Each expiry concluded a trade for its buyer (the completion rate): one refresh for the batch.
        if (expiredNow > 0) await deps.completed();
        expired += expiredNow;
        if (candidates.length < SWEEP_BATCH || expiredNow === 0) return expired;
      }
    },

    /**
     * market/chat/ `conversations`: the caller's trade conversations, newest activity first, optionally only
     * those whose partner's username contains `search` (any case, wildcards taken literally).
     */
    async conversations(user: { id: string; username: string }, search: string | undefined): Promise<Conversation[]> {
      const wanted = search?.trim() ?? '';
      const rows = await tradesRepository(db).conversations(user.id, user.username, wanted === '' ? undefined : likeContains(wanted), CONVERSATIONS_LIMIT);
      const online = await deps.online([...new Set(rows.map((row) => row.partner))]);
      return rows.map(({ channel, partner, partner_type, last_message, status, buyer_paid, dispute_raised, my_rating_score, my_rating_comment, unread, ...additions }) => ({
        channel,
        partner,
        partner_type,
        last_message: last_message ?? '',
        status,
        buyer_paid,
        dispute_raised,
        online: online.has(partner),
        ...conversationAdditions(additions, { score: my_rating_score, comment: my_rating_comment }),
        unread,
      }));
    },

    /** market/trade/ `history`: the caller's trades newest first, from the caller's side. */
    async history(userId: string, request: TradeHistoryAsk): Promise<TradeHistory> {
      const { page } = request;
      const found = await tradesRepository(db).history({
        userId,
        status: request.filters.status || undefined,
        coinId: coinFilterOf(request.filters.offer__coin__id),
        tradeType: request.trade_type || undefined,
        ...pageWindow(page, HISTORY_PAGE_SIZE),
      });
      const { rows, paginator } = pageOf(found, page, HISTORY_PAGE_SIZE);
      return {
        trades: rows.map((row) => ({
          id: Number(row.id),
          created: row.created_at.toISOString(),
          trade_type: row.trade_type,
          partner: row.partner,
          offer__coin__image: row.image,
          offer__coin__ticker: row.ticker,
          offer__coin__decimal_places: row.decimal_places,
          amount_crypto: fixed(row.amount_crypto, row.decimal_places),
          // USD at the price frozen when the trade opened: what the trade was worth, not what it would be now.
          amount_usd: rounded(new Money(row.amount_crypto).times(row.coin_usd_price), FIAT_PLACES),
          fee_crypto: fixed(row.fee_crypto, row.decimal_places),
          fee_usd: rounded(new Money(row.fee_crypto).times(row.coin_usd_price), FIAT_PLACES),
          payment_method: row.payment_method,
          status: row.status,
        })),
        paginator,
      };
    },
  };
}

export type TradesService = ReturnType<typeof tradesService>;
