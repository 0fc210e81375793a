/**
 * POST /api/operator/traders/ (docs/api.md "Operator: traders", docs/operators.md "Traders and suspension"): the
 * operator's search, a trader's page, notes, and the four actions on an account, each written in the audit log;
 * and what a suspension does to the trader (signs in nowhere, their sockets close, offers pause) and does not do
 * to their counterparties (pending trades go on to an end, disputes reach the desk).
 */
import PusherClient from 'pusher-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userChannelName } from '../../contracts/chat.ts';
import type { DisputeSummary } from '../../contracts/moderation.ts';
import type { TraderDossier, TraderSearchResult } from '../../contracts/operator.ts';
import type { LoginResponse } from '../../contracts/security.ts';
import { setUserRole } from '../../server/src/accounts/roles.ts';
import { fixed, Money } from '../../server/src/ledger/money.ts';
import { beamsSdk, browserSubscription } from '../support/push.ts';
import { createTestApp, dbTargets, MINUTE, type CallResult, type TestApp } from '../support/server.ts';
import { codeAt, lastCodeFor, listOffers, login, newTrader, sessionIdOf, signUp, signUpWithTwoFactor } from '../support/server-flows.ts';
import { balance, coinByTicker, expectLedgerClean } from '../support/server-money.ts';
import {
  act,
  listeningPort,
  moderationCall,
  moderator,
  openTrade,
  realtimeClientOf,
  sellOffer,
  signedInAgain,
  tradeCall,
  tradeFacts,
  trader,
  type Trader,
} from '../support/server-trades.ts';
import { btcRecipient } from '../support/withdrawal-fixtures.ts';

const PATH = '/api/operator/traders/';
const SESSION_ENDED = 4009;
const CLOSED_WITHIN_MS = 2000;
const FCM = 'https://fcm.googleapis.com/fcm/send/operator-traders';

const refused = (status: number, info: string) => ({ status, body: { success: false, info } });
const done = <T>(info: T) => ({ status: 200, body: { success: true, info } });
const EXPIRED = refused(401, 'Session expired');
const OPERATORS_ONLY = refused(403, 'Only operators can use the operator console.');
const NO_SUCH_TRADER = refused(404, 'There is no trader by that name.');
const SUSPENDED = refused(403, 'This account is suspended. Please contact support.');
const STAFF = refused(409, 'This is a staff account: the console acts on traders only. Staff accounts are changed from the command line.');
const INVALID_CREDENTIALS = refused(400, 'Invalid username or password.');

/** Everything an operator call could change about a user: their row, sessions, offers, notes, devices, and the audit log. */
async function stateOf(t: TestApp, who: { id: string; username: string }) {
  const db = t.app.db;
  return {
    user: await db.one('SELECT * FROM users WHERE id = $1', [who.id]),
    sessions: await db.query('SELECT id, revoked_at FROM sessions WHERE user_id = $1 ORDER BY id', [who.id]),
    offers: await db.query('SELECT id, is_active FROM offers WHERE user_id = $1 ORDER BY id', [who.id]),
    notes: await db.query('SELECT * FROM operator_notes WHERE user_id = $1 ORDER BY id', [who.id]),
    devices: await db.query('SELECT id, session_id FROM push_devices WHERE user_id = $1 ORDER BY id', [who.id]),
    audit: await db.query('SELECT id FROM audit_log ORDER BY id'),
  };
}

/** The audit rows about `username`, oldest first, as the operator's log would show them. */
const auditOf = (t: TestApp, username: string) =>
  t.app.db.query<{ actor: string; actor_role: string; action: string; target: string; reason: string | null; before: unknown; after: unknown; at: Date }>(
    'SELECT actor, actor_role, action, target, reason, before, after, at FROM audit_log WHERE target = $1 ORDER BY id',
    [username],
  );

/** A signed-up trader made an operator as `npm run user:role` does, signed in again. */
async function operator(t: TestApp): Promise<Trader> {
  const who = await trader(t);
  expect((await setUserRole(t.app.db, who.username, 'operator')).ok).toBe(true);
  return signedInAgain(t, who);
}

const tradersCall = <T = string>(t: TestApp, who: Trader | undefined, body: unknown): Promise<CallResult<T>> =>
  t.post<T>(PATH, body, who ? { token: who.token } : {});

