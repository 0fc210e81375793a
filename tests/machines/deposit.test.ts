import { createActor } from 'xstate';
import { realtimeEvents, userChannelName, type WalletAddressEntry } from '../../contracts/index.ts';
import { bindDeposit } from '../../src/machines/deposit/deposit.actors.ts';
import {
  selectAddress,
  selectCanCopy,
  selectEntry,
  selectIsLoading,
  selectIsPickingNetwork,
  selectNeedsNetworkChoice,
  selectNetwork,
  selectShowsPrompt,
} from '../../src/machines/deposit/deposit.selectors.ts';
import type { FlowDeps } from '../../src/machines/shared/deps.ts';
import type { Notice } from '../../src/machines/shared/notify.ts';
import type { WalletService } from '../../src/services/wallets.ts';
import { fakeRealtime } from '../support/chat.ts';
import { flush } from '../support/machines.ts';
import { addressEntries, addresses } from '../support/wallet-fixtures.ts';

/** Deposit bound as the route binds it: the addresses call, the clipboard and the toasts faked. */
async function openDeposit(
  options: {
    coin?: string | null;
    answer?: () => Promise<WalletAddressEntry[]>;
    copy?: (text: string) => Promise<void>;
  } = {},
) {
  const notices: Notice[] = [];
  const addressesCall = vi.fn(options.answer ?? (async () => addressEntries));
  const copyText = vi.fn(options.copy ?? (async () => {}));
  const realtime = fakeRealtime();
  const deps = {
    wallets: { addresses: addressesCall } as unknown as WalletService,
    copyText,
    notify: (notice: Notice) => void notices.push(notice),
    realtime: realtime.service,
  } as unknown as FlowDeps;
  const actor = createActor(bindDeposit(deps), { input: { coin: options.coin ?? null, username: 'carol' } }).start();
  await flush();
  const view = () => {
    const snapshot = actor.getSnapshot();
    return {
      prompt: selectShowsPrompt(snapshot),
      coin: selectEntry(snapshot)?.coin.ticker ?? null,
      networkChoice: selectNeedsNetworkChoice(snapshot),
      pickingNetwork: selectIsPickingNetwork(snapshot),
      network: selectNetwork(snapshot)?.name ?? null,
      address: selectAddress(snapshot),
      canCopy: selectCanCopy(snapshot),
    };
  };
  return { actor, addressesCall, copyText, notices, realtime, view };
}

const nothingChosen = { prompt: true, coin: null, networkChoice: false, pickingNetwork: false, network: null, address: null, canCopy: false };

describe('deposit: choosing a coin and a network', () => {
  it('asks for the addresses once and prompts "Select a cryptocurrency" until a coin is chosen', async () => {
    const { actor, addressesCall, view } = await openDeposit();
    expect(addressesCall).toHaveBeenCalledOnce();
    expect(selectIsLoading(actor.getSnapshot())).toBe(false);
    expect(view()).toEqual(nothingChosen);
  });

  it('shows the address of a coin on one network at once', async () => {
    const { actor, view } = await openDeposit();
    actor.send({ type: 'coin.select', ticker: 'BTC' });
    expect(view()).toEqual({
      prompt: false,
      coin: 'BTC',
      networkChoice: false,
      pickingNetwork: false,
      network: 'Bitcoin',
      address: addresses.bitcoin,
      canCopy: true,
    });
  });

  it('asks for the network of USDT (ERC20 or TRC20), then shows the address on the one chosen', async () => {
    const { actor, view } = await openDeposit();
    actor.send({ type: 'coin.select', ticker: 'USDT' });
    expect(view()).toEqual({
      prompt: false,
      coin: 'USDT',
      networkChoice: true,
      pickingNetwork: true,
      network: null,
      address: null,
      canCopy: false,
    });
    actor.send({ type: 'network.select', network: 'tron' });
    expect(view()).toMatchObject({ network: 'Tron (TRC20)', address: addresses.tron, networkChoice: true, canCopy: true });
    actor.send({ type: 'network.select', network: 'ethereum' });
    expect(view()).toMatchObject({ network: 'Ethereum (ERC20)', address: addresses.ethereum });
    actor.send({ type: 'coin.select', ticker: 'LTC' });
    expect(view(), 'another coin: its own network and address').toMatchObject({
      coin: 'LTC',
      networkChoice: false,
      network: 'Litecoin',
      address: addresses.litecoin,
    });
    actor.send({ type: 'coin.select', ticker: 'USDT' });
    expect(view(), 'back to USDT: the network is asked again').toMatchObject({ pickingNetwork: true, address: null });
  });

  it('refuses a coin that is not listed and a network that is not the coin’s', async () => {
    const { actor, view } = await openDeposit();
    actor.send({ type: 'coin.select', ticker: 'DOGE' });
    expect(view()).toEqual(nothingChosen);
    actor.send({ type: 'network.select', network: 'tron' });
    expect(view(), 'no coin: no network either').toEqual(nothingChosen);
    actor.send({ type: 'coin.select', ticker: 'BTC' });
    actor.send({ type: 'network.select', network: 'tron' });
    expect(view()).toMatchObject({ coin: 'BTC', network: 'Bitcoin', address: addresses.bitcoin });
  });

  it('preselects the coin the URL names (any case); an unknown one is ignored', async () => {
    expect((await openDeposit({ coin: 'btc' })).view()).toMatchObject({ coin: 'BTC', address: addresses.bitcoin });
    expect((await openDeposit({ coin: 'USDT' })).view()).toMatchObject({ coin: 'USDT', pickingNetwork: true, address: null });
    expect((await openDeposit({ coin: 'XYZ' })).view()).toEqual(nothingChosen);
  });

  it('a failed load clears the loading flag and leaves nothing to choose, with no toast of its own', async () => {
    let fail!: (error: Error) => void;
    const { actor, notices, view } = await openDeposit({ answer: () => new Promise((_, reject) => (fail = reject)) });
    expect(selectIsLoading(actor.getSnapshot())).toBe(true);
    expect(view()).toEqual(nothingChosen);
    fail(new Error('Internet server error'));
    await flush();
    expect(selectIsLoading(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'coin.select', ticker: 'BTC' });
    expect(view()).toEqual(nothingChosen);
    expect(notices).toEqual([]);
  });
});

