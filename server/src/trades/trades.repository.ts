import { PREPARED, sqlParams, type Queryable } from '../infra/db/db.ts';
import { securityChangesColumns } from '../accounts/users.repository.ts';
import { entryCall, type PostingInput } from '../ledger/ledger.ts';
import { auditStep, type AuditRecord } from '../audit/audit.repository.ts';
import { NOTIFIED_JSON, notificationSteps, notifiedOf, type NotificationDraft, type Notified, type PushOutbox } from '../notifications/notify.ts';
import type { TradeEffect } from './actions.ts';
import {
  CHAT_TRADE_JOINS,
  CONVERSATION_ADDITIONS,
  CONVERSATION_COIN,
  CONVERSATION_FACTS,
  type ConversationAdditionsRow,
  type ConversationFacts,
  type TradeParties,
  unreadMessages,
} from '../chat/chat.repository.ts';
import type { DisputeOutcome, TradeFacts } from '../../../contracts/trade.ts';
import type { TradeStatus } from '../../../contracts/user.ts';

/** An offer as a trade needs it: its owner, coin, range and methods, and whether it is live. */
export interface OfferForTrade extends SellerSecurityChanges {
  id: string;
  user_id: string;
  owner: string;
  offer_type: 'buy' | 'sell';
  coin_id: number;
  ticker: string;
  decimal_places: number;
  usd_price: string;
  currency_code: string;
  rate: string;
  min_amount: string;
  max_amount: string;
  payment_methods: string[];
  is_active: boolean;
  /** What the owner asks of a taker (0 / false: none) and the offer's cap of pending trades (migration 024). */
  min_completed_trades: number;
  min_account_days: number;
  require_two_factor: boolean;
  max_open_trades: number;
}

/** Everything frozen into a trade at open (migrations/006_trades.sql). */
export interface NewTrade {
  offerId: string;
  buyerId: string;
  sellerId: string;
  coinId: number;
  currencyCode: string;
  rate: string;
  coinUsdPrice: string;
  tradingAmount: string;
  feeLocal: string;
  amountLocal: string;
  tradingAmountCrypto: string;
  feeCrypto: string;
  amountCrypto: string;
  paymentMethod: string;
  channel: string;
  /** The escrow and fee balance slot of this trade (ledger.ts BALANCE_SLOTS). */
  escrowSlot: number;
  /**
   * MAX_OPEN_TRADES: the buyer's places for pending trades (migration 014), when the buyer is the taker; null when
   * the taker is the seller (a buy offer), whose trade is bounded by the offer's places alone (migration 024).
   */
  buyerPlaces: number | null;
  /** The offer's conditions as the taker was checked against them: the trade opens only while they still hold. */
  conditions: { min_completed_trades: number; min_account_days: number; require_two_factor: boolean };
  /** Worth at least REPUTATION_MIN_TRADE_USD at the frozen price: it counts toward reputation (migration 024). */
  countsForReputation: boolean;
  at: Date;
}

/** The unique index that keeps a buyer's pending trades on distinct places (migration 014). */
export const BUYER_PLACES_INDEX = 'trades_buyer_places';
/** The unique index that keeps an offer's pending trades on distinct places (migration 024). */
export const OFFER_PLACES_INDEX = 'trades_offer_places';

/**
 * A stored trade with the names and coin its messages and answers need, and its facts: all a change's effects are
 * decided from (trades/actions.ts). Everything but the facts is frozen at open and never changes (a username
 * neither), so a process may keep what it read or opened (trades.ts `known`).
 */
export interface TradeTerms extends TradeParties, TradeFacts {
  coin_id: number;
  ticker: string;
  decimal_places: number;
  currency_code: string;
  trading_amount: string;
  trading_amount_crypto: string;
  fee_crypto: string;
  amount_crypto: string;
  payment_method: string;
  escrow_slot: number;
  created_at: Date;
  /** When a dispute was raised on it, or null: a trade never disputed is none of a moderator's business. */
  disputed_at: Date | null;
  /** A moderator's settlement, once made. */
  resolution: DisputeOutcome | null;
  /** Decided at open: whether its end adds to the traders' counters (migration 024). */
  counts_for_reputation: boolean;
}

/** A trade as read, with its seller's security changes (which do change: a release checks them as they are now). */
export interface TradeRow extends TradeTerms, SellerSecurityChanges {}

