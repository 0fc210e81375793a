import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realtimeEvents, userChannelName } from '../../contracts/chat.ts';
import { setUserRole } from '../../server/src/accounts/roles.ts';
import { createTestApp, type TestApp } from '../support/server.ts';
import { depositAddress, depositOnChain, mine, outsider, walletRows } from '../support/server-chain.ts';
import { act, openTrade, sellOffer, signedInAgain, trader, type Trader } from '../support/server-trades.ts';

/**
 * `wallet` on a trader's own channel (docs/api.md "Realtime"): published after every committed change of their
 * balances or wallet history, to them and nobody else, so their open wallet screens read again at once.
 */

/** The usernames told `wallet` (one entry per event, in order) while `work` runs; every other event is left out. */
async function walletTold(t: TestApp, work: () => Promise<unknown>): Promise<string[]> {
  const told: string[] = [];
  const stop = t.app.realtime.subscribe((event) => {
    if (event.event !== realtimeEvents.wallet) return;
    expect(event.data).toEqual({});
    told.push(event.channel);
  });
  try {
    await work();
  } finally {
    stop();
  }
  return told;
}

const channelOf = (who: Trader) => userChannelName(who.username);
const USDT_TRON = { ticker: 'USDT', network: 'tron' } as const;

async function withdraw(t: TestApp, who: Trader, amount: string, recipient: string) {
  const preview = await t.post('/api/user/wallet/', { type: 'preview_withdrawal', mode: 'crypto', amount, recipient, ...USDT_TRON }, { token: who.token });
  expect(preview.status, JSON.stringify(preview.body)).toBe(200);
  const confirmed = await t.post('/api/user/wallet/', { type: 'confirm_withdrawal' }, { token: who.token });
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
}

describe('wallet: a trader is told live when their balances or wallet history change', () => {
  let t: TestApp;
  let stranger: Trader;
  beforeAll(async () => {
    t = await createTestApp('pglite');
    stranger = await trader(t, { USDT: '100' });
  });
  afterAll(() => t.close());

  it('a deposit seen on the chain, then credited: its owner, each time', async () => {
    const owner = await trader(t);
    const address = await depositAddress(t, owner.id, 'bitcoin');
    expect(await walletTold(t, () => depositOnChain(t, 'bitcoin', address, '0.25'))).toEqual([channelOf(owner)]);
    expect(await walletTold(t, () => mine(t))).toEqual([channelOf(owner)]);
    expect((await walletRows(t, owner.id)).map((row) => row.status)).toEqual(['completed']);
  });

  it('an external withdrawal confirmed, broadcast and sent: its sender, at each step', async () => {
    const sender = await trader(t, { USDT: '100' });
    expect(await walletTold(t, () => withdraw(t, sender, '50', outsider('tron', 'wallet-events')))).toEqual([channelOf(sender)]);
    // One round broadcasts it (its txid shows), the block mined, the next round settles it.
    expect(await walletTold(t, () => mine(t))).toEqual([channelOf(sender), channelOf(sender)]);
    expect((await walletRows(t, sender.id)).map((row) => row.status)).toEqual(['completed']);
  });

  it('an internal transfer: the sender and the recipient', async () => {
    const sender = await trader(t, { USDT: '100' });
    const recipient = await trader(t);
    const told = await walletTold(t, async () => withdraw(t, sender, '20', await depositAddress(t, recipient.id, 'tron')));
    expect(told).toEqual([channelOf(sender), channelOf(recipient)]);
  });

  it("a trade's escrow: locked at open (the seller), released (both), nothing for a step that moves no money", async () => {
    const seller = await trader(t, { BTC: '1' });
    const buyer = await trader(t);
    const offer = await sellOffer(t, seller);
    let channel = '';
    expect(await walletTold(t, async () => (channel = await openTrade(t, buyer, offer, '97', 'SEPA')))).toEqual([channelOf(seller)]);
    expect(await walletTold(t, () => act(t, buyer, 'mark_paid', channel))).toEqual([]);
    const released = await walletTold(t, () => act(t, seller, 'release_coin', channel));
    expect(released.toSorted()).toEqual([channelOf(buyer), channelOf(seller)].toSorted());
    expect(released).toHaveLength(2);
  });

  it("a cancelled trade's escrow back: the seller", async () => {
    const seller = await trader(t, { BTC: '1' });
    const buyer = await trader(t);
    const channel = await openTrade(t, buyer, await sellOffer(t, seller), '97', 'SEPA');
    expect(await walletTold(t, () => act(t, buyer, 'cancel', channel))).toEqual([channelOf(seller)]);
  });

  it("an operator's rejection of a withdrawal in review: its trader", async () => {
    const whale = await trader(t, { USDT: '20000' });
    await withdraw(t, whale, '15000', outsider('tron', 'wallet-events-review'));
    const [row] = await walletRows(t, whale.id);
    expect(row?.status).toBe('review');
    const ops = await trader(t);
    expect((await setUserRole(t.app.db, ops.username, 'operator')).ok).toBe(true);
    const operator = await signedInAgain(t, ops);
    const told = await walletTold(t, async () => {
      const answer = await t.post('/api/operator/withdrawals/', { type: 'reject', id: Number(row!.id), reason: 'Not this one' }, { token: operator.token });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    });
    expect(told).toEqual([channelOf(whale)]);
    expect(told).not.toContain(channelOf(stranger));
  });
});
