import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { Decimal } from 'decimal.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConfirmationStatus } from '../../contracts/security.ts';
import { CHAIN_NETWORKS } from '../../server/src/wallets/networks.ts';
import { MINUTE, createTestApp, dbTargets, type TestApp } from '../support/server.ts';
import { codeAt, lastCodeFor, login, otherCode, publishOffer } from '../support/server-flows.ts';
import { balance, expectLedgerClean } from '../support/server-money.ts';
import {
  act,
  disputedTrade,
  moderationCall,
  moderator,
  open,
  openTrade,
  preview,
  release,
  sellOffer,
  tradeStateOf,
  trader,
  type Trader,
} from '../support/server-trades.ts';

/**
 * Releasing escrow needs a second proof, and selling waits after a security change (docs/rules.md "Trades",
 * "Account protections"): market/trade/ `release_coin` with `password` or `code`, the window a proof opens,
 * security/confirmation/ `status`, and the security hold on `open` and `release_coin`.
 */

const HOUR = 60 * MINUTE;
const BTC = 1;
const refused = (status: number, info: string) => ({ status, body: { success: false, info } });
const RELEASED = { status: 200, body: { success: true, info: 'Coin released. The trade is completed.' } };
const ASK_PASSWORD = refused(403, 'Please confirm the release with your password.');
const ASK_CODE = refused(403, 'Please confirm the release with your authenticator code.');
const CODE_USED = refused(403, 'This authentication code has already been used. Please wait for the next one.');
const PAUSED = refused(409, 'Selling is paused for 24 hours after a security change.');
const SELLER_PAUSED = refused(409, "This offer's seller cannot sell right now. Please choose another offer or try again later.");
const LOCKED = refused(429, 'Too many failed sign-in attempts. Please try again in 15 minutes.');

/** A Bitcoin address nobody on Peerex holds (its secret key is a digest of `seed`). */
const amountOf = (value: string) => new Decimal(value).toString();
const outsideAddress = (seed: string) => CHAIN_NETWORKS.bitcoin.addressOf(secp256k1.getPublicKey(sha256(new TextEncoder().encode(seed)), true));

