import { secp256k1 } from '@noble/curves/secp256k1.js';
import { sha256 } from '@noble/hashes/sha2.js';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALLOWLIST_MAX_ADDRESSES, type AllowlistStatus } from '../../contracts/account-protections.ts';
import type { BuiltInNetworkKey } from '../../contracts/wallet.ts';
import { CHAIN_NETWORKS } from '../../server/src/wallets/networks.ts';
import { createTestApp, dbTargets, MINUTE, type TestApp } from '../support/server.ts';
import { signUp } from '../support/server-flows.ts';
import { coinByTicker, deposit } from '../support/server-money.ts';

/** The networks an address can be listed on without EVM_NETWORKS: the built-in ones, in their order. */
const BUILT_IN = ['bitcoin', 'ethereum', 'tron', 'litecoin'];

/**
 * The withdrawal allowlist (docs/rules.md "Account protections"): POST /api/security/withdrawal_allowlist/, and
 * what it does to `user/wallet/` preview_withdrawal and confirm_withdrawal while it applies.
 */

const HOUR = 60 * MINUTE;
const WRONG_PASSWORD = { status: 400, body: { success: false, info: 'The password is not correct.' } };
const SESSION_EXPIRED = { status: 401, body: { success: false, info: 'Session expired' } };
const NOT_LISTED =
  'Your withdrawal allowlist is on, and this Bitcoin address is not on it. Add it on the Security page: a new address can be used 24 hours after it is added.';

/** A valid address of `network` whose key is nobody's on Peerex (its secret key is a digest of `seed`). */
const outsider = (network: BuiltInNetworkKey, seed: string) =>
  CHAIN_NETWORKS[network].addressOf(secp256k1.getPublicKey(sha256(new TextEncoder().encode(`${network}:${seed}`)), true));

/** The refusal's time, worked out here on its own: rounded up to the minute, in UTC. */
const utc = (at: number) => {
  const text = new Date(Math.ceil(at / MINUTE) * MINUTE).toISOString();
  return `${text.slice(0, 10)} ${text.slice(11, 16)} UTC`;
};

type Member = Awaited<ReturnType<typeof signUp>> & { id: string };

/** A signed-up trader holding 1 BTC. */
async function member(t: TestApp): Promise<Member> {
  const session = await signUp(t);
  const { id } = await t.app.db.one<{ id: string }>('SELECT id FROM users WHERE username = $1', [session.username]);
  await deposit(t.app.db, id, (await coinByTicker(t.app.db, 'BTC')).id, '1');
  return { ...session, id };
}

const allowlist = <T = AllowlistStatus>(t: TestApp, who: { token: string }, body: unknown) =>
  t.post<T>('/api/security/withdrawal_allowlist/', body, { token: who.token });
const add = (t: TestApp, who: Member, address: string, extra: Record<string, unknown> = {}) =>
  allowlist(t, who, { type: 'add', network: 'bitcoin', address, label: 'cold wallet', password: who.password, ...extra });
const status = async (t: TestApp, who: Member) => (await allowlist(t, who, { type: 'status' })).body.info;

const preview = (t: TestApp, who: Member, recipient: string) =>
  t.post<unknown>(
    '/api/user/wallet/',
    { type: 'preview_withdrawal', amount: '0.01', mode: 'crypto', recipient, ticker: 'BTC', network: 'bitcoin' },
    { token: who.token },
  );
const confirm = (t: TestApp, who: Member) => t.post<string>('/api/user/wallet/', { type: 'confirm_withdrawal' }, { token: who.token });
const withdrawalsOf = async (t: TestApp, who: Member) =>
  (await t.app.db.query<{ address: string }>("SELECT address FROM wallet_transactions WHERE user_id = $1 AND trans_type = 'withdrawal' ORDER BY id", [who.id])).map(
    (row) => row.address,
  );

const notificationsOf = async (t: TestApp, who: { id: string }, since: string) =>
  (
    await t.app.db.query<{ kind: string; title: string; body: string; link: string }>(
      'SELECT kind, title, body, link FROM notifications WHERE user_id = $1 AND id > $2 ORDER BY id',
      [who.id, since],
    )
  ).map((row) => [row.kind, row.title, row.body, row.link]);
