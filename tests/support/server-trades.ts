/** Traders with balances, offers and trades, through the API as the web app makes them. */
import { randomBytes } from 'node:crypto';
import PusherClient from 'pusher-js';
import { afterAll, beforeAll, expect } from 'vitest';
import { BUILT_IN_KEY } from '../../server/src/infra/realtime/settings.ts';
import { setUserRole } from '../../server/src/accounts/roles.ts';
import type { UserRole } from '../../contracts/security.ts';
import { tradesRepository } from '../../server/src/trades/trades.repository.ts';
import { TRADE_CHANNEL_HEADER, type Conversation, type TradeHistory, type TradePreview } from '../../contracts/trade.ts';
import type { RealtimeEvent } from '../../server/src/infra/realtime/realtime.plugin.ts';
import { deposit, coinByTicker, expectLedgerClean } from './server-money.ts';
import { publishOffer, signUp } from './server-flows.ts';
import { createTestApp, type CallResult, type DbTarget, type TestApp } from './server.ts';

export interface Trader {
  id: string;
  username: string;
  token: string;
  /** The session's realtime credential (channel authorization). */
  websocketToken: string;
  /** The account's password: a release's second proof (docs/rules.md "Trades"); `trader()` always sets it. */
  password?: string;
}

/** A signed-up trader holding `balances` (ticker → amount) in available, deposited through the ledger. */
export async function trader(t: TestApp, balances: Record<string, string> = {}): Promise<Trader & { password: string }> {
  const session = await signUp(t);
  const { id } = await t.app.db.one<{ id: string }>('SELECT id FROM users WHERE username = $1', [session.username]);
  for (const [ticker, amount] of Object.entries(balances)) {
    const coin = await coinByTicker(t.app.db, ticker);
    await deposit(t.app.db, id, coin.id, amount);
  }
  return { id, username: session.username, token: session.token, websocketToken: session.user.websocket_token, password: session.password };
}

/**
 * A browser bound to `who` for web push, as the built-in device API leaves one (its keys are never used here):
 * with the built-in API a trade's statements queue a push only for a party with a device (docs/rules.md "Notifications").
 */
export const bindDevice = (t: TestApp, who: { id: string }) =>
  t.app.db.query(
    `INSERT INTO push_devices (id, instance_id, token, endpoint, p256dh, auth, user_id, created_at, last_seen_at)
     VALUES ($1, 'instance', 'token', 'https://push.invalid/' || $1, 'p256dh', 'auth', $2, now(), now())`,
    [`device-${who.id}`, who.id],
  );

export type TradeBody = Record<string, unknown>;

export const tradeCall = <T = string>(t: TestApp, who: Trader, body: TradeBody): Promise<CallResult<T>> =>
  t.post<T>('/api/market/trade/', body, { token: who.token });

export const preview = (t: TestApp, who: Trader, offer: number, amount: string, payment_method: string) =>
  tradeCall<TradePreview>(t, who, { type: 'preview', offer, amount, payment_method });

/** Opens at the offer's rate as it is now (what a taker who just loaded it saw), unless told another. */
export const open = async (t: TestApp, who: Trader, offer: number, amount: string, payment_method: string, rate?: string) =>
  tradeCall<string>(t, who, { type: 'open', offer, amount, payment_method, rate: rate ?? (await offerRate(t, offer)) });

/** An offer's rate as stored; a missing offer has none, and '1' stands in (the call will be refused on the offer). */
const offerRate = async (t: TestApp, offer: number) =>
  (await t.app.db.maybe<{ rate: string }>('SELECT rate::text AS rate FROM offers WHERE id = $1', [offer]))?.rate ?? '1';

/** A party's action as the web app sends it: a release carries the password, its second proof, as the chat asks for it. */
export const act = (t: TestApp, who: Trader, type: string, channel: string, reason?: string) =>
  tradeCall<string>(t, who, { type, channel, ...(reason === undefined ? {} : { reason }), ...(type === 'release_coin' && who.password !== undefined ? { password: who.password } : {}) });

/** A release with exactly the proof given (none: `{}`), for the tests of the proof itself. */
export const release = (t: TestApp, who: Trader, channel: string, proof: { password?: string; code?: string } = {}) =>
  tradeCall<string>(t, who, { type: 'release_coin', channel, ...proof });