/** The security changes of a trade's seller (accounts/security-hold.ts), read with the trade or the offer: a release or an open waits on them. */
export interface SellerSecurityChanges {
  seller_credentials_changed_at: Date | null;
  seller_allowlist_added_at: Date | null;
}

export interface HistoryQuery {
  userId: string;
  status?: TradeStatus;
  coinId?: number;
  /** From the caller's side: `buy` when the caller is the buyer. */
  tradeType?: 'buy' | 'sell';
  limit: number;
  offset: number;
}

export interface HistoryRow {
  id: string;
  created_at: Date;
  trade_type: 'buy' | 'sell';
  partner: string;
  image: string;
  ticker: string;
  decimal_places: number;
  amount_crypto: string;
  fee_crypto: string;
  coin_usd_price: string;
  payment_method: string;
  status: TradeStatus;
}

export interface ConversationRow extends ConversationAdditionsRow {
  channel: string;
  partner: string;
  partner_type: 'buyer' | 'seller';
  last_message: string | null;
  buyer_paid: boolean;
  dispute_raised: boolean;
  status: TradeStatus;
  /** The caller's own rating of this trade (trade_ratings), or nulls. */
  my_rating_score: number | null;
  my_rating_comment: string | null;
  /** The caller's unread messages in it (`unreadMessages`). */
  unread: number;
}

const TRADE_COLUMNS = `t.id, t.channel, t.buyer_id, t.seller_id, b.username AS buyer, s.username AS seller,
  t.coin_id, c.ticker, c.decimal_places, t.currency_code, t.trading_amount, t.trading_amount_crypto,
  t.fee_crypto, t.amount_crypto, t.payment_method, t.escrow_slot, t.status, t.buyer_paid, t.dispute_raised, t.created_at,
  t.disputed_at, t.resolution, t.counts_for_reputation, ${securityChangesColumns('s', 'seller')}`;
const TRADE_JOINS = `JOIN users b ON b.id = t.buyer_id JOIN users s ON s.id = t.seller_id JOIN coins c ON c.id = t.coin_id`;
/** The columns of TradeTerms that CONVERSATION_FACTS does not read, over the same trade `t` and coin `c` (CHAT_TRADE_JOINS). */
const TERMS_BESIDE_FACTS = `t.coin_id, c.ticker, c.decimal_places, t.trading_amount_crypto, t.fee_crypto, t.payment_method, t.escrow_slot,
  t.created_at, t.counts_for_reputation`;

/** These keys of a row, and nothing else of it. */
const pick = <T extends object, K extends keyof T>(row: T, ...keys: K[]): Pick<T, K> =>
  Object.fromEntries(keys.map((key) => [key, row[key]])) as Pick<T, K>;

/** A trader's trades as either party: two index scans (trades_by_buyer, trades_by_seller) rather than an OR over both columns. */
const TRADES_OF = (param: string) =>
  `(SELECT id FROM trades WHERE buyer_id = ${param} UNION ALL SELECT id FROM trades WHERE seller_id = ${param})`;