describe.each(dbTargets)('POST /api/operator/traders/ on %s', (target) => {
  let t: TestApp;
  let port = 0;
  let ops: Trader;
  const clients: PusherClient[] = [];

  beforeAll(async () => {
    t = await createTestApp(target);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = listeningPort(t);
    ops = await operator(t);
  });
  afterAll(async () => {
    for (const client of clients) client.disconnect();
    await t?.close();
  });

  const call = <T = string>(body: unknown) => tradersCall<T>(t, ops, body);

  /** `who`'s browser listening on their own channel through unmodified pusher-js; answers the close codes it saw. */
  async function liveSocket(who: Trader): Promise<{ closes: number[]; client: PusherClient }> {
    const client = realtimeClientOf(who, port);
    clients.push(client);
    const closes: number[] = [];
    client.connection.bind('error', (error: { type?: string; data?: { code?: unknown } }) => {
      if (error.type === 'PusherError' && typeof error.data?.code === 'number') closes.push(error.data.code);
    });
    const subscription = client.subscribe(userChannelName(who.username));
    await new Promise((resolve, reject) => {
      subscription.bind('pusher:subscription_succeeded', resolve);
      subscription.bind('pusher:subscription_error', reject);
    });
    return { closes, client };
  }

  async function expectClosed(socket: { closes: number[]; client: PusherClient }) {
    await expect.poll(() => socket.closes, { timeout: CLOSED_WITHIN_MS, interval: 20 }).toContain(SESSION_ENDED);
    await expect.poll(() => socket.client.connection.state, { timeout: CLOSED_WITHIN_MS, interval: 20 }).toBe('disconnected');
  }

  /** A browser bound to `who`'s session for web pushes, through the device API as the Beams SDK binds it. */
  async function boundDevice(who: Trader): Promise<string> {
    const sdk = beamsSdk(t.app, { ip: `198.51.100.${Math.floor(Math.random() * 250) + 1}` });
    const registered = await sdk.registerDevice(browserSubscription(`${FCM}-${Math.random()}`).token);
    expect(registered.status).toBe(200);
    const beams = await t.app.inject({ method: 'GET', url: `/api/push/beams-auth/?user_id=${who.username}`, headers: { authorization: `Bearer ${who.token}` } });
    expect((await sdk.setUserId(registered.body.id, beams.json<{ token: string }>().token)).status).toBe(200);
    return registered.body.id;
  }

  const boundTo = async (deviceId: string) =>
    (await t.app.db.one<{ user_id: string | null }>('SELECT user_id FROM push_devices WHERE id = $1', [deviceId])).user_id;

  describe('who may call', () => {
    it('a trader and a moderator get 403 for every type and nothing changes; without a session, 401', async () => {
      const victim = await trader(t);
      await sellOffer(t, victim);
      const someTrader = await trader(t);
      const mod = await moderator(t);
      const bodies = [
        { type: 'search', query: victim.username },
        { type: 'get', username: victim.username },
        { type: 'note', username: victim.username, text: 'A note' },
        { type: 'suspend', username: victim.username, reason: 'Abuse' },
        { type: 'reinstate', username: victim.username, reason: 'Sorry' },
        { type: 'force_password_reset', username: victim.username, reason: 'Stolen' },
        { type: 'end_sessions', username: victim.username, reason: 'Stolen' },
      ];
      const before = await stateOf(t, victim);
      for (const body of bodies) {
        expect(await tradersCall(t, someTrader, body), `${body.type} by a trader`).toEqual(OPERATORS_ONLY);
        expect(await tradersCall(t, mod, body), `${body.type} by a moderator`).toEqual(OPERATORS_ONLY);
        expect(await tradersCall(t, undefined, body), `${body.type} without a session`).toEqual(EXPIRED);
        expect(await tradersCall(t, { ...ops, token: 'not-a-session' }, body), `${body.type} with a made-up token`).toEqual(EXPIRED);
      }
      // Even a body that is not JSON: refused as the request arrives, before it is read.
      expect(await t.post(PATH, undefined, { token: someTrader.token, raw: '{not json' })).toEqual(OPERATORS_ONLY);
      expect(await stateOf(t, victim)).toEqual(before);
      // The victim's session still works.
      expect((await tradeCall(t, victim, { type: 'history' })).status).toBe(200);
    });

    it('bad bodies get a clear 400 sentence', async () => {
      expect(await call({ type: 'suspend', username: 'someone' })).toEqual(refused(400, 'reason: Please write the reason'));
      expect(await call({ type: 'suspend', username: 'someone', reason: '   ' })).toEqual(refused(400, 'reason: Please write the reason'));
      expect(await call({ type: 'note', username: 'someone', text: 'x'.repeat(2001) })).toEqual(refused(400, 'text: A note can be at most 2,000 characters'));
      expect(await call({ type: 'get', username: '' })).toEqual(refused(400, 'username is required'));
    });
  });

  describe('search', () => {
    it('finds part of a username or an email in any case, newest first, 20 a page; wildcards are taken literally', async () => {
      const tag = `srch${Math.floor(Math.random() * 1e6)}`;
      const made: string[] = [];
      for (let i = 0; i < 21; i += 1) {
        const details = newTrader(tag);
        await signUp(t, details);
        made.push(details.username);
      }
      const newestFirst = [...made].reverse();
      const first = await call<TraderSearchResult>({ type: 'search', query: tag.toUpperCase() });
      expect(first.status).toBe(200);
      expect(first.body.info.traders.map((row) => row.username)).toEqual(newestFirst.slice(0, 20));
      expect(first.body.info.paginator).toEqual({ prev: false, next: true, previous_page: null, next_page: 2 });
      const second = await call<TraderSearchResult>({ type: 'search', query: tag, page: 2 });
      expect(second.body.info.traders.map((row) => row.username)).toEqual(newestFirst.slice(20));
      expect(second.body.info.paginator).toEqual({ prev: true, next: false, previous_page: 1, next_page: null });

      // By email (its own domain is `example.test`; the part before it is the username here, so a search for the
      // whole address finds exactly one).
      const one = made[3]!;
      const row = await t.app.db.one<{ created_at: Date }>('SELECT created_at FROM users WHERE username = $1', [one]);
      const lastSeen = await t.app.db.one<{ at: Date }>('SELECT max(s.last_used_at) AS at FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.username = $1', [one]);
      expect(await call({ type: 'search', query: ` ${one.toUpperCase()}@EXAMPLE.test ` })).toEqual(
        done({
          traders: [{ username: one, email: `${one.toLowerCase()}@example.test`, role: 'trader', joined: row.created_at.toISOString(), suspended: false, last_seen: lastSeen.at.toISOString() }],
          paginator: { prev: false, next: false, previous_page: null, next_page: null },
        }),
      );
      // LIKE's wildcards are text: no username or email holds a % or a \, and "_" only the names that have one.
      expect((await call<TraderSearchResult>({ type: 'search', query: '%' })).body.info.traders).toEqual([]);
      expect((await call<TraderSearchResult>({ type: 'search', query: '\\' })).body.info.traders).toEqual([]);
      const underscored = await signUp(t, { ...newTrader('und'), username: `u_${tag}` });
      expect((await call<TraderSearchResult>({ type: 'search', query: `_${tag}` })).body.info.traders.map((found) => found.username)).toEqual([underscored.username]);
      // Empty: everyone, newest first; staff are listed with their role.
      const everyone = await call<TraderSearchResult>({ type: 'search' });
      expect(everyone.body.info.traders[0]?.username).toBe(underscored.username);
      const staff = (await call<TraderSearchResult>({ type: 'search', query: ops.username })).body.info.traders.find((found) => found.username === ops.username);
      expect(staff?.role).toBe('operator');
    });
  });

  describe('get', () => {
    it("answers the trader's page: balances, trades, sign-ins, devices, push devices and notes, exactly", async () => {
      const who = await trader(t, { BTC: '1' });
      const btc = await coinByTicker(t.app.db, 'BTC');
      t.clock.advance(MINUTE);
      const laptop = await signedInAgain(t, who);
      t.clock.advance(MINUTE);
      const phone = await signedInAgain(t, who);
      expect((await t.post('/api/security/logout/', { device: 'vitest' }, { token: phone.token })).status).toBe(200);
      const device = await boundDevice(laptop);

      // A trade as seller (pending), one as buyer (paid and disputed).
      const offer = await sellOffer(t, who);
      const buyer = await trader(t);
      t.clock.advance(MINUTE);
      const sold = await openTrade(t, buyer, offer, '97', 'SEPA');
      const seller = await trader(t, { BTC: '1' });
      const theirs = await sellOffer(t, seller);
      t.clock.advance(MINUTE);
      const bought = await openTrade(t, who, theirs, '50', 'SEPA');
      expect((await act(t, who, 'mark_paid', bought)).status).toBe(200);
      expect((await act(t, who, 'raise_dispute', bought, 'No release')).status).toBe(200);
      // A withdrawal on its way.
      expect((await t.post('/api/user/wallet/', { type: 'preview_withdrawal', amount: '0.01', mode: 'crypto', recipient: btcRecipient, ticker: 'BTC', network: 'bitcoin' }, { token: who.token })).status).toBe(200);
      expect((await t.post('/api/user/wallet/', { type: 'confirm_withdrawal' }, { token: who.token })).status).toBe(200);

      t.clock.advance(MINUTE);
      expect(await call({ type: 'note', username: who.username, text: '  First contact: asked about limits.  ' })).toEqual(done('Note added.'));
      t.clock.advance(MINUTE);
      expect(await call({ type: 'note', username: who.username.toUpperCase(), text: 'Second note' })).toEqual(done('Note added.'));

      const db = t.app.db;
      const user = await db.one<{ email: string; created_at: Date }>('SELECT email, created_at FROM users WHERE id = $1', [who.id]);
      const sessions = await db.query<{ id: string; created_at: Date; last_used_at: Date; revoked_at: Date | null; client_address: string }>(
        'SELECT id, created_at, last_used_at, revoked_at, client_address FROM sessions WHERE user_id = $1 ORDER BY id DESC',
        [who.id],
      );
      expect(sessions.map((session) => session.id)).toEqual(await Promise.all([phone, laptop, who].map((one) => sessionIdOf(t, one.token))));
      const trade = (channel: string) =>
        db.one<{ trading_amount_crypto: string; created_at: Date }>('SELECT trading_amount_crypto::text AS trading_amount_crypto, created_at FROM trades WHERE channel = $1', [channel]);
      const soldRow = await trade(sold);
      const boughtRow = await trade(bought);
      const coins = await db.query<{ ticker: string; decimal_places: number }>('SELECT ticker, decimal_places FROM coins ORDER BY id');
      const notes = await db.query<{ id: string; created_at: Date }>('SELECT id, created_at FROM operator_notes WHERE user_id = $1 ORDER BY id', [who.id]);
      const available = new Money('1').minus(soldRow.trading_amount_crypto).minus('0.01');

      const page = await call<TraderDossier>({ type: 'get', username: ` ${who.username.toUpperCase()} ` });
      expect(page).toEqual(
        done({
          username: who.username,
          email: user.email,
          role: 'trader',
          joined: user.created_at.toISOString(),
          suspended: false,
          last_seen: new Date(Math.max(...sessions.map((session) => session.last_used_at.getTime()))).toISOString(),
          two_factor: false,
          suspension: null,
          balances: coins.map((coin) =>
            coin.ticker === 'BTC'
              ? { ticker: 'BTC', decimal_places: btc.decimal_places, available: fixed(available, 8), escrow: fixed(soldRow.trading_amount_crypto, 8), withdrawing: '0.01000000' }
              : { ticker: coin.ticker, decimal_places: coin.decimal_places, available: fixed(0, coin.decimal_places), escrow: fixed(0, coin.decimal_places), withdrawing: fixed(0, coin.decimal_places) },
          ),
          trades: [
            { channel: bought, created: boughtRow.created_at.toISOString(), role: 'buyer', partner: seller.username, coin__ticker: 'BTC', trading_amount_crypto: fixed(boughtRow.trading_amount_crypto, 8), trading_amount: '50.00', currency__code: 'EUR', status: 'pending', dispute_raised: true },
            { channel: sold, created: soldRow.created_at.toISOString(), role: 'seller', partner: buyer.username, coin__ticker: 'BTC', trading_amount_crypto: fixed(soldRow.trading_amount_crypto, 8), trading_amount: '97.00', currency__code: 'EUR', status: 'pending', dispute_raised: false },
          ],
          sign_ins: sessions.map((session) => ({
            id: Number(session.id),
            created: session.created_at.toISOString(),
            last_used: session.last_used_at.toISOString(),
            device: 'vitest',
            ip: session.client_address,
            current: false,
            active: session.revoked_at === null,
          })),
          devices: sessions
            .filter((session) => session.revoked_at === null)
            .map((session) => ({ device: 'vitest', address: session.client_address, signed_in: session.created_at.toISOString(), last_used: session.last_used_at.toISOString() })),
          push_devices: 1,
          notes: [
            { id: Number(notes[0]!.id), author: ops.username, text: 'First contact: asked about limits.', created: notes[0]!.created_at.toISOString() },
            { id: Number(notes[1]!.id), author: ops.username, text: 'Second note', created: notes[1]!.created_at.toISOString() },
          ],
        }),
      );
      expect(sessions.map((session) => session.revoked_at === null)).toEqual([false, true, true]);
      expect(await boundTo(device)).toBe(who.id);
      // Reading is not an action: no audit row but the notes'.
      expect((await auditOf(t, who.username)).map((row) => row.action)).toEqual(['note_added', 'note_added']);
    });

    it('an unknown username is 404 "There is no trader by that name." for every type, and nothing is written', async () => {
      const audit = await t.app.db.query('SELECT id FROM audit_log');
      for (const body of [
        { type: 'get', username: 'nobody_here' },
        { type: 'note', username: 'nobody_here', text: 'x' },
        { type: 'suspend', username: 'nobody_here', reason: 'x' },
        { type: 'reinstate', username: 'nobody_here', reason: 'x' },
        { type: 'force_password_reset', username: 'nobody_here', reason: 'x' },
        { type: 'end_sessions', username: 'nobody_here', reason: 'x' },
      ]) {
        expect(await call(body), body.type).toEqual(NO_SUCH_TRADER);
      }
      expect(await t.app.db.query('SELECT id FROM audit_log')).toEqual(audit);
    });
  });

  describe('note', () => {
    it('stores the note with its author and writes note_added in the audit log', async () => {
      const who = await trader(t);
      const at = t.clock.now();
      expect(await call({ type: 'note', username: who.username, text: 'Claims to be a company.' })).toEqual(done('Note added.'));
      const note = await t.app.db.one<{ id: string; author_id: string; text: string; created_at: Date }>('SELECT id, author_id, text, created_at FROM operator_notes WHERE user_id = $1', [who.id]);
      expect(note).toEqual({ id: expect.any(String), author_id: ops.id, text: 'Claims to be a company.', created_at: at });
      expect(await auditOf(t, who.username)).toEqual([
        { actor: ops.username, actor_role: 'operator', action: 'note_added', target: who.username, reason: null, before: null, after: { note: Number(note.id), text: 'Claims to be a company.' }, at },
      ]);
    });
  });

  describe('suspend', () => {
    it("ends the trader's sessions, sockets and push bindings at once, pauses their offers, and writes before and after", async () => {
      const who = await trader(t, { BTC: '1' });
      const laptop = await signedInAgain(t, who);
      const kept = await sellOffer(t, who);
      const paused = await sellOffer(t, who, { payment_methods: ['Revolut'] });
      const other = await sellOffer(t, who, { currency: 'USD' });
      expect((await t.post('/api/market/offers/', { type: 'toggle', id: paused }, { token: who.token })).status).toBe(200);
      const socket = await liveSocket(who);
      const laptopSocket = await liveSocket(laptop);
      const device = await boundDevice(laptop);
      // Browse Offers, as a stranger loads it now: cached for a few seconds (offers/offer-list-cache.ts).
      const stranger = await trader(t);
      const listed = async () =>
        (await listOffers(t, stranger.token, { user__username__icontains: who.username })).body.info.offers
          .map((offer) => offer.id)
          .filter((id) => [kept, paused, other].includes(id));
      expect(await listed()).toEqual([other, kept]);

      t.clock.advance(MINUTE);
      const at = t.clock.now();
      expect(await call({ type: 'suspend', username: who.username, reason: '  Chargeback fraud reported by three buyers.  ' })).toEqual(
        done(`${who.username} is suspended: every session of theirs ended and their offers are paused.`),
      );
      await expectClosed(socket);
      await expectClosed(laptopSocket);
      expect(await boundTo(device)).toBeNull();
      expect(await t.app.db.query('SELECT id, is_active FROM offers WHERE user_id = $1 ORDER BY id', [who.id])).toEqual([
        { id: String(kept), is_active: false },
        { id: String(paused), is_active: false },
        { id: String(other), is_active: false },
      ]);
      expect(await listed()).toEqual([]);
      expect(await t.app.db.one('SELECT suspended_at, suspended_reason, suspended_by FROM users WHERE id = $1', [who.id])).toEqual({
        suspended_at: at,
        suspended_reason: 'Chargeback fraud reported by three buyers.',
        suspended_by: ops.id,
      });
      expect(await auditOf(t, who.username)).toEqual([
        {
          actor: ops.username,
          actor_role: 'operator',
          action: 'trader_suspended',
          target: who.username,
          reason: 'Chargeback fraud reported by three buyers.',
          before: { suspended: false, live_sessions: 2, push_devices: 1, active_offers: [kept, other] },
          after: { suspended: true, live_sessions: 0, push_devices: 0, active_offers: [] },
          at,
        },
      ]);
      const page = (await call<TraderDossier>({ type: 'get', username: who.username })).body.info;
      expect(page).toMatchObject({ suspended: true, suspension: { at: at.toISOString(), by: ops.username, reason: 'Chargeback fraud reported by three buyers.' }, devices: [], push_devices: 0 });
      expect((await call<TraderSearchResult>({ type: 'search', query: who.username })).body.info.traders[0]?.suspended).toBe(true);
    });

    it('a suspended trader cannot sign in, trade, chat or withdraw: old tokens answer 401, the right password 403', async () => {
      const who = await trader(t, { BTC: '1' });
      const offer = await sellOffer(t, who);
      expect(await call({ type: 'suspend', username: who.username, reason: 'Abuse' })).toMatchObject({ status: 200 });

      const tries = [
        () => tradeCall(t, who, { type: 'history' }),
        () => tradeCall(t, who, { type: 'open', offer, amount: '97', payment_method: 'SEPA', rate: '1' }),
        () => t.post('/api/market/chat/', { type: 'conversations' }, { token: who.token }),
        () => t.post('/api/market/offers/', { type: 'toggle', id: offer }, { token: who.token }),
        () => t.post('/api/user/wallet/', { type: 'list' }, { token: who.token }),
        () => t.post('/api/user/wallet/', { type: 'preview_withdrawal', amount: '0.01', mode: 'crypto', recipient: btcRecipient, ticker: 'BTC', network: 'bitcoin' }, { token: who.token }),
        () => t.post('/api/user/wallet/', { type: 'confirm_withdrawal' }, { token: who.token }),
      ];
      for (const [i, attempt] of tries.entries()) expect(await attempt(), `try ${i}`).toEqual(EXPIRED);
      const realtime = await t.app.inject({ method: 'POST', url: '/api/realtime/auth/', headers: { authorization: `Bearer ${who.websocketToken}` }, payload: { socket_id: '1.2', channel_name: userChannelName(who.username) } });
      expect(realtime.statusCode).toBe(401);

      // Signing in: the password is checked first, so only its holder learns of the suspension.
      expect(await login(t, who.username, 'not-the-password')).toEqual(INVALID_CREDENTIALS);
      expect(await login(t, who.username, who.password)).toEqual(SUSPENDED);
      expect(await t.app.db.query('SELECT id FROM sessions WHERE user_id = $1 AND revoked_at IS NULL', [who.id])).toEqual([]);

      // A session a sign-in racing the suspension could have opened is no session either.
      const raced = await signedInAgain(t, who);
      expect(await tradeCall(t, raced, { type: 'history' })).toEqual(EXPIRED);
      expect(await t.post('/api/user/wallet/', { type: 'list' }, { token: raced.token })).toEqual(EXPIRED);
      expect(await balance(t.app.db, who.id, 1, 'available')).toBe('1');
      expect(await t.app.db.query("SELECT id FROM wallet_transactions WHERE user_id = $1 AND trans_type = 'withdrawal'", [who.id])).toEqual([]);
    });

    it('the two-factor step of a sign-in begun before the suspension is refused with 403 too', async () => {
      const who = await signUpWithTwoFactor(t);
      const first = (await login(t, who.username, who.password)).body.info as Extract<LoginResponse, { two_factor: true }>;
      expect(first.two_factor).toBe(true);
      expect(await call({ type: 'suspend', username: who.username, reason: 'Abuse' })).toMatchObject({ status: 200 });
      const second = await t.post('/api/security/two_factor_login/', { token: first.token, code: await codeAt(t, who.secret), device: 'vitest' });
      expect(second).toEqual(SUSPENDED);
      expect(await login(t, who.username, who.password)).toEqual(SUSPENDED);
      expect((await t.app.db.one<{ n: number }>('SELECT count(*)::int AS n FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.username = $1 AND s.revoked_at IS NULL', [who.username])).n).toBe(0);
    });

    it('their pending trades go on: the counterparty releases one and disputes another, which reaches the desk', async () => {
      const suspect = await trader(t, { BTC: '1' });
      const partner = await trader(t, { BTC: '1' });
      const mod = await moderator(t);
      // The suspect sells on their offer to the partner, and buys on the partner's offer, paid already.
      const suspectOffer = await sellOffer(t, suspect);
      const asSeller = await openTrade(t, partner, suspectOffer, '97', 'SEPA');
      const partnerOffer = await sellOffer(t, partner);
      const asBuyer = await openTrade(t, suspect, partnerOffer, '50', 'SEPA');
      expect((await act(t, suspect, 'mark_paid', asBuyer)).status).toBe(200);
      const pendingOnOffer = await openTrade(t, partner, suspectOffer, '20', 'SEPA');

      expect(await call({ type: 'suspend', username: suspect.username, reason: 'Abuse' })).toMatchObject({ status: 200 });

      // The partner (the seller) releases what the suspect paid for: it completes, the coins are the suspect's.
      expect((await act(t, partner, 'release_coin', asBuyer)).status).toBe(200);
      expect(await tradeFacts(t, asBuyer)).toEqual({ status: 'completed', buyer_paid: true, dispute_raised: false });
      // The partner (the buyer) cancels one and pays and disputes the other: the desk sees it.
      expect((await act(t, partner, 'cancel', pendingOnOffer)).status).toBe(200);
      expect(await tradeFacts(t, pendingOnOffer)).toEqual({ status: 'cancelled', buyer_paid: false, dispute_raised: false });
      expect((await act(t, partner, 'mark_paid', asSeller)).status).toBe(200);
      expect((await act(t, partner, 'raise_dispute', asSeller, 'Paid, and the seller was suspended')).status).toBe(200);
      const desk = await moderationCall<DisputeSummary[]>(t, mod, { type: 'list' });
      expect(desk.body.info.find((dispute) => dispute.channel === asSeller)).toMatchObject({ seller: suspect.username, buyer: partner.username, disputed_by: partner.username });
      // …and settles it for the buyer.
      expect((await moderationCall(t, mod, { type: 'resolve', channel: asSeller, outcome: 'release', resolution: 'Payment proven.' })).status).toBe(200);
      expect((await tradeFacts(t, asSeller)).status).toBe('completed');
      // No new trade opens on the suspect's offer: it is paused.
      expect((await tradeCall(t, partner, { type: 'open', offer: suspectOffer, amount: '20', payment_method: 'SEPA', rate: '1' })).status).toBe(404);
      await expectLedgerClean(t.app.db);
    });

    it('a password reset of a suspended account changes the password but signs no one in', async () => {
      const who = await signUp(t);
      expect(await call({ type: 'suspend', username: who.username, reason: 'Abuse' })).toMatchObject({ status: 200 });
      t.clock.advance(2 * MINUTE);
      expect((await t.post('/api/security/reset_password/', { type: 'request', email: who.email })).status).toBe(200);
      const password = 'brand-new-pass-9';
      expect(await t.post('/api/security/reset_password/', { type: 'reset', email: who.email, code: lastCodeFor(t, who.email), password, confirmPassword: password })).toEqual(
        done('Password reset successful'),
      );
      expect(await login(t, who.username, password)).toEqual(SUSPENDED);
      expect(await t.app.db.query('SELECT s.id FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.username = $1 AND s.revoked_at IS NULL', [who.username])).toEqual([]);
    });

    it('refuses a trader already suspended, and staff accounts (moderators, operators), changing nothing', async () => {
      const who = await trader(t);
      expect(await call({ type: 'suspend', username: who.username, reason: 'First' })).toMatchObject({ status: 200 });
      const before = await stateOf(t, who);
      expect(await call({ type: 'suspend', username: who.username, reason: 'Again' })).toEqual(refused(409, 'This trader is already suspended.'));
      expect(await stateOf(t, who)).toEqual(before);

      const mod = await moderator(t);
      const otherOps = await operator(t);
      for (const staff of [mod, otherOps, ops]) {
        const staffBefore = await stateOf(t, staff);
        for (const type of ['suspend', 'force_password_reset', 'end_sessions']) {
          expect(await call({ type, username: staff.username, reason: 'x' }), `${type} ${staff.username}`).toEqual(STAFF);
        }
        expect(await stateOf(t, staff)).toEqual(staffBefore);
      }
      // Staff keep working.
      expect((await moderationCall(t, mod, { type: 'list' })).status).toBe(200);
      expect((await tradersCall(t, otherOps, { type: 'search' })).status).toBe(200);
    });
  });

  describe('reinstate', () => {
    it('lifts the suspension: the trader signs in again; their offers stay paused until they resume them', async () => {
      const who = await trader(t);
      const offer = await sellOffer(t, who);
      expect(await call({ type: 'suspend', username: who.username, reason: 'Abuse' })).toMatchObject({ status: 200 });
      t.clock.advance(MINUTE);
      const at = t.clock.now();
      expect(await call({ type: 'reinstate', username: who.username, reason: 'The buyers withdrew their reports.' })).toEqual(
        done(`${who.username} is reinstated and can sign in again. Their offers stay paused until they resume them.`),
      );
      expect(await t.app.db.one('SELECT suspended_at, suspended_reason, suspended_by FROM users WHERE id = $1', [who.id])).toEqual({
        suspended_at: null,
        suspended_reason: null,
        suspended_by: null,
      });
      expect((await auditOf(t, who.username)).slice(1)).toEqual([
        { actor: ops.username, actor_role: 'operator', action: 'trader_reinstated', target: who.username, reason: 'The buyers withdrew their reports.', before: { suspended: true }, after: { suspended: false }, at },
      ]);
      const again = await login(t, who.username, who.password);
      expect(again.status).toBe(200);
      const session = again.body.info as Extract<LoginResponse, { two_factor: false }>;
      expect((await t.app.db.one<{ is_active: boolean }>('SELECT is_active FROM offers WHERE id = $1', [offer])).is_active).toBe(false);
      expect(await t.post('/api/market/offers/', { type: 'toggle', id: offer }, { token: session.token })).toEqual(done({ is_active: true, message: 'Offer resumed.' }));
      expect((await call<TraderDossier>({ type: 'get', username: who.username })).body.info).toMatchObject({ suspended: false, suspension: null });
    });

    it('refuses a trader who is not suspended (409), changing nothing', async () => {
      const who = await trader(t);
      const before = await stateOf(t, who);
      expect(await call({ type: 'reinstate', username: who.username, reason: 'x' })).toEqual(refused(409, 'This trader is not suspended.'));
      expect(await stateOf(t, who)).toEqual(before);
    });
  });

  describe('force_password_reset', () => {
    it('the password stops working, every session ends; the owner is mailed and sets a new one with the reset code', async () => {
      const who = await trader(t);
      const laptop = await signedInAgain(t, who);
      const socket = await liveSocket(laptop);
      const device = await boundDevice(laptop);
      const email = (await t.app.db.one<{ email: string }>('SELECT email FROM users WHERE id = $1', [who.id])).email;
      const first = (await login(t, who.username, who.password)).body.info as Extract<LoginResponse, { two_factor: false }>;

      t.clock.advance(MINUTE);
      const at = t.clock.now();
      expect(await call({ type: 'force_password_reset', username: who.username, reason: 'The trader reported a stolen laptop.' })).toEqual(
        done(`${who.username}'s password no longer works and every session of theirs ended: they choose a new one with "Forgot password?".`),
      );
      await expectClosed(socket);
      expect(await boundTo(device)).toBeNull();
      for (const token of [who.token, laptop.token, first.token]) expect(await tradeCall(t, { ...who, token }, { type: 'history' })).toEqual(EXPIRED);
      expect(await login(t, who.username, who.password)).toEqual(INVALID_CREDENTIALS);
      expect(t.outbox.recent().find((mail) => mail.to === email && mail.subject === 'Choose a new password for your Peerex account')?.text).toContain('"Forgot password?"');
      expect(await auditOf(t, who.username)).toEqual([
        {
          actor: ops.username,
          actor_role: 'operator',
          action: 'password_reset_forced',
          target: who.username,
          reason: 'The trader reported a stolen laptop.',
          before: { live_sessions: 3, push_devices: 1 },
          after: { live_sessions: 0, push_devices: 0 },
          at,
        },
      ]);

      // The "forgot password" flow: the new password works, and withdrawals wait 24 hours from it.
      t.clock.advance(2 * MINUTE);
      expect((await t.post('/api/security/reset_password/', { type: 'request', email })).status).toBe(200);
      const password = 'brand-new-pass-7';
      expect(await t.post('/api/security/reset_password/', { type: 'reset', email, code: lastCodeFor(t, email), password, confirmPassword: password })).toEqual(done('Password reset successful'));
      expect((await login(t, who.username, password)).status).toBe(200);
      expect(await login(t, who.username, who.password)).toEqual(INVALID_CREDENTIALS);
      expect((await t.app.db.one<{ at: Date }>('SELECT credentials_changed_at AS at FROM users WHERE id = $1', [who.id])).at).toEqual(t.clock.now());
    });
  });

  describe('end_sessions', () => {
    it('ends every session (sockets closed, push devices unbound); the password still works', async () => {
      const who = await trader(t);
      const laptop = await signedInAgain(t, who);
      const socket = await liveSocket(who);
      const laptopSocket = await liveSocket(laptop);
      const device = await boundDevice(who);
      t.clock.advance(MINUTE);
      const at = t.clock.now();
      expect(await call({ type: 'end_sessions', username: who.username, reason: 'Asked by the trader by phone.' })).toEqual(done(`Every session of ${who.username} ended.`));
      await expectClosed(socket);
      await expectClosed(laptopSocket);
      expect(await boundTo(device)).toBeNull();
      expect(await tradeCall(t, who, { type: 'history' })).toEqual(EXPIRED);
      expect(await tradeCall(t, laptop, { type: 'history' })).toEqual(EXPIRED);
      expect(await auditOf(t, who.username)).toEqual([
        { actor: ops.username, actor_role: 'operator', action: 'sessions_ended', target: who.username, reason: 'Asked by the trader by phone.', before: { live_sessions: 2, push_devices: 1 }, after: { live_sessions: 0, push_devices: 0 }, at },
      ]);
      expect((await login(t, who.username, who.password)).status).toBe(200);
    });
  });
});