export const history = (t: TestApp, who: Trader, body: TradeBody = {}) =>
  tradeCall<TradeHistory>(t, who, { type: 'history', ...body });

export const conversationsOf = (t: TestApp, who: Trader, search?: string) =>
  t.post<Conversation[]>('/api/market/chat/', search === undefined ? { type: 'conversations' } : { type: 'conversations', search }, { token: who.token });

/** Opens a trade (asserting success) and answers its channel, as the answer's header names it. */
export async function openTrade(t: TestApp, taker: Trader, offer: number, amount: string, method: string): Promise<string> {
  const opened = await t.app.inject({
    method: 'POST',
    url: '/api/market/trade/',
    headers: { authorization: `Bearer ${taker.token}`, 'content-type': 'application/json' },
    payload: { type: 'open', offer, amount, payment_method: method, rate: await offerRate(t, offer) },
  });
  expect(opened.statusCode, opened.body).toBe(200);
  const channel = opened.headers[TRADE_CHANNEL_HEADER.toLowerCase()];
  expect(typeof channel).toBe('string');
  return channel as string;
}

/**
 * A sell offer as the open statement reads it, and that statement as the service runs it for a 97 EUR trade of 0.001
 * BTC by `taker` (the buyer): what an owner's change between the checks and the statement meets. Undefined
 * answers (nothing written) say the statement refused the offer as it now is.
 */
export async function openStatementAsRead(t: TestApp, offer: number, owner: Trader, taker: Trader) {
  const repository = tradesRepository(t.app.db);
  const read = await repository.offerForTrade(offer, taker.id);
  if (!read) throw new Error('the offer is there');
  return () =>
    repository.open(
      {
        offerId: read.id, buyerId: taker.id, sellerId: owner.id, coinId: read.coin_id, currencyCode: read.currency_code, rate: read.rate,
        coinUsdPrice: read.usd_price, tradingAmount: '97.00', feeLocal: '0.97', amountLocal: '96.03', tradingAmountCrypto: '0.001',
        feeCrypto: '0.00001', amountCrypto: '0.00099', paymentMethod: 'SEPA', channel: randomBytes(16).toString('base64url'),
        escrowSlot: 0, buyerPlaces: 5, conditions: read, countsForReputation: true, at: t.clock.now(),
      },
      'Trade opened (test).',
      [
        { account: { kind: 'available', userId: owner.id, coinId: read.coin_id }, amount: '-0.001' },
        { account: { kind: 'escrow', userId: owner.id, coinId: read.coin_id }, amount: '0.001', slot: 0 },
      ],
    );
}

/** A sell offer of `ticker` for EUR at rate 1 (1 EUR per USD), SEPA and Revolut, 1–100,000 EUR. */
export function sellOffer(t: TestApp, owner: Trader, overrides: Record<string, unknown> = {}): Promise<number> {
  return publishOffer(t, owner.token, {
    offer_type: 'sell',
    coin: '1',
    currency: 'EUR',
    rate: '1',
    min_amount: '1',
    max_amount: '100000',
    payment_methods: ['SEPA', 'Revolut'],
    ...overrides,
  });
}

export const tradeFacts = (t: TestApp, channel: string) =>
  t.app.db.one<{ status: string; buyer_paid: boolean; dispute_raised: boolean }>(
    'SELECT status, buyer_paid, dispute_raised FROM trades WHERE channel = $1',
    [channel],
  );

/** Everything a call could change about a trade: its row, its chat and the ledger's entries for it (a refused call leaves all as it was). */
export const tradeStateOf = async (t: TestApp, channel: string) => ({
  trade: await t.app.db.one('SELECT * FROM trades WHERE channel = $1', [channel]),
  messages: await t.app.db.query('SELECT m.* FROM chat_messages m JOIN trades tr ON tr.id = m.trade_id WHERE tr.channel = $1 ORDER BY m.id', [channel]),
  entries: await t.app.db.query(`SELECT reference FROM ledger_entries WHERE reference LIKE 'trade:' || (SELECT id FROM trades WHERE channel = $1) || ':%' ORDER BY id`, [channel]),
});

/** A trader's counters (migrations 010 and 019), summed over their slots. */
export const tradeCountsOf = (t: TestApp, who: Trader) =>
  t.app.db.one<{ completed: number; concluded: number }>(
    'SELECT coalesce(sum(completed), 0)::integer AS completed, coalesce(sum(concluded), 0)::integer AS concluded FROM trader_trade_counts WHERE user_id = $1',
    [who.id],
  );