const lastNotificationId = async (t: TestApp) =>
  (await t.app.db.one<{ id: string | null }>('SELECT max(id)::text AS id FROM notifications')).id ?? '0';

describe.each(dbTargets)('POST /api/security/withdrawal_allowlist/ on %s', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(target);
  });
  afterAll(() => t.close());

  it('answers 401 without a session', async () => {
    expect(await t.post('/api/security/withdrawal_allowlist/', { type: 'status' })).toEqual(SESSION_EXPIRED);
  });

  it('starts off and empty', async () => {
    const who = await member(t);
    expect(await allowlist(t, who, { type: 'status' })).toEqual({
      status: 200,
      body: { success: true, info: { enabled: false, enforced_until: null, addresses: [], networks: BUILT_IN } },
    });
  });

  it('adds an address as the network writes it, usable after 24 hours, and tells the owner', async () => {
    const who = await member(t);
    const address = outsider('bitcoin', 'add');
    const since = await lastNotificationId(t);
    const now = t.clock.now().getTime();
    // Bech32 in capitals is the same address: stored in its canonical lower case.
    const answer = await add(t, who, address.toUpperCase());
    expect(answer).toEqual({
      status: 200,
      body: {
        success: true,
        info: {
          enabled: false,
          enforced_until: null,
          networks: BUILT_IN,
          addresses: [
            {
              id: expect.any(Number),
              network: 'bitcoin',
              address,
              label: 'cold wallet',
              created: new Date(now).toISOString(),
              usable_from: new Date(now + 24 * HOUR).toISOString(),
            },
          ],
        },
      },
    });
    expect(await notificationsOf(t, who, since)).toEqual([
      [
        'withdrawal_allowlist_changed',
        'Withdrawal address added',
        `${address} (Bitcoin) was added to your withdrawal allowlist. Withdrawals can go to it from ${utc(now + 24 * HOUR)}. ` +
          'If this was not you, remove it now, then reset your password.',
        '/settings/security',
      ],
    ]);
  });

  it('refuses an invalid address, a wrong password, a duplicate and a full list, adding nothing', async () => {
    const who = await member(t);
    const address = outsider('bitcoin', 'refusals');
    const typo = address.slice(0, -1) + (address.endsWith('q') ? 'p' : 'q');
    expect(await add(t, who, typo)).toEqual({ status: 400, body: { success: false, info: 'This is not a valid Bitcoin address.' } });
    expect(await add(t, who, outsider('tron', 'refusals'))).toEqual({ status: 400, body: { success: false, info: 'This is not a valid Bitcoin address.' } });
    expect(await add(t, who, address, { password: 'nope' })).toEqual(WRONG_PASSWORD);
    expect((await status(t, who)).addresses).toEqual([]);

    expect((await add(t, who, address)).status).toBe(200);
    expect(await add(t, who, address)).toEqual({
      status: 409,
      body: { success: false, info: 'This address is already on your withdrawal allowlist.' },
    });
    // The same address on another network is another entry (ETH and USDT share ethereum; bitcoin and litecoin differ).
    const eth = outsider('ethereum', 'refusals');
    expect((await add(t, who, eth, { network: 'ethereum' })).status).toBe(200);

    for (let index = 2; index < ALLOWLIST_MAX_ADDRESSES; index += 1) {
      await t.app.db.query(
        'INSERT INTO withdrawal_allowlist (user_id, network, address, label, created_at, usable_from) VALUES ($1, $2, $3, $4, $5, $5)',
        [who.id, 'bitcoin', outsider('bitcoin', `filler-${index}`), '', t.clock.now()],
      );
    }
    expect(await add(t, who, outsider('bitcoin', 'one-too-many'))).toEqual({
      status: 409,
      body: { success: false, info: `Your withdrawal allowlist holds at most ${ALLOWLIST_MAX_ADDRESSES} addresses. Remove one before adding another.` },
    });
    expect((await status(t, who)).addresses).toHaveLength(ALLOWLIST_MAX_ADDRESSES);
  });

  it('refuses a label with control characters, with its sentence', async () => {
    const who = await member(t);
    const answer = await add(t, who, outsider('bitcoin', 'label'), { label: 'a\u202Eb' });
    expect(answer).toEqual({ status: 400, body: { success: false, info: 'label must be plain text' } });
  });

  it('removes only the owner\'s entry: another trader\'s id is unknown and stays', async () => {
    const owner = await member(t);
    const attacker = await member(t);
    const address = outsider('bitcoin', 'remove');
    const [entry] = (await add(t, owner, address)).body.info.addresses;
    const id = entry?.id ?? 0;

    const notOurs = { status: 404, body: { success: false, info: 'This address is not on your withdrawal allowlist.' } };
    expect(await allowlist(t, attacker, { type: 'remove', id })).toEqual(notOurs);
    expect((await status(t, owner)).addresses.map((row) => row.id)).toEqual([id]);

    const since = await lastNotificationId(t);
    expect(await allowlist(t, owner, { type: 'remove', id })).toEqual({
      status: 200,
      body: { success: true, info: { enabled: false, enforced_until: null, addresses: [], networks: BUILT_IN } },
    });
    expect(await allowlist(t, owner, { type: 'remove', id })).toEqual(notOurs);
    expect(await notificationsOf(t, owner, since)).toEqual([
      [
        'withdrawal_allowlist_changed',
        'Withdrawal address removed',
        `${address} (Bitcoin) was removed from your withdrawal allowlist. Withdrawals can no longer go to it while the list applies.`,
        '/settings/security',
      ],
    ]);
    expect(await notificationsOf(t, attacker, since)).toEqual([]);
  });

  it('while on, withdrawals go only to listed addresses whose wait is over, checked at preview and again at confirm', async () => {
    const who = await member(t);
    const listed = outsider('bitcoin', 'listed');
    const stranger = outsider('bitcoin', 'stranger');
    const since = await lastNotificationId(t);

    expect((await allowlist(t, who, { type: 'enable' })).body.info).toEqual({ enabled: true, enforced_until: null, addresses: [], networks: BUILT_IN });
    expect(await preview(t, who, stranger)).toEqual({ status: 400, body: { success: false, info: NOT_LISTED } });

    const addedAt = t.clock.now().getTime();
    expect((await add(t, who, listed)).status).toBe(200);
    const waiting = `This address was added to your withdrawal allowlist less than 24 hours ago. You can withdraw to it from ${utc(addedAt + 24 * HOUR)}.`;
    expect(await preview(t, who, listed)).toEqual({ status: 409, body: { success: false, info: waiting } });
    t.clock.advance(24 * HOUR - MINUTE);
    expect((await preview(t, who, listed)).status).toBe(409);

    t.clock.advance(MINUTE);
    expect((await preview(t, who, listed)).status).toBe(200);
    expect(await confirm(t, who)).toEqual({ status: 200, body: { success: true, info: 'Withdrawal submitted. It will be sent within 30 minutes.' } });
    expect(await withdrawalsOf(t, who)).toEqual([listed]);

    // Removed between preview and confirm: confirm refuses, and nothing leaves.
    expect((await preview(t, who, listed)).status).toBe(200);
    const [entry] = (await status(t, who)).addresses;
    expect((await allowlist(t, who, { type: 'remove', id: entry?.id })).status).toBe(200);
    expect(await confirm(t, who)).toEqual({ status: 400, body: { success: false, info: NOT_LISTED } });
    expect(await withdrawalsOf(t, who)).toEqual([listed]);
    // The refused preview is gone as well: nothing is left to confirm.
    expect((await confirm(t, who)).status).toBe(409);

    expect((await notificationsOf(t, who, since)).map(([kind, title, body]) => [kind, title, body])).toEqual([
      ['withdrawal_allowlist_changed', 'Withdrawal allowlist on', 'Withdrawals now go only to the addresses on your allowlist, once their wait is over.'],
      ['withdrawal_allowlist_changed', 'Withdrawal address added', expect.stringContaining(listed)],
      ['withdrawal_allowlist_changed', 'Withdrawal address removed', expect.stringContaining(listed)],
    ]);
  });

  it('turned on between preview and confirm, it stops the confirm', async () => {
    const who = await member(t);
    const stranger = outsider('bitcoin', 'late');
    expect((await preview(t, who, stranger)).status).toBe(200);
    expect((await allowlist(t, who, { type: 'enable' })).status).toBe(200);
    expect(await confirm(t, who)).toEqual({ status: 400, body: { success: false, info: NOT_LISTED } });
    expect(await withdrawalsOf(t, who)).toEqual([]);
  });

  it('turned off with the password, it still applies for 24 hours; turning it on again ends that wait', async () => {
    const who = await member(t);
    const stranger = outsider('bitcoin', 'after-off');
    expect((await allowlist(t, who, { type: 'enable' })).status).toBe(200);
    expect(await allowlist(t, who, { type: 'disable', password: 'wrong' })).toEqual(WRONG_PASSWORD);
    expect((await status(t, who)).enabled).toBe(true);

    const since = await lastNotificationId(t);
    const offAt = t.clock.now().getTime();
    const off = await allowlist(t, who, { type: 'disable', password: who.password });
    expect(off).toEqual({
      status: 200,
      body: { success: true, info: { enabled: false, enforced_until: new Date(offAt + 24 * HOUR).toISOString(), addresses: [], networks: BUILT_IN } },
    });
    expect(await allowlist(t, who, { type: 'disable', password: who.password })).toEqual({
      status: 409,
      body: { success: false, info: 'Your withdrawal allowlist is already off.' },
    });
    expect(await notificationsOf(t, who, since)).toEqual([
      [
        'withdrawal_allowlist_changed',
        'Withdrawal allowlist off',
        `Your withdrawal allowlist was turned off. It still applies until ${utc(offAt + 24 * HOUR)}; after that, withdrawals may go to any address. ` +
          'If this was not you, reset your password now and turn on two-factor authentication.',
        '/settings/security',
      ],
    ]);

    expect(await preview(t, who, stranger)).toEqual({ status: 400, body: { success: false, info: NOT_LISTED } });
    t.clock.advance(24 * HOUR);
    expect((await status(t, who)).enforced_until).toBeNull();
    expect((await preview(t, who, stranger)).status).toBe(200);

    // On, then off and on again: on is on at once, with no wait left over.
    expect((await allowlist(t, who, { type: 'enable' })).status).toBe(200);
    expect((await allowlist(t, who, { type: 'disable', password: who.password })).status).toBe(200);
    expect((await allowlist(t, who, { type: 'enable' })).body.info).toEqual({ enabled: true, enforced_until: null, addresses: [], networks: BUILT_IN });
    expect(await preview(t, who, stranger)).toEqual({ status: 400, body: { success: false, info: NOT_LISTED } });
  });

  it('mails the owner when an address is added or the list is turned off: a stolen session can mark the bell read, not the inbox', async () => {
    const who = await member(t);
    const address = outsider('bitcoin', 'mailed');
    const mailsTo = () => t.outbox.recent().filter((mail) => mail.to === who.email);
    const before = mailsTo().length;

    const addedAt = t.clock.now().getTime();
    expect((await add(t, who, address)).status).toBe(200);
    // What a thief holding the session does next: the bell shows nothing new.
    expect((await t.post('/api/user/notifications/', { type: 'open_all' }, { token: who.token })).body).toEqual({ success: true, info: 0 });
    await t.app.mailer.settled();
    const [added] = mailsTo();
    expect(mailsTo()).toHaveLength(before + 1);
    expect(added?.subject).toBe('A withdrawal address was added to your allowlist');
    expect(added?.text).toContain(`${address} (Bitcoin) was added to your Peerex withdrawal allowlist at `);
    expect(added?.text).toContain(`Withdrawals can go to it from ${utc(addedAt + 24 * HOUR)}.`);

    // Narrowing changes (on, remove) widen nothing: no mail.
    expect((await allowlist(t, who, { type: 'enable' })).status).toBe(200);
    const id = (await status(t, who)).addresses[0]?.id;
    expect((await allowlist(t, who, { type: 'remove', id })).status).toBe(200);
    await t.app.mailer.settled();
    expect(mailsTo()).toHaveLength(before + 1);

    const offAt = t.clock.now().getTime();
    expect((await allowlist(t, who, { type: 'disable', password: who.password })).status).toBe(200);
    await t.app.mailer.settled();
    const [off] = mailsTo();
    expect(mailsTo()).toHaveLength(before + 2);
    expect(off?.subject).toBe('Your withdrawal allowlist was turned off');
    expect(off?.text).toContain(`It still applies until ${utc(offAt + 24 * HOUR)}; after that, withdrawals may go to any address.`);

    // Refused changes mail nothing.
    expect(await add(t, who, outsider('bitcoin', 'refused'), { password: 'nope' })).toEqual(WRONG_PASSWORD);
    await t.app.mailer.settled();
    expect(mailsTo()).toHaveLength(before + 2);
  });

  it('matches a recipient however its case is written, and only on the network it was listed for', async () => {
    const who = await member(t);
    await deposit(t.app.db, who.id, (await coinByTicker(t.app.db, 'USDT')).id, '100');
    const checksummed = outsider('ethereum', 'aliases');
    const usdt = (recipient: string, network: BuiltInNetworkKey) =>
      t.post<unknown>(
        '/api/user/wallet/',
        { type: 'preview_withdrawal', amount: '50', mode: 'crypto', recipient, ticker: 'USDT', network },
        { token: who.token },
      );
    expect((await allowlist(t, who, { type: 'enable' })).status).toBe(200);
    // Listed in lower case (no checksum), with spaces around it: stored as the network writes it.
    expect((await add(t, who, `  ${checksummed.toLowerCase()} `, { network: 'ethereum' })).body.info.addresses.map((row) => row.address)).toEqual([
      checksummed,
    ]);
    t.clock.advance(24 * HOUR);
    for (const written of [checksummed, checksummed.toLowerCase(), `0x${checksummed.slice(2).toUpperCase()}`, ` ${checksummed}\t`]) {
      expect((await usdt(written, 'ethereum')).status, written).toBe(200);
    }
    // The same key's Tron address is another destination: not listed.
    const sameKeyOnTron = CHAIN_NETWORKS.tron.addressOf(secp256k1.getPublicKey(sha256(new TextEncoder().encode('ethereum:aliases')), true));
    expect(await usdt(sameKeyOnTron, 'tron')).toEqual({
      status: 400,
      body: { success: false, info: expect.stringContaining('this Tron address is not on it') },
    });
    // A checksum with one letter's case flipped is not that address at all.
    const flipAt = [...checksummed].findIndex((char, index) => index > 1 && /[a-f]/i.test(char));
    const broken = checksummed.slice(0, flipAt) + (checksummed[flipAt] === checksummed[flipAt]?.toLowerCase() ? checksummed[flipAt]?.toUpperCase() : checksummed[flipAt]?.toLowerCase()) + checksummed.slice(flipAt + 1);
    expect((await usdt(broken, 'ethereum')).status).toBe(400);
  });

  // Two connections at once: PostgreSQL only (PGlite has one).
  if (target === 'postgres') it('confirm waits for a removal in progress and then refuses, so no removal answers before a withdrawal it should stop (PostgreSQL)', async () => {
    const who = await member(t);
    const listed = outsider('bitcoin', 'race');
    expect((await allowlist(t, who, { type: 'enable' })).status).toBe(200);
    const [entry] = (await add(t, who, listed)).body.info.addresses;
    t.clock.advance(24 * HOUR);
    expect((await preview(t, who, listed)).status).toBe(200);

    // The owner's removal, caught between its delete and its commit; the thief's confirm arrives meanwhile.
    const remover = new pg.Client({ connectionString: t.config.databaseUrl });
    await remover.connect();
    try {
      await remover.query('BEGIN');
      await remover.query('DELETE FROM withdrawal_allowlist WHERE id = $1', [entry?.id]);
      let answered: Awaited<ReturnType<typeof confirm>> | undefined;
      const confirming = confirm(t, who).then((answer) => (answered = answer));
      // Confirm must wait for the removal to decide, not go by the row as it was before it.
      await expect
        .poll(
          async () =>
            answered ??
            (await remover.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)).rows[0].n,
          { timeout: 10_000 },
        )
        .toBe(1);
      await remover.query('COMMIT');
      expect(await confirming).toEqual({ status: 400, body: { success: false, info: NOT_LISTED } });
      expect(await withdrawalsOf(t, who)).toEqual([]);
    } finally {
      await remover.end();
    }
  });

  it('does not touch the withdrawals of a trader whose list is off', async () => {
    const who = await member(t);
    expect((await add(t, who, outsider('bitcoin', 'just-listed'))).status).toBe(200);
    expect((await preview(t, who, outsider('bitcoin', 'anywhere'))).status).toBe(200);
  });
});
