import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { OPERATORS_CHANNEL, operatorEvents, type OperatorOverview } from '../../contracts/operator.ts';
import type { WalletAddressEntry } from '../../contracts/wallet.ts';
import { Money } from '../../server/src/ledger/money.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/server.ts';
import { act, bindDevice, disputedTrade, moderator, openTrade, operator, sellOffer, trader, type Trader } from '../support/server-trades.ts';

/** The instants of the scenario: ten days ago, 26 hours ago, and now (noon UTC). */
const NOW = new Date('2026-11-20T12:00:00.000Z');
const YESTERDAY = new Date('2026-11-19T10:00:00.000Z');
const LONG_AGO = new Date('2026-11-10T12:00:00.000Z');

const overviewOf = (t: TestApp, who: Trader | undefined) =>
  t.post<OperatorOverview>('/api/operator/overview/', { type: 'overview' }, who ? { token: who.token } : {});

const feeOf = async (t: TestApp, channel: string) =>
  (await t.app.db.one<{ fee: string }>('SELECT fee_crypto::text AS fee FROM trades WHERE channel = $1', [channel])).fee;

describe.each(dbTargets)('POST /api/operator/overview/ on %s', (target) => {
  let t: TestApp;
  let ops: Trader;
  let mod: Trader;
  let seller: Trader;
  let buyer: Trader;
  let offer: number;
  const fees: { longAgo: string; yesterday: string; today: string } = { longAgo: '', yesterday: '', today: '' };

  /** A completed trade of `buyer` on `offer` (97 EUR), its fee taken: answers its channel. */
  async function completed(taker: Trader) {
    const channel = await openTrade(t, taker, offer, '97', 'SEPA');
    expect((await act(t, taker, 'mark_paid', channel)).status).toBe(200);
    expect((await act(t, seller, 'release_coin', channel)).status).toBe(200);
    return channel;
  }

  beforeAll(async () => {
    t = await createTestApp(target);
    // Ten days ago: a trader who has not been back since, and a trade completed then (its fee is all-time only).
    t.clock.set(LONG_AGO);
    seller = await trader(t, { BTC: '1' });
    // The seller's browser takes web pushes: the first open queues the push the overview reports as the oldest.
    await bindDevice(t, seller);
    offer = await sellOffer(t, seller);
    const veteran = await trader(t);
    fees.longAgo = await feeOf(t, await completed(veteran));
    // 26 hours ago: a trader active this week but not today, a completed trade and a cancelled one.
    t.clock.set(YESTERDAY);
    const lastWeek = await trader(t);
    fees.yesterday = await feeOf(t, await completed(lastWeek));
    const cancelledThen = await openTrade(t, lastWeek, offer, '97', 'SEPA');
    expect((await act(t, lastWeek, 'cancel', cancelledThen)).status).toBe(200);
    // Today: one trade open, one completed, one cancelled, one disputed, and a deposit from the chain.
    t.clock.set(NOW);
    buyer = await trader(t);
    await openTrade(t, buyer, offer, '97', 'SEPA');
    fees.today = await feeOf(t, await completed(await trader(t)));
    const canceller = await trader(t);
    expect((await act(t, canceller, 'cancel', await openTrade(t, canceller, offer, '97', 'SEPA'))).status).toBe(200);
    await disputedTrade(t, { buyer: await trader(t), seller, offer });
    mod = await moderator(t);
    ops = await operator(t);
    const suspended = await t.post('/api/operator/traders/', { type: 'suspend', username: veteran.username, reason: 'Chargebacks on every trade.' }, { token: ops.token });
    expect(suspended.status).toBe(200);
    const addresses = (await t.post<WalletAddressEntry[]>('/api/user/wallet/', { type: 'addresses' }, { token: buyer.token })).body.info;
    const address = addresses.find((entry) => entry.coin.ticker === 'BTC')?.networks.find((network) => network.key === 'bitcoin')?.address ?? '';
    const chain = t.app.chain.simulated;
    if (!chain) throw new Error('the simulated chain');
    await chain.deposit({ network: 'bitcoin', address, amount: '0.01' });
    await chain.mine(1);
    await t.app.chain.sync();
    // A second deposit in a block the watcher has not read yet: one block behind.
    await chain.deposit({ network: 'bitcoin', address, amount: '0.02' });
    await chain.mine(1);
    await t.app.db.query(
      `INSERT INTO chain_incidents (network, kind, subject, detail, created_at) VALUES ('ethereum', 'hot_wallet_short', 'withdrawal:1', 'short', $1)`,
      [NOW],
    );
  });
  afterAll(() => t.close());

  it('answers 401 without a session and 403 to a trader and a moderator, changing nothing', async () => {
    const audited = async () => (await t.app.db.one<{ n: number }>('SELECT count(*)::int AS n FROM audit_log')).n;
    const before = await audited();
    expect(await overviewOf(t, undefined)).toMatchObject({ status: 401 });
    for (const who of [buyer, mod]) {
      expect(await overviewOf(t, who)).toEqual({ status: 403, body: { success: false, info: 'Only operators can use the operator console.' } });
    }
    expect(await audited()).toBe(before);
  });

  it('counts traders, trades, disputes, fees, the networks and the push queue exactly', async () => {
    await t.app.operatorOverview.refreshHoldings();
    await t.app.operatorOverview.refreshProgress();
    const answer = await overviewOf(t, ops);
    expect(answer.status).toBe(200);
    const overview = answer.body.info;
    expect(overview.generated_at).toBe(NOW.toISOString());
    // Seven traders (the moderator and the operator are not): the veteran suspended and away for ten days, one
    // last seen 26 hours ago, the other five today.
    expect(overview.traders).toEqual({ total: 7, active_24h: 5, active_7d: 6, suspended: 1 });
    expect(overview.trades).toEqual({
      open: 2,
      disputed: 1,
      today: { opened: 4, completed: 1, cancelled: 1, disputed: 1 },
      week: { opened: 6, completed: 2, cancelled: 2, disputed: 1 },
    });
    expect(overview.disputes).toEqual({ waiting: 1, oldest_waiting_since: NOW.toISOString() });

    expect(new Money(fees.today).isZero()).toBe(false);
    const btc = (value: Money) => value.toFixed(8);
    expect(overview.fees.find((fee) => fee.ticker === 'BTC')).toEqual({
      ticker: 'BTC',
      decimal_places: 8,
      today: btc(new Money(fees.today)),
      week: btc(new Money(fees.today).plus(fees.yesterday)),
      all_time: btc(new Money(fees.today).plus(fees.yesterday).plus(fees.longAgo)),
    });
    expect(overview.fees.find((fee) => fee.ticker === 'USDT')).toEqual({ ticker: 'USDT', decimal_places: 6, today: '0.000000', week: '0.000000', all_time: '0.000000' });

    expect(overview.networks.map((network) => [network.network, network.name])).toEqual([
      ['bitcoin', 'Bitcoin'],
      ['ethereum', 'Ethereum (ERC20)'],
      ['litecoin', 'Litecoin'],
      ['tron', 'Tron (TRC20)'],
    ]);
    const bitcoin = overview.networks[0];
    // Two blocks mined, the watcher read the first: one behind. Its round finished now.
    expect(bitcoin).toMatchObject({ last_block: 1, head: 2, lag_blocks: 1, last_round_at: NOW.toISOString(), open_incidents: 0, read_at: NOW.toISOString() });
    // The ledger owes the traders everything deposited (1 BTC by the ledger, 0.01 from the chain) less the fees
    // taken; the simulated chain's records hold the one credited chain deposit.
    const owed = new Money('1.01').minus(fees.today).minus(fees.yesterday).minus(fees.longAgo);
    expect(bitcoin?.holdings).toEqual([
      { ticker: 'BTC', decimal_places: 8, owed: btc(owed), held: '0.01000000', difference: btc(new Money('0.01').minus(owed)), source: 'recorded' },
    ]);
    // Nothing ever arrived on Ethereum: the watcher has read it all, to the head.
    expect(overview.networks[1]).toMatchObject({ open_incidents: 1, last_block: 2, head: 2, lag_blocks: 0 });
    expect(overview.networks[1]?.holdings.map((holding) => holding.ticker)).toEqual(['ETH', 'USDT']);
    expect(overview.networks[3]?.holdings.map((holding) => holding.ticker)).toEqual(['USDT']);

    const queued = await t.app.db.one<{ n: number }>('SELECT count(*)::int AS n FROM push_publishes');
    expect(queued.n).toBeGreaterThan(0);
    expect(overview.push_queue).toEqual({ depth: queued.n, oldest: LONG_AGO.toISOString() });
    expect(overview.reviews).toEqual({ waiting: 0, threshold_usd: '10000' });
  });

  it('publishes the overview on private-operators when a number changed, and not again while none did', async () => {
    const publish = vi.spyOn(t.app.realtime, 'publish');
    try {
      await t.app.operatorOverview.tick();
      publish.mockClear();
      expect(await t.app.operatorOverview.tick()).toBe(false);
      expect(publish).not.toHaveBeenCalled();
      // The clock moves: the time of the overview is no number an operator watches.
      t.clock.advance(1000);
      expect(await t.app.operatorOverview.tick()).toBe(false);
      await openTrade(t, buyer, offer, '97', 'SEPA');
      publish.mockClear();
      expect(await t.app.operatorOverview.tick()).toBe(true);
      const overviews = publish.mock.calls.filter(([channel]) => channel === OPERATORS_CHANNEL);
      expect(overviews).toHaveLength(1);
      expect(overviews[0]?.[1]).toBe(operatorEvents.overview);
      expect((overviews[0]?.[2] as OperatorOverview).trades.open).toBe(3);
      expect(await t.app.operatorOverview.tick()).toBe(false);
    } finally {
      publish.mockRestore();
    }
  });

  it('signs private-operators for operators only', async () => {
    const authorize = (who: Trader) => t.post('/api/realtime/auth/', { socket_id: '123.456', channel_name: OPERATORS_CHANNEL }, { token: who.websocketToken });
    const signed = await t.app.inject({
      method: 'POST',
      url: '/api/realtime/auth/',
      headers: { authorization: `Bearer ${ops.websocketToken}`, 'content-type': 'application/json' },
      payload: { socket_id: '123.456', channel_name: OPERATORS_CHANNEL },
    });
    expect(signed.statusCode).toBe(200);
    expect(signed.json()).toHaveProperty('auth');
    for (const who of [buyer, seller, mod]) {
      expect(await authorize(who)).toEqual({ status: 403, body: { success: false, info: 'You may not listen on this channel.' } });
    }
  });
});