/** The port a test app listens on once `app.listen({ port: 0 })` resolved. */
export function listeningPort(t: TestApp): number {
  const address = t.app.server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

/**
 * A trader's browser connection as the web app makes it: unmodified pusher-js (its Node build) against the
 * built-in server on the product's port, authorized by /api/realtime/auth/ with the trader's websocket token.
 */
export function realtimeClientOf(who: Trader, port: number): PusherClient {
  return new PusherClient(BUILT_IN_KEY, {
    cluster: 'peerex',
    wsHost: '127.0.0.1',
    wsPort: port,
    forceTLS: false,
    enabledTransports: ['ws'],
    channelAuthorization: {
      endpoint: `http://127.0.0.1:${port}/api/realtime/auth/`,
      transport: 'ajax',
      headers: { Authorization: `Bearer ${who.websocketToken}` },
    },
  });
}

/**
 * A signed-up trader made a moderator as `npm run user:role` does, which ends their sessions, and signed in
 * again (a session opened as the login call opens one, without the "New sign-in" notification of a login).
 */
export async function moderator(t: TestApp): Promise<Trader> {
  const who = await trader(t);
  const change = await setUserRole(t.app.db, who.username, 'moderator');
  expect(change.ok, change.sentence).toBe(true);
  return signedInAgain(t, who);
}

/** A signed-up account made an operator as `npm run user:role` does (docs/operators.md "The role"), and signed in again. */
export async function operator(t: TestApp): Promise<Trader> {
  const who = await trader(t);
  const change = await setUserRole(t.app.db, who.username, 'operator');
  expect(change.ok, change.sentence).toBe(true);
  return signedInAgain(t, who);
}

/** A new session of `who` (their old ones ended by a role change, say), opened as a sign-in opens one. */
export async function signedInAgain(t: TestApp, who: Trader): Promise<Trader> {
  const user = await t.app.db.one<{ id: string; username: string; email: string; role: UserRole }>('SELECT id, username, email, role FROM users WHERE id = $1', [who.id]);
  const session = await t.app.sessions.open(t.app.db, user, { label: 'vitest', key: null }, '127.0.0.1');
  return { ...who, token: session.token, websocketToken: session.user.websocket_token };
}

export const moderationCall = <T = string>(t: TestApp, who: Trader | undefined, body: unknown): Promise<CallResult<T>> =>
  t.post<T>('/api/market/moderation/', body, who ? { token: who.token } : {});

/** Opens a trade, has the buyer mark it paid and `by` (default the buyer) raise a dispute; answers the channel. */
export async function disputedTrade(
  t: TestApp,
  parties: { buyer: Trader; seller: Trader; offer: number; by?: Trader },
  amount = '97',
  reason = 'The payment has not arrived',
): Promise<string> {
  const channel = await openTrade(t, parties.buyer, parties.offer, amount, 'SEPA');
  expect((await act(t, parties.buyer, 'mark_paid', channel)).status).toBe(200);
  expect((await act(t, parties.by ?? parties.buyer, 'raise_dispute', channel, reason)).status).toBe(200);
  return channel;
}

/**
 * A suite's traders, set up before its first test: an app on `target` (with `env`), a seller holding 1 BTC with a
 * sell offer that has room for 20 open trades, a buyer, a stranger to the trades, and every realtime event the
 * app publishes, in order (empty it with `events.length = 0`). After the last test the ledger must be clean.
 */
export function tradingSuite(target: DbTarget, env: Record<string, string> = {}) {
  const suite = { events: [] as RealtimeEvent[] } as { t: TestApp; seller: Trader; buyer: Trader; stranger: Trader; offer: number; events: RealtimeEvent[] };
  beforeAll(async () => {
    suite.t = await createTestApp(target, { env });
    suite.seller = await trader(suite.t, { BTC: '1' });
    suite.buyer = await trader(suite.t);
    suite.stranger = await trader(suite.t);
    suite.offer = await sellOffer(suite.t, suite.seller, { max_open_trades: 20 });
    suite.t.app.realtime.subscribe((event) => suite.events.push(event));
  });
  afterAll(async () => {
    await expectLedgerClean(suite.t.app.db);
    await suite.t.close();
  });
  return suite;
}