describe.each(dbTargets)('release confirmation and the security hold on %s', (target) => {
  let t: TestApp;
  let accomplice: Trader;
  /** The accomplice's buy offer at a rate of 0.00001 EUR per USD: 1 BTC for 0.97 EUR. */
  let robbery: number;
  beforeAll(async () => {
    t = await createTestApp(target);
    accomplice = await trader(t);
    robbery = await publishOffer(t, accomplice.token, { offer_type: 'buy', rate: '0.00001', min_amount: '0.5', max_amount: '0.95' });
  });
  afterAll(async () => {
    await expectLedgerClean(t.app.db);
    await t.close();
  });

  const confirmation = (who: { token: string }, body: unknown = { type: 'status' }, ip?: string) =>
    t.post<ConfirmationStatus>('/api/security/confirmation/', body, { token: who.token, ...(ip ? { ip } : {}) });
  const proofAsked = async (who: { token: string }) => (await confirmation(who)).body.info.proof;

  /** The victim's session sells 0.90 EUR worth (0.92783505 BTC) on the accomplice's offer, who marks it paid. */
  async function robberyTrade(victim: Trader): Promise<string> {
    const channel = await openTrade(t, victim, robbery, '0.90', 'SEPA');
    expect((await act(t, accomplice, 'mark_paid', channel)).status).toBe(200);
    return channel;
  }
  /** A sale on a seller's sell offer, paid by a fresh buyer: ready to release. */
  async function paidSale(offer: number): Promise<{ channel: string; buyer: Trader }> {
    const buyer = await trader(t);
    const channel = await openTrade(t, buyer, offer, '97', 'SEPA');
    expect((await act(t, buyer, 'mark_paid', channel)).status).toBe(200);
    return { channel, buyer };
  }
  const statusOf = async (channel: string) =>
    (await t.app.db.one<{ status: string }>('SELECT status FROM trades WHERE channel = $1', [channel])).status;

  /** Two-factor on through the API (a security change); answers the secret. */
  async function turnOnTwoFactor(who: Trader): Promise<string> {
    const setup = await t.post<{ secret: string }>('/api/security/two_factor/', { type: 'setup' }, { token: who.token });
    const enabled = await t.post('/api/security/two_factor/', { type: 'enable', code: await codeAt(t, setup.body.info.secret), password: who.password }, { token: who.token });
    expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
    // The enabling code's step is spent: two steps on, a code one step back is unspent too.
    t.clock.advance(2 * 30_000);
    return setup.body.info.secret;
  }
  const afterTheHold = () => t.clock.advance(24 * HOUR + MINUTE);

  describe('the reproduction: a thief with the victim\'s session and an accomplice\'s buy offer at 0.00001', () => {
    it('a victim who just turned two-factor on (allowlist on) can neither sell to it nor release, with or without a proof', async () => {
      const victim = await trader(t, { BTC: '1' });
      const { channel: before, buyer } = await paidSale(await sellOffer(t, victim));
      const stolen = await robberyTrade(victim);
      expect((await t.post('/api/security/withdrawal_allowlist/', { type: 'enable' }, { token: victim.token })).status).toBe(200);
      const secret = await turnOnTwoFactor(victim);
      const held = await balance(t.app.db, victim.id, BTC, 'escrow');
      const accompliceHeld = await balance(t.app.db, accomplice.id, BTC, 'available');

      // The thief's session sells to the accomplice's offer: refused before any coin moves.
      expect(await preview(t, victim, robbery, '0.90', 'SEPA')).toEqual(PAUSED);
      expect(await open(t, victim, robbery, '0.90', 'SEPA')).toEqual(PAUSED);
      // A sale opened (and paid) before the change: no release, whatever proof comes with it.
      const stateBefore = await tradeStateOf(t, stolen);
      expect(await release(t, victim, stolen)).toEqual(PAUSED);
      expect(await release(t, victim, stolen, { code: await codeAt(t, secret) })).toEqual(PAUSED);
      expect(await release(t, victim, before, { password: victim.password })).toEqual(PAUSED);
      expect(await tradeStateOf(t, stolen)).toEqual(stateBefore);
      expect(await balance(t.app.db, victim.id, BTC, 'escrow')).toBe(held);
      expect(await balance(t.app.db, accomplice.id, BTC, 'available')).toBe(accompliceHeld);
      // Buying stays possible under the hold; the buyer who paid can still raise a dispute.
      expect((await act(t, buyer, 'raise_dispute', before, 'Paid, not released')).status).toBe(200);

      // 24 hours on, the owner (with the code: two-factor is on) releases.
      afterTheHold();
      expect(await release(t, victim, stolen, { password: victim.password })).toEqual(ASK_CODE);
      expect(await release(t, victim, stolen, { code: await codeAt(t, secret) })).toEqual(RELEASED);
    });

    it('a victim under no hold: the session opens the sale, but the release stops at the password and nothing moves', async () => {
      const victim = await trader(t, { BTC: '1' });
      expect((await t.post('/api/security/withdrawal_allowlist/', { type: 'enable' }, { token: victim.token })).status).toBe(200);
      const stolen = await robberyTrade(victim);
      const state = await tradeStateOf(t, stolen);
      const escrow = await balance(t.app.db, victim.id, BTC, 'escrow');
      expect(amountOf(escrow)).toBe('0.92783505');
      const accompliceHeld = await balance(t.app.db, accomplice.id, BTC, 'available');

      expect(await release(t, victim, stolen)).toEqual(ASK_PASSWORD);
      expect(await release(t, victim, stolen, { password: '' })).toEqual(ASK_PASSWORD);
      expect(await release(t, victim, stolen, { password: 'correct-horse-8' })).toEqual(ASK_PASSWORD);
      // A code is no proof for an account without two-factor.
      expect(await release(t, victim, stolen, { code: '123456' })).toEqual(ASK_PASSWORD);
      expect(await tradeStateOf(t, stolen)).toEqual(state);
      expect(await balance(t.app.db, victim.id, BTC, 'escrow')).toBe(escrow);
      expect(await balance(t.app.db, accomplice.id, BTC, 'available')).toBe(accompliceHeld);
      // The owner can still get the coins back: a dispute, settled by a moderator.
      expect((await act(t, victim, 'raise_dispute', stolen, 'I did not open this trade')).status).toBe(200);
    });
  });

  describe('market/trade/ release_coin with the password', () => {
    it('refuses a missing or wrong password with 403, and the escrow stays; the right one completes the trade', async () => {
      const seller = await trader(t, { BTC: '1' });
      const { channel, buyer } = await paidSale(await sellOffer(t, seller));
      const state = await tradeStateOf(t, channel);
      expect(await release(t, seller, channel)).toEqual(ASK_PASSWORD);
      expect(await release(t, seller, channel, { password: 'not-my-password' })).toEqual(ASK_PASSWORD);
      expect(await tradeStateOf(t, channel)).toEqual(state);
      expect(await balance(t.app.db, buyer.id, BTC, 'available')).toBe('0');

      expect(await release(t, seller, channel, { password: seller.password })).toEqual(RELEASED);
      expect(await statusOf(channel)).toBe('completed');
      expect(amountOf(await balance(t.app.db, buyer.id, BTC, 'available'))).toBe('0.00099');
    });

    it('checks the trade, its role and its state first: a stranger gets 404, the buyer 403, an unpaid trade 409, whatever the proof', async () => {
      const seller = await trader(t, { BTC: '1' });
      const offer = await sellOffer(t, seller);
      const buyer = await trader(t);
      const stranger = await trader(t);
      const unpaid = await openTrade(t, buyer, offer, '97', 'SEPA');
      expect(await release(t, stranger, unpaid, { password: stranger.password })).toEqual(refused(404, 'This trade does not exist.'));
      expect(await release(t, seller, unpaid)).toEqual(refused(409, 'The buyer has not marked the payment yet.'));
      expect((await act(t, buyer, 'mark_paid', unpaid)).status).toBe(200);
      expect(await release(t, buyer, unpaid)).toEqual(refused(403, 'Only the seller can release the coin.'));
    });

    it('counts wrong passwords towards the sign-in lockout; once locked, even the right one gets the lockout\'s sentence', async () => {
      const seller = await trader(t, { BTC: '1' });
      const { channel } = await paidSale(await sellOffer(t, seller));
      const ip = '198.51.100.27';
      const releaseFrom = (proof: { password?: string }) =>
        t.post<string>('/api/market/trade/', { type: 'release_coin', channel, ...proof }, { token: seller.token, ip });
      // Nothing typed is no guess.
      for (let attempt = 0; attempt < t.config.loginLockoutFailures; attempt += 1) expect(await releaseFrom({})).toEqual(ASK_PASSWORD);
      expect((await login(t, seller.username, seller.password, { ip })).status).toBe(200);
      for (let attempt = 0; attempt < t.config.loginLockoutFailures; attempt += 1) {
        expect(await releaseFrom({ password: `guess-${attempt}` })).toEqual(ASK_PASSWORD);
      }
      expect(await releaseFrom({ password: seller.password })).toEqual(LOCKED);
      expect(await releaseFrom({})).toEqual(LOCKED);
      expect(await statusOf(channel)).toBe('pending');
      // The same lockout as the password checks of the security settings: signing in from that address is locked too.
      expect(await login(t, seller.username, seller.password, { ip })).toEqual(LOCKED);
      // From another address the owner goes on.
      expect(await release(t, seller, channel, { password: seller.password })).toEqual(RELEASED);
    });

    it('opens a 10-minute window for that session: releases in it need no proof, another session asks its own, and after it the password again', async () => {
      const seller = await trader(t, { BTC: '1' });
      // Four trades pending at once: more than an offer takes by default.
      const offer = await sellOffer(t, seller, { max_open_trades: 4 });
      const trades = [await paidSale(offer), await paidSale(offer), await paidSale(offer), await paidSale(offer)];
      const [first, second, third, fourth] = trades.map((trade) => trade.channel) as [string, string, string, string];
      const phone = await login(t, seller.username, seller.password);
      const other = { token: (phone.body.info as { token: string }).token };

      expect(await proofAsked(seller)).toBe('password');
      expect(await release(t, seller, first, { password: seller.password })).toEqual(RELEASED);
      expect(await proofAsked(seller)).toBeNull();
      t.clock.advance(9 * MINUTE);
      expect(await release(t, seller, second)).toEqual(RELEASED);
      // The window is the session's: the same account on another device proves for itself.
      expect(await proofAsked(other)).toBe('password');
      expect(await t.post('/api/market/trade/', { type: 'release_coin', channel: third }, { token: other.token })).toEqual(ASK_PASSWORD);
      // A release in the window does not move it on: ten minutes after the proof, it is over.
      t.clock.advance(MINUTE + 1);
      expect(await proofAsked(seller)).toBe('password');
      expect(await release(t, seller, third)).toEqual(ASK_PASSWORD);
      expect(await release(t, seller, third, { password: seller.password })).toEqual(RELEASED);
      // While the window is open a proof is not even looked at (nothing is hashed): a wrong one passes and counts for nothing.
      expect(await release(t, seller, fourth, { password: 'anything' })).toEqual(RELEASED);
    });
  });

  describe('market/trade/ release_coin with two-factor on (as the demo\'s dave)', () => {
    it('asks for a current authenticator code, accepts each once, refuses the password, and counts wrong codes', async () => {
      const seller = await trader(t, { BTC: '1' });
      const secret = await turnOnTwoFactor(seller);
      afterTheHold();
      const offer = await sellOffer(t, seller);
      const { channel } = await paidSale(offer);
      expect(await proofAsked(seller)).toBe('code');
      expect(await release(t, seller, channel)).toEqual(ASK_CODE);
      expect(await release(t, seller, channel, { password: seller.password })).toEqual(ASK_CODE);
      expect(await release(t, seller, channel, { code: otherCode(await codeAt(t, secret)) })).toEqual(ASK_CODE);
      // Not a recovery code: those are for a lost phone, not for sending coins away.
      expect(await release(t, seller, channel, { code: 'abcde-fghij' })).toEqual(ASK_CODE);
      expect(await statusOf(channel)).toBe('pending');

      // A code the login already used is refused here too (RFC 6238 as the login's: each code once).
      const signIn = await login(t, seller.username, seller.password);
      const code = await codeAt(t, secret);
      const interim = (signIn.body.info as { token: string }).token;
      expect((await t.post('/api/security/two_factor_login/', { token: interim, code, device: 'vitest' })).status).toBe(200);
      expect(await release(t, seller, channel, { code })).toEqual(CODE_USED);

      t.clock.advance(30_000);
      expect(await release(t, seller, channel, { code: ` ${await codeAt(t, secret)} ` })).toEqual(RELEASED);
      expect(await proofAsked(seller)).toBeNull();
      const { channel: next } = await paidSale(offer);
      expect(await release(t, seller, next)).toEqual(RELEASED);

      // Wrong codes count towards the lockout as wrong passwords do.
      const sold = await paidSale(offer);
      t.clock.advance(10 * MINUTE);
      const ip = '198.51.100.44';
      const releaseFrom = (code: string) =>
        t.post('/api/market/trade/', { type: 'release_coin', channel: sold.channel, code }, { token: seller.token, ip });
      for (let attempt = 0; attempt < t.config.loginLockoutFailures; attempt += 1) expect(await releaseFrom(otherCode(await codeAt(t, secret)))).toEqual(ASK_CODE);
      expect(await releaseFrom(await codeAt(t, secret))).toEqual(LOCKED);
      expect(await statusOf(sold.channel)).toBe('pending');
    });
  });

  describe('the security hold: 24 hours after a security change a trader cannot sell', () => {
    /** A seller with 1 BTC, a sell offer and a paid sale on it, then `change` made; answers what the checks need. */
    async function heldSeller(change: (who: Trader) => Promise<Trader>) {
      const before = await trader(t, { BTC: '1' });
      const offer = await sellOffer(t, before);
      const { channel } = await paidSale(offer);
      const seller = await change(before);
      return { seller, offer, channel };
    }

    /** Every selling path refused, every buying path open; 24 hours on, selling again. */
    async function expectHeld({ seller, offer, channel }: { seller: Trader; offer: number; channel: string }, proof: () => Promise<{ password?: string; code?: string }>) {
      const buyer = await trader(t);
      const buyOffer = await publishOffer(t, buyer.token, { offer_type: 'buy', rate: '1', min_amount: '1', max_amount: '1000' });
      // Open as the seller (taking a buy offer), preview included.
      expect(await preview(t, seller, buyOffer, '97', 'SEPA')).toEqual(PAUSED);
      expect(await open(t, seller, buyOffer, '97', 'SEPA')).toEqual(PAUSED);
      // A taker would pay a seller who cannot release: refused, in the taker's words.
      expect(await preview(t, buyer, offer, '97', 'SEPA')).toEqual(SELLER_PAUSED);
      expect(await open(t, buyer, offer, '97', 'SEPA')).toEqual(SELLER_PAUSED);
      // Release, before the proof is looked at: a held seller's password is not asked for, and not counted.
      expect(await release(t, seller, channel, await proof())).toEqual(PAUSED);
      expect(await release(t, seller, channel)).toEqual(PAUSED);
      expect(await statusOf(channel)).toBe('pending');
      // Buying stays possible: the held trader takes someone else's sell offer.
      const other = await trader(t, { BTC: '1' });
      const bought = await openTrade(t, seller, await sellOffer(t, other), '97', 'SEPA');
      expect((await act(t, seller, 'mark_paid', bought)).status).toBe(200);

      t.clock.advance(24 * HOUR - 2 * MINUTE);
      expect(await open(t, seller, buyOffer, '97', 'SEPA')).toEqual(PAUSED);
      afterTheHold();
      expect(await release(t, seller, channel, await proof())).toEqual(RELEASED);
      expect((await open(t, buyer, offer, '97', 'SEPA')).status).toBe(200);
      expect((await open(t, seller, buyOffer, '97', 'SEPA')).status).toBe(200);
    }

    it('after a password reset (a new session, the new password)', async () => {
      const held = await heldSeller(async (who) => {
        const email = (await t.app.db.one<{ email: string }>('SELECT email FROM users WHERE id = $1', [who.id])).email;
        expect((await t.post('/api/security/reset_password/', { type: 'request', email })).status).toBe(200);
        const password = 'a-new-password-7';
        const reset = await t.post('/api/security/reset_password/', { type: 'reset', email, code: lastCodeFor(t, email), password, confirmPassword: password });
        expect(reset.status).toBe(200);
        const signedIn = await login(t, who.username, password);
        return { ...who, password, token: (signedIn.body.info as { token: string }).token };
      });
      await expectHeld(held, async () => ({ password: held.seller.password }));
    });

    it('after two-factor is turned on', async () => {
      let secret = '';
      const held = await heldSeller(async (who) => {
        secret = await turnOnTwoFactor(who);
        return who;
      });
      await expectHeld(held, async () => ({ code: await codeAt(t, secret) }));
    });

    it('after two-factor is turned off', async () => {
      let secret = '';
      const before = await trader(t, { BTC: '1' });
      secret = await turnOnTwoFactor(before);
      afterTheHold();
      const offer = await sellOffer(t, before);
      const { channel } = await paidSale(offer);
      const off = await t.post('/api/security/two_factor/', { type: 'disable', code: await codeAt(t, secret), password: before.password }, { token: before.token });
      expect(off.status).toBe(200);
      await expectHeld({ seller: before, offer, channel }, async () => ({ password: before.password }));
    });

    it('after an address is added to the withdrawal allowlist (counted from its created time; the list need not be on)', async () => {
      const held = await heldSeller(async (who) => {
        const added = await t.post(
          '/api/security/withdrawal_allowlist/',
          { type: 'add', network: 'bitcoin', address: outsideAddress(`release-hold:${who.id}`), label: 'cold', password: who.password },
          { token: who.token },
        );
        expect(added.status, JSON.stringify(added.body)).toBe(200);
        return who;
      });
      await expectHeld(held, async () => ({ password: held.seller.password }));
    });

    it('inside an open window too: a change made after the trade was opened, paid and its seller proved holds the next release', async () => {
      for (const change of ['allowlist', 'two-factor'] as const) {
        const seller = await trader(t, { BTC: '1' });
        const offer = await sellOffer(t, seller, { max_open_trades: 3 });
        // Opened and paid in this process, which keeps them (trades.ts `known`): the release below reads no trade first.
        const [first, second] = [await paidSale(offer), await paidSale(offer)];
        expect(await release(t, seller, first.channel, { password: seller.password })).toEqual(RELEASED);
        if (change === 'two-factor') await turnOnTwoFactor(seller);
        else {
          const added = await t.post(
            '/api/security/withdrawal_allowlist/',
            { type: 'add', network: 'bitcoin', address: outsideAddress(`window-hold:${seller.id}`), label: 'cold', password: seller.password },
            { token: seller.token },
          );
          expect(added.status, JSON.stringify(added.body)).toBe(200);
        }
        expect(await proofAsked(seller), change).toBeNull();
        expect(await release(t, seller, second.channel), change).toEqual(PAUSED);
        expect(await statusOf(second.channel), change).toBe('pending');
      }
    });

    it('not after a change that narrows nothing: turning the allowlist on, removing an address', async () => {
      const seller = await trader(t, { BTC: '1' });
      const offer = await sellOffer(t, seller);
      expect((await t.post('/api/security/withdrawal_allowlist/', { type: 'enable' }, { token: seller.token })).status).toBe(200);
      const { channel } = await paidSale(offer);
      expect(await release(t, seller, channel, { password: seller.password })).toEqual(RELEASED);
    });

    it("leaves a moderator's settlement as it was: the escrow of a held seller goes to the buyer", async () => {
      const seller = await trader(t, { BTC: '1' });
      const buyer = await trader(t);
      const mod = await moderator(t);
      const channel = await disputedTrade(t, { buyer, seller, offer: await sellOffer(t, seller) });
      await turnOnTwoFactor(seller);
      expect((await moderationCall(t, mod, { type: 'resolve', channel, outcome: 'release', resolution: 'The payment arrived' })).status).toBe(200);
      expect(await statusOf(channel)).toBe('completed');
    });
  });

  describe('POST /api/security/confirmation/', () => {
    it('answers 401 without a session, and 400 for an unknown type', async () => {
      expect(await t.post('/api/security/confirmation/', { type: 'status' })).toEqual(refused(401, 'Session expired'));
      const who = await trader(t);
      const unknown = await confirmation(who, { type: 'open' });
      expect(unknown.status).toBe(400);
    });

    it('answers which proof a release asks for: the password, or the code with two-factor on', async () => {
      const who = await trader(t, { BTC: '1' });
      expect(await confirmation(who)).toEqual({ status: 200, body: { success: true, info: { proof: 'password' } } });
      await turnOnTwoFactor(who);
      expect(await proofAsked(who)).toBe('code');
    });
  });

  it('refuses a proof that is not text with 400, naming the field', async () => {
    const who = await trader(t);
    const answer = await t.post('/api/market/trade/', { type: 'release_coin', channel: 'x', password: 42 }, { token: who.token });
    expect(answer).toEqual(refused(400, 'password must be text'));
  });
});