describe('deposit: Copy Address', () => {
  it('puts the address on the clipboard and says so', async () => {
    const { actor, copyText, notices } = await openDeposit({ coin: 'USDT' });
    actor.send({ type: 'network.select', network: 'tron' });
    actor.send({ type: 'address.copy' });
    await flush();
    expect(copyText).toHaveBeenCalledExactlyOnceWith(addresses.tron);
    expect(notices).toEqual([{ title: 'Address copied to clipboard!', type: 'success' }]);
  });

  it('tells the trader to copy it by hand when the browser refuses', async () => {
    const { actor, notices } = await openDeposit({ coin: 'BTC', copy: async () => Promise.reject(new DOMException('denied', 'NotAllowedError')) });
    actor.send({ type: 'address.copy' });
    await flush();
    expect(notices).toEqual([
      {
        title: 'Could not copy the address',
        description: 'Your browser did not allow it. Select the address and copy it by hand.',
        type: 'error',
      },
    ]);
    expect(selectCanCopy(actor.getSnapshot()), 'the trader may try again').toBe(true);
  });

  it('copies nothing before an address shows, and once at a time', async () => {
    let done!: () => void;
    const { actor, copyText, notices } = await openDeposit({ copy: () => new Promise<void>((resolve) => (done = resolve)) });
    actor.send({ type: 'address.copy' });
    actor.send({ type: 'coin.select', ticker: 'USDT' });
    actor.send({ type: 'address.copy' });
    expect(copyText).not.toHaveBeenCalled();
    actor.send({ type: 'network.select', network: 'ethereum' });
    actor.send({ type: 'address.copy' });
    expect(selectCanCopy(actor.getSnapshot())).toBe(false);
    actor.send({ type: 'address.copy' });
    expect(copyText).toHaveBeenCalledOnce();
    done();
    await flush();
    expect(notices).toHaveLength(1);
    expect(selectCanCopy(actor.getSnapshot())).toBe(true);
  });
});

describe('deposit: the balance, kept current by the trader’s own channel', () => {
  const OWN_CHANNEL = userChannelName('carol');
  const credited = addressEntries.map((entry) => (entry.coin.ticker === 'USDT' ? { ...entry, balance: '1750.000000' } : entry));

  it('reads the addresses again when the channel says `wallet`: the new balance shows, the coin and network chosen stay', async () => {
    let reads = 0;
    const { actor, addressesCall, realtime, view } = await openDeposit({ answer: async () => (reads++ === 0 ? addressEntries : credited) });
    expect(realtime.listeners(OWN_CHANNEL)).toBe(1);
    actor.send({ type: 'coin.select', ticker: 'USDT' });
    actor.send({ type: 'network.select', network: 'tron' });
    const before = view();
    expect(selectEntry(actor.getSnapshot())?.balance).toBe('1500.000000');
    realtime.emit(OWN_CHANNEL, realtimeEvents.wallet, {});
    await flush();
    expect(addressesCall).toHaveBeenCalledTimes(2);
    expect(selectEntry(actor.getSnapshot())?.balance).toBe('1750.000000');
    expect(view()).toEqual(before);
    actor.stop();
    expect(realtime.listeners(OWN_CHANNEL), 'leaving the screen ends the subscription').toBe(0);
  });

  it('a change told while the first read is on its way, or after it failed, reads again', async () => {
    const answers = [() => new Promise<WalletAddressEntry[]>(() => {}), async () => Promise.reject(new Error('Internet server error')), async () => addressEntries];
    let call = 0;
    const { actor, addressesCall, realtime } = await openDeposit({ answer: () => answers[call++]!() });
    realtime.emit(OWN_CHANNEL, realtimeEvents.wallet, {});
    await flush();
    expect(addressesCall).toHaveBeenCalledTimes(2);
    expect(actor.getSnapshot().matches('unavailable')).toBe(true);
    realtime.accept(OWN_CHANNEL);
    await flush();
    expect(addressesCall).toHaveBeenCalledTimes(3);
    expect(actor.getSnapshot().matches('ready')).toBe(true);
  });

  it('a read again that fails keeps the balance shown', async () => {
    let reads = 0;
    const { actor, realtime } = await openDeposit({
      coin: 'BTC',
      answer: async () => (reads++ === 0 ? addressEntries : Promise.reject(new Error('Internet server error'))),
    });
    realtime.emit(OWN_CHANNEL, realtimeEvents.wallet, {});
    await flush();
    expect(selectEntry(actor.getSnapshot())?.balance).toBe('0.50000000');
    expect(selectAddress(actor.getSnapshot())).toBe(addresses.bitcoin);
  });
});