export function tradesRepository(db: Queryable) {
  return {
    /** The offer as a trade on it is checked and frozen, with the security changes of whoever would sell: its owner, or `takerId` on a buy offer. */
    offerForTrade: (offerId: number, takerId: string) =>
      db.maybe<OfferForTrade>(
        `SELECT o.id, o.user_id, u.username AS owner, o.offer_type, o.coin_id, c.ticker, c.decimal_places, c.usd_price,
                o.currency_code, o.rate, o.min_amount, o.max_amount, o.is_active,
                o.min_completed_trades, o.min_account_days, o.require_two_factor, o.max_open_trades,
                ARRAY(SELECT pm.name FROM unnest(o.payment_method_ids) WITH ORDINALITY AS m (id, position)
                      JOIN payment_methods pm ON pm.id = m.id ORDER BY m.position) AS payment_methods,
                ${securityChangesColumns('s', 'seller')}
         FROM offers o JOIN users u ON u.id = o.user_id JOIN coins c ON c.id = o.coin_id
         JOIN users s ON s.id = CASE WHEN o.offer_type = 'sell' THEN o.user_id ELSE $2::bigint END
         WHERE o.id = $1`,
        [offerId, takerId],
        PREPARED,
      ),

    /**
     * Opens a trade in one statement: the trade with its frozen figures on the lowest free place of its offer's
     * (migration 024) and, when the buyer is the taker, of its buyer's (migration 014), its conversation with the
     * first (system) message, and the escrow entry `trade:<id>:open` from the seller's available to their escrow
     * (ledger_post, which refuses with LE001 when the seller's balance does not cover it, and then nothing of this
     * statement is written). Answers the trade's id and its notifications, or undefined when nothing was written:
     * the offer or the buyer has no free place, or the offer is no longer active at the rate and with the
     * conditions the taker was checked against (it was paused, re-priced or re-conditioned since it was read). Two
     * opens that pick the same place (of one offer, or of one buyer): the second fails on OFFER_PLACES_INDEX or
     * BUYER_PLACES_INDEX once the first commits, and run again picks the next place (the service queues the opens of
     * one offer behind `queueForOffer`, so that race is rare). The offer's places are
     * 0 … max_open_trades − 1 as the offer reads in this statement; while a pending trade holds a place at or past
     * that (its owner lowered the cap), the offer takes no trade, so it is never over its cap for long and never
     * further over it.
     *
     * Locks (server/src/ledger/README.md "Lock order"): the offer's row first, by `queueForOffer` in the same
     * transaction; this statement then writes new rows (the trade, its conversation and message, the
     * notifications `drafts`, the offer's owner told, written only when the escrow was), whose only locks are
     * key-share locks on the rows they name and a wait on an open racing for the same place, and takes the
     * seller's balance slots last, in `ledger_post`, whose call names the trade this statement inserted.
     */
    open: async (
      trade: NewTrade,
      firstMessage: string,
      escrow: readonly PostingInput[],
      drafts: readonly NotificationDraft[] = [],
      outbox: PushOutbox = 'every user',
    ): Promise<{ id: string; notified: Notified[]; conversation: ConversationFacts; terms: TradeTerms } | undefined> => {
      const p = sqlParams();
      const at = p.add(trade.at);
      const buyer = p.add(trade.buyerId);
      const offer = p.add(trade.offerId);
      const rate = p.add(trade.rate);
      const buyerPlace =
        trade.buyerPlaces === null
          ? 'SELECT NULL::integer AS place'
          : `SELECT place FROM generate_series(0, ${p.add(trade.buyerPlaces)}::integer - 1) AS place
             WHERE NOT EXISTS (SELECT 1 FROM trades WHERE buyer_id = ${buyer} AND status = 'pending' AND buyer_place = place)
             ORDER BY place LIMIT 1`;
      const { conditions } = trade;
      const first = p.add(firstMessage);
      const row = await db.maybe<Omit<ConversationFacts, 'last_message'> & TradeTerms & { notified: unknown }>(
        `WITH place AS (
           ${buyerPlace}
         ), offer_place AS (
           SELECT place AS offer_place FROM offers o, generate_series(0, o.max_open_trades - 1) AS place
           WHERE o.id = ${offer}
             AND NOT EXISTS (SELECT 1 FROM trades WHERE offer_id = ${offer} AND status = 'pending' AND offer_place = place)
             AND NOT EXISTS (SELECT 1 FROM trades WHERE offer_id = ${offer} AND status = 'pending' AND offer_place >= o.max_open_trades)
           ORDER BY place LIMIT 1
         ), trade AS (
           INSERT INTO trades (offer_id, buyer_id, seller_id, coin_id, currency_code, rate, coin_usd_price, trading_amount,
                               fee_local, amount_local, trading_amount_crypto, fee_crypto, amount_crypto, payment_method,
                               channel, created_at, escrow_slot, buyer_place, offer_place, counts_for_reputation)
           SELECT ${offer}, ${buyer}, ${p.add(trade.sellerId)}, ${p.add(trade.coinId)}, ${p.add(trade.currencyCode)}, ${rate},
                  ${p.add(trade.coinUsdPrice)}, ${p.add(trade.tradingAmount)}, ${p.add(trade.feeLocal)}, ${p.add(trade.amountLocal)},
                  ${p.add(trade.tradingAmountCrypto)}, ${p.add(trade.feeCrypto)}, ${p.add(trade.amountCrypto)}, ${p.add(trade.paymentMethod)},
                  ${p.add(trade.channel)}, ${at}, ${p.add(trade.escrowSlot)}, place.place, offer_place.offer_place,
                  ${p.add(trade.countsForReputation)}::boolean
           FROM place, offer_place, offers
           WHERE offers.id = ${offer} AND offers.is_active AND offers.rate = ${rate}
             AND offers.min_completed_trades = ${p.add(conditions.min_completed_trades)}::integer
             AND offers.min_account_days = ${p.add(conditions.min_account_days)}::integer
             AND offers.require_two_factor = ${p.add(conditions.require_two_factor)}::boolean
           RETURNING *
         ), conversation AS (
           INSERT INTO conversations (trade_id, last_message_at) SELECT id, ${at} FROM trade RETURNING trade_id
         ), message AS (
           INSERT INTO chat_messages (trade_id, sender_id, recipient, text, created_at)
           SELECT trade_id, NULL, 'all', ${first}, ${at} FROM conversation
           RETURNING trade_id
         ), entry AS (
           SELECT message.trade_id, posted.entry_id
           FROM message, LATERAL ${entryCall({ postings: escrow, at: trade.at, label: 'trade open' }, `'trade:' || message.trade_id || ':open'`, p)} AS posted
         ), ${notificationSteps(p, drafts, trade.at, 'entry', outbox).join(', ')}
         SELECT ${NOTIFIED_JSON} AS notified, ${CONVERSATION_FACTS}, ${TERMS_BESIDE_FACTS} FROM entry, trade t ${CHAT_TRADE_JOINS}`,
        p.values,
        PREPARED,
      );
      if (!row) return undefined;
      const { notified, coin_id, ticker, decimal_places, trading_amount_crypto, fee_crypto, payment_method, escrow_slot, created_at, counts_for_reputation, ...facts } =
        row;
      return {
        id: facts.id,
        notified: notifiedOf(notified),
        // The conversation as both lists show it from now on: what the announcement publishes, read by the statement.
        conversation: { ...facts, last_message: firstMessage },
        // The trade as `byChannel` reads it, without the seller's security changes: what its first change starts from.
        terms: {
          ...pick(facts, 'id', 'channel', 'buyer_id', 'seller_id', 'buyer', 'seller', 'status', 'buyer_paid', 'dispute_raised'),
          ...pick(facts, 'currency_code', 'trading_amount', 'amount_crypto', 'disputed_at', 'resolution'),
          coin_id, ticker, decimal_places, trading_amount_crypto, fee_crypto, payment_method, escrow_slot, created_at, counts_for_reputation,
        },
      };
    },

    /**
     * Queues the opens of one offer behind its row (trades.ts `openQueued`), in the transaction the open then runs
     * in. NO KEY UPDATE: it waits for no one but another open or an edit of the offer, and a trade's foreign key (a
     * key-share lock) never waits for it.
     */
    queueForOffer: async (offerId: string): Promise<void> => {
      await db.query('SELECT id FROM offers WHERE id = $1 FOR NO KEY UPDATE', [offerId], PREPARED);
    },

    /**
     * How many pending trades a buyer opened as the taker (the preview's check of MAX_OPEN_TRADES): the ones on
     * their places. Trades others opened on their buy offers hold none.
     */
    pendingAsBuyer: async (buyerId: string) =>
      (
        await db.one<{ count: number }>(
          "SELECT count(*)::integer AS count FROM trades WHERE buyer_id = $1 AND status = 'pending' AND buyer_place IS NOT NULL",
          [buyerId],
          PREPARED,
        )
      ).count,

    /**
     * Whether an offer takes no further trade now (the preview's check of its max_open_trades): all its places
     * are held, or a trade holds a place past a cap its owner lowered.
     */
    offerIsFull: async (offerId: string, maxOpenTrades: number) =>
      (
        await db.one<{ full: boolean }>(
          `SELECT count(*) >= $2 OR bool_or(offer_place >= $2) AS full
           FROM trades WHERE offer_id = $1 AND status = 'pending'`,
          [offerId, maxOpenTrades],
          PREPARED,
        )
      ).full === true,

    byChannel: (channel: string) =>
      db.maybe<TradeRow>(`SELECT ${TRADE_COLUMNS} FROM trades t ${TRADE_JOINS} WHERE t.channel = $1`, [channel], PREPARED),

    /** The facts as committed now (a compare-and-set lost: what did the winner write?). */
    currentFacts: (id: string) =>
      db.one<TradeFacts>('SELECT status, buyer_paid, dispute_raised FROM trades WHERE id = $1', [id], PREPARED),

    /**
     * Unpaid pending trades opened at or before `cutoff`, oldest first: the payment window's candidates.
     * Unlocked; each is then taken with `lockForExpiry`.
     */
    expiryCandidates: async (cutoff: Date, limit: number): Promise<string[]> =>
      (
        await db.query<{ id: string }>(
          `SELECT id FROM trades WHERE status = 'pending' AND NOT buyer_paid AND created_at <= $1
           ORDER BY created_at, id LIMIT $2`,
          [cutoff, limit],
        )
      ).map((row) => row.id),

    /**
     * One candidate, locked, if it still is one and no other transaction holds it. SKIP LOCKED lets several
     * server processes sweep at once without waiting on (or expiring twice) the same trade: a trade locked
     * by another sweep, or by a party's action in flight, is left for that transaction to decide. The first
     * lock of the sweep's transaction, the one `lock_trade_change` then takes again: NO KEY UPDATE, as every
     * lock of the order (server/src/ledger/README.md "Lock order").
     */
    lockForExpiry: (id: string, cutoff: Date) =>
      db.maybe<TradeRow>(
        `SELECT ${TRADE_COLUMNS} FROM trades t ${TRADE_JOINS}
         WHERE t.id = $1 AND t.status = 'pending' AND NOT t.buyer_paid AND t.created_at <= $2
         FOR NO KEY UPDATE OF t SKIP LOCKED`,
        [id, cutoff],
      ),

    /**
     * Writes one change of a trade (trades/actions.ts decides its effects) in one statement, atomic on its own:
     * `setFacts` only if the trade still holds its `from` facts (with the dispute's time and reason, the stated
     * paying account, a moderator's resolution), and with it the system message, the conversation's last
     * activity and, when listed, the traders' counters (completed trades and the completion rate's concluded
     * ones, as the change's TradeCount says), the ledger movement, the notifications and a staff member's `audit`
     * entry. Answers the stored
     * message and the notifications, or undefined when the compare-and-set lost: under READ COMMITTED the
     * loser waits for the winner's row lock, re-reads the committed row, no longer matches, and writes nothing.
     *
     * Locks (server/src/ledger/README.md "Lock order"): the first step, `lock_trade_change` (migration 025),
     * takes the trade, its conversation and the counters, in that written order, and is also the
     * compare-and-set; every later step reads its row, so none writes before it returned, and those steps
     * write only rows it holds or new rows. The ledger's balance slots come last, in `ledger_post`, whose call
     * names the trade from the row of the step before (as `open` does): it runs once that row exists, so after
     * the locks and never for a change that lost. Add a fragment only on these terms: a row others write too
     * is locked in `lock_trade_change`, in its place in the order.
     */
    transition: async (
      tradeId: string,
      effects: readonly TradeEffect[],
      audit?: AuditRecord,
      outbox: PushOutbox = 'every user',
      sellerUnchangedSince?: Date,
    ): Promise<{ id: string; created_at: Date; notified: Notified[]; conversation: ConversationFacts } | undefined> => {
      const setFacts = effects.find((effect) => effect.kind === 'setFacts');
      const message = effects.find((effect) => effect.kind === 'systemMessage');
      if (!setFacts || !message) throw new Error('A trade change needs its facts and its system message');
      const ledger = effects.find((effect) => effect.kind === 'ledger');
      const count = effects.find((effect) => effect.kind === 'count')?.count;

      const p = sqlParams();
      const { from, to } = setFacts;
      const at = p.add(setFacts.at);
      const toPaid = p.add(to.buyer_paid);
      const toDisputed = p.add(to.dispute_raised);
      const toStatus = p.add(to.status);
      const actor = p.add(setFacts.actorId);
      // Written only by the change that states them (mark_paid, a settlement), whose compare-and-set is the guard.
      const stated: string[] = [];
      if (setFacts.payerAccount !== null) stated.push(`payer_account = ${p.add(setFacts.payerAccount)}`);
      if (setFacts.resolution) {
        stated.push(
          `resolution = ${p.add(setFacts.resolution.outcome)}, resolution_text = ${p.add(setFacts.resolution.text)}, ` +
            `resolved_by = ${actor}, resolved_at = ${at}`,
        );
      }
      const trade = p.add(tradeId);
      const lockArguments = `${p.add(from.status)}::text, ${p.add(from.buyer_paid)}::boolean, ${p.add(from.dispute_raised)}::boolean,
             ${p.add(count?.parties ?? null)}::text, ${p.add(count?.completed ?? false)}::boolean, ${p.add(count?.concluded ?? false)}::boolean`;
      const since = sellerUnchangedSince === undefined ? undefined : p.add(sellerUnchangedSince);
      // With `sellerUnchangedSince`, the seller's security hold is the statement's own guard: a seller whose credentials
      // or allowlist changed after it (accounts/security-hold.ts) makes the lock function look for no trade at all
      // (its id NULL), so nothing is locked or written. Its argument reads the guard's row (LATERAL), so the guard is
      // always decided first.
      const lockedFrom =
        since === undefined
          ? `lock_trade_change(${trade}::bigint, ${lockArguments})`
          : `(SELECT NOT EXISTS (
               SELECT 1 FROM trades ht JOIN users hs ON hs.id = ht.seller_id
               WHERE ht.id = ${trade}::bigint
                 AND (hs.credentials_changed_at > ${since}
                      OR EXISTS (SELECT 1 FROM withdrawal_allowlist a WHERE a.user_id = hs.id AND a.created_at > ${since}))
             ) AS unheld) AS hold,
             LATERAL lock_trade_change(CASE WHEN hold.unheld THEN ${trade}::bigint END, ${lockArguments})`;
      const steps = [
        `locked AS MATERIALIZED (SELECT id FROM ${lockedFrom})`,
        `changed AS (
           UPDATE trades SET
             status = ${toStatus}, buyer_paid = ${toPaid}, dispute_raised = ${toDisputed},
             paid_at = CASE WHEN ${toPaid} AND NOT buyer_paid THEN ${at} ELSE paid_at END,
             closed_at = CASE WHEN ${toStatus} <> 'pending' THEN ${at} ELSE closed_at END,
             cancelled_by = CASE WHEN ${toStatus} = 'cancelled' THEN ${actor} ELSE cancelled_by END,
             disputed_by = CASE WHEN ${toDisputed} AND NOT dispute_raised THEN ${actor} ELSE disputed_by END,
             disputed_at = CASE WHEN ${toDisputed} AND NOT dispute_raised THEN ${at} ELSE disputed_at END,
             dispute_reason = CASE WHEN ${toDisputed} AND NOT dispute_raised THEN ${p.add(setFacts.disputeReason)} ELSE dispute_reason END
             ${stated.map((set) => `, ${set}`).join('')}
           FROM locked WHERE trades.id = locked.id
           RETURNING trades.*
         )`,
        `message AS (
           INSERT INTO chat_messages (trade_id, sender_id, recipient, text, created_at)
           SELECT id, NULL, 'all', ${p.add(message.text)}, ${at} FROM changed
           RETURNING id, trade_id, created_at
         )`,
        `touched AS (
           UPDATE conversations SET last_message_at = greatest(last_message_at, ${at})
           FROM message WHERE conversations.trade_id = message.trade_id
           RETURNING message.id, message.trade_id, message.created_at
         )`,
      ];
      let last = 'touched';
      if (ledger) {
        const { reference, postings } = ledger.movement;
        const named = `trade:${tradeId}:`;
        if (!reference.startsWith(named)) throw new Error(`A trade's movement is named after the trade: ${reference}`);
        const referenceSql = `'trade:' || ${last}.trade_id || ':' || ${p.add(reference.slice(named.length))}::text`;
        const call = entryCall({ postings, at: setFacts.at, label: reference }, referenceSql, p);
        steps.push(`posted AS (SELECT ${last}.id, ${last}.trade_id, ${last}.created_at FROM ${last}, LATERAL ${call} AS entry)`);
        last = 'posted';
      }
      const drafts = effects.find((effect) => effect.kind === 'notify')?.drafts ?? [];
      // Last, and only once everything before wrote (the step the guard names is the last one): a lost
      // compare-and-set tells nobody. New rows, whose only locks are key-share locks on the users they name.
      if (drafts.length > 0) steps.push(...notificationSteps(p, drafts, setFacts.at, last, outbox));
      // A staff member's change (a settlement) writes its audit log entry the same way: a new row, only once
      // everything before wrote.
      if (audit) steps.push(auditStep(p, audit, last));
      // The trade as changed (RETURNING of `changed`) with its parties, coin and counts: the conversation's facts
      // the announcement publishes, without reading the trade again after the commit.
      const row = await db.maybe<Omit<ConversationFacts, 'last_message'> & { message_id: string; message_at: Date; notified: unknown }>(
        `WITH ${steps.join(', ')}
         SELECT ${last}.id AS message_id, ${last}.created_at AS message_at, ${drafts.length > 0 ? NOTIFIED_JSON : "'[]'::json"} AS notified,
                ${CONVERSATION_FACTS}
         FROM ${last}, changed t ${CHAT_TRADE_JOINS}`,
        p.values,
        PREPARED,
      );
      if (!row) return undefined;
      const { message_id, message_at, notified, ...facts } = row;
      return { id: message_id, created_at: message_at, notified: notifiedOf(notified), conversation: { ...facts, last_message: message.text } };
    },

    /** One page of a trader's history, newest first, with one row more than `limit` when there is more. */
    history: (query: HistoryQuery) => {
      const p = sqlParams();
      const user = p.add(query.userId);
      const where: string[] = [`t.id IN ${TRADES_OF(user)}`];
      if (query.status) where.push(`t.status = ${p.add(query.status)}`);
      if (query.coinId !== undefined) where.push(`t.coin_id = ${p.add(query.coinId)}`);
      if (query.tradeType) where.push(query.tradeType === 'buy' ? `t.buyer_id = ${user}` : `t.seller_id = ${user}`);
      return db.query<HistoryRow>(
        `SELECT t.id, t.created_at, CASE WHEN t.buyer_id = ${user} THEN 'buy' ELSE 'sell' END AS trade_type,
                p.username AS partner, c.image, c.ticker, c.decimal_places, t.amount_crypto, t.fee_crypto,
                t.coin_usd_price, t.payment_method, t.status
         FROM trades t
         JOIN users p ON p.id = CASE WHEN t.buyer_id = ${user} THEN t.seller_id ELSE t.buyer_id END
         JOIN coins c ON c.id = t.coin_id
         WHERE ${where.join(' AND ')}
         ORDER BY t.created_at DESC, t.id DESC
         LIMIT ${p.add(query.limit + 1)} OFFSET ${p.add(query.offset)}`,
        p.values,
      );
    },

    /**
     * The trader's conversations, newest activity first, each with the latest message the trader may
     * read (to everyone, to them, or their own) and how many they have not read yet. `partnerPattern` is an
     * ILIKE pattern, wildcards escaped.
     */
    conversations: (userId: string, username: string, partnerPattern: string | undefined, limit: number) =>
      db.query<ConversationRow>(
        `SELECT t.channel, p.username AS partner,
                CASE WHEN t.buyer_id = $1 THEN 'seller' ELSE 'buyer' END AS partner_type,
                (SELECT m.text FROM chat_messages m
                 WHERE m.trade_id = t.id AND (m.recipient = 'all' OR m.recipient = $2 OR m.sender_id = $1)
                 ORDER BY m.id DESC LIMIT 1) AS last_message,
                t.buyer_paid, t.dispute_raised, t.status, ${CONVERSATION_ADDITIONS},
                r.score AS my_rating_score, r.comment AS my_rating_comment, ${unreadMessages('t.id', '$1')} AS unread
         FROM trades t
         JOIN conversations cv ON cv.trade_id = t.id
         JOIN users p ON p.id = CASE WHEN t.buyer_id = $1 THEN t.seller_id ELSE t.buyer_id END
         ${CONVERSATION_COIN}
         LEFT JOIN trade_ratings r ON r.trade_id = t.id AND r.rater_id = $1
         WHERE t.id IN ${TRADES_OF('$1')} AND ($3::text IS NULL OR p.username ILIKE $3)
         ORDER BY cv.last_message_at DESC, t.id DESC
         LIMIT $4`,
        [userId, username, partnerPattern ?? null, limit],
      ),

    /** Completed and pending trade counts of one trader (overview). */
    countsOf: (userId: string) =>
      db.one<{ completed: number; pending: number }>(
        `SELECT count(*) FILTER (WHERE status = 'completed')::integer AS completed,
                count(*) FILTER (WHERE status = 'pending')::integer AS pending
         FROM trades WHERE id IN ${TRADES_OF('$1')}`,
        [userId],
      ),

  };
}
