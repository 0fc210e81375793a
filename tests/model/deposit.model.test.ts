import { createActor, type AnyMachineSnapshot } from 'xstate';
import type { WalletAddressEntry } from '../../contracts/index.ts';
import { depositMachine } from '../../src/machines/deposit/deposit.machine.ts';
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
import type { Notice } from '../../src/machines/shared/notify.ts';
import { Coverage, describePath, replay, scriptedActors, walk, type ActorCall, type ModelEvent, type ModelPath } from '../support/machines.ts';
import { addressEntries } from '../support/wallet-fixtures.ts';

const copied: Notice = { title: 'Address copied to clipboard!', type: 'success' };
const refused: Notice = {
  title: 'Could not copy the address',
  description: 'Your browser did not allow it. Select the address and copy it by hand.',
  type: 'error',
};

const told = { type: 'realtime.wallet.changed' } as const;
const joined = { type: 'realtime.subscribed' } as const;
/** The addresses read again after a deposit was credited: the same coins and addresses, 0.25 BTC more. */
const credited: WalletAddressEntry[] = addressEntries.map((entry) => (entry.coin.ticker === 'BTC' ? { ...entry, balance: '0.75000000' } : entry));

/**
 * What the trader can do on Deposit: the addresses answer or fail; then pick BTC (one network), USDT (two)
 * or a coin that is not listed, pick any network key (the coin's or not), press Copy Address anywhere, and
 * the clipboard accepts or refuses. The trader's own channel says a balance changed, or is joined (again), or
 * fails; the addresses read again then answer (with the credited balance) or fail. The channel's events come
 * only while the clipboard rests, and not while a network is still to pick, so the graph stays small.
 */
function events(snapshot: AnyMachineSnapshot): ModelEvent[] {
  if (snapshot.matches('loading')) {
    const first: ModelEvent[] = [
      { type: 'xstate.done.actor.loadAddresses', output: addressEntries },
      { type: 'xstate.error.actor.loadAddresses', error: new Error('Internet server error') },
      told,
      joined,
    ];
    if (snapshot.children.userChannel) first.push({ type: 'xstate.error.actor.userChannel', error: new Error('refused') });
    return first;
  }
  if (snapshot.matches('unavailable')) return [told, joined];
  const channel: ModelEvent[] = [];
  if (snapshot.matches({ ready: { clipboard: 'idle' } }) && !snapshot.matches({ ready: { selection: 'pickingNetwork' } })) {
    channel.push(told, joined);
    if (snapshot.matches({ ready: { balances: 'refreshing' } })) {
      channel.push(
        { type: 'xstate.done.actor.refreshAddresses', output: credited },
        { type: 'xstate.error.actor.refreshAddresses', error: new Error('Internet server error') },
      );
    }
  }
  const list: ModelEvent[] = [
    ...channel,
    ...['BTC', 'USDT', 'DOGE'].map((ticker) => ({ type: 'coin.select', ticker })),
    ...['ethereum', 'tron', 'bitcoin'].map((network) => ({ type: 'network.select', network })),
    { type: 'address.copy' },
  ];
  if (snapshot.matches({ ready: { clipboard: 'copying' } })) {
    list.push(
      { type: 'xstate.done.actor.copyAddress', output: undefined },
      { type: 'xstate.error.actor.copyAddress', error: new DOMException('denied', 'NotAllowedError') },
    );
  }
  return list;
}

/** Opened from the Deposit button, and from a wallet card for USDT (`?coin=usdt`). */
const inputs = [
  { coin: null, username: 'carol' },
  { coin: 'usdt', username: 'carol' },
] as const;
const models = inputs.map((input) => ({ input, model: walk(depositMachine, { events, input }) }));

const entryOf = (ticker: string | null) => addressEntries.find((entry) => entry.coin.ticker === ticker);

async function run(input: { coin: string | null; username: string }, path: ModelPath, coverage?: Coverage) {
  const fakes = scriptedActors(['loadAddresses', 'copyAddress', 'userChannel']);
  const notices: Notice[] = [];
  const machine = depositMachine.provide({
    actors: fakes.actors as never,
    actions: { notify: (_, notice) => void notices.push(notice) },
  });
  const actor = createActor(machine, { input, inspect: coverage?.inspect }).start();

  // The oracle, from the spec's Deposit screen.
  let entries: WalletAddressEntry[] | null = null;
  let loading = true;
  let ticker: string | null = null;
  let network: string | null = null;
  let copying = false;
  let phase: 'loading' | 'unavailable' | 'current' | 'refreshing' = 'loading';
  let listening = true;
  const expectedCalls: ActorCall[] = [
    { id: 'userChannel', input: { username: 'carol' } },
    { id: 'loadAddresses', input: undefined },
  ];
  const expectedNotices: Notice[] = [];
  const choose = (wanted: string | null) => {
    const entry = entries?.find((candidate) => candidate.coin.ticker === wanted?.toUpperCase());
    if (!entry) return false;
    ticker = entry.coin.ticker;
    network = entry.networks.length === 1 ? entry.networks[0]!.key : null;
    return true;
  };
  const address = () => entryOf(ticker)?.networks.find((candidate) => candidate.key === network)?.address ?? null;

  await replay(actor, path, fakes, (snapshot, { event }) => {
    switch (event.type) {
      case 'xstate.done.actor.loadAddresses':
        loading = false;
        phase = 'current';
        entries = event.output as WalletAddressEntry[];
        choose(input.coin);
        break;
      case 'xstate.error.actor.loadAddresses':
        loading = false;
        phase = 'unavailable';
        break;
      case told.type:
      case joined.type:
        // What shows is read again at once; a read on its way starts over.
        if (phase === 'unavailable' || phase === 'loading') {
          loading = true;
          phase = 'loading';
          expectedCalls.push({ id: 'loadAddresses', input: undefined });
        } else {
          phase = 'refreshing';
          expectedCalls.push({ id: 'refreshAddresses', input: undefined });
        }
        break;
      case 'xstate.done.actor.refreshAddresses':
        // The balances change; the coin and network chosen stay.
        entries = event.output as WalletAddressEntry[];
        phase = 'current';
        break;
      case 'xstate.error.actor.refreshAddresses':
        phase = 'current';
        break;
      case 'xstate.error.actor.userChannel':
        listening = false;
        break;
      case 'coin.select':
        choose(String(event.ticker));
        break;
      case 'network.select':
        if (entryOf(ticker)?.networks.some((candidate) => candidate.key === event.network)) network = String(event.network);
        break;
      case 'address.copy':
        if (entries && !copying && address() !== null) {
          copying = true;
          expectedCalls.push({ id: 'copyAddress', input: { address: address() } });
        }
        break;
      case 'xstate.done.actor.copyAddress':
        copying = false;
        expectedNotices.push(copied);
        break;
      case 'xstate.error.actor.copyAddress':
        copying = false;
        expectedNotices.push(refused);
        break;
    }
    const s = snapshot as never;
    const shown = address();
    const entry = entries?.find((candidate) => candidate.coin.ticker === ticker);
    expect(selectIsLoading(s), 'loading flag').toBe(loading);
    expect(selectShowsPrompt(s), '"Select a cryptocurrency"').toBe(ticker === null);
    expect(selectEntry(s)?.coin.ticker ?? null).toBe(ticker);
    expect(selectNeedsNetworkChoice(s), 'network selector').toBe((entry?.networks.length ?? 0) > 1);
    expect(selectIsPickingNetwork(s)).toBe(ticker !== null && network === null);
    expect(selectNetwork(s)?.key ?? null).toBe(shown === null ? null : network);
    expect(selectAddress(s), 'address and QR code').toBe(shown);
    expect(selectCanCopy(s), 'Copy Address enabled').toBe(shown !== null && !copying);
    expect(fakes.isRunning('copyAddress')).toBe(copying);
    expect(selectEntry(s)?.balance, 'the chosen coin’s balance as last read').toBe(entry?.balance);
    expect(fakes.isRunning('refreshAddresses'), 'the balances are read again').toBe(phase === 'refreshing');
    expect(fakes.isRunning('userChannel'), 'the trader’s own channel is listened to').toBe(listening);
  });

  expect(fakes.calls).toEqual(expectedCalls);
  expect(notices).toEqual(expectedNotices);
  actor.stop();
}

describe.each(models)('deposit (opened with $input): every path through the chart', ({ input, model }) => {
  it.each(model.paths.map((path) => [describePath(path), path] as const))('%s', async (_, path) => {
    await run(input, path);
  });
});

describe('deposit: coverage', () => {
  it('reaches every state and takes every transition of the chart', async () => {
    const coverage = new Coverage(depositMachine);
    for (const { input, model } of models) for (const path of model.paths) await run(input, path, coverage);
    console.log(`${coverage.summary()} (${models.map(({ model }) => `${model.paths.length} paths over ${model.states} snapshots`).join('; ')})`);
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([]);
  });

  it('the coverage measure notices what the walk leaves out', async () => {
    const coverage = new Coverage(depositMachine);
    const leftOut = (path: ModelPath) =>
      path.steps.some(({ event }) => event.type === 'xstate.error.actor.copyAddress' || event.type === 'network.select');
    const { input, model } = models[0]!;
    for (const path of model.paths.filter((path) => !leftOut(path))) await run(input, path, coverage);
    expect(coverage.missingStates(), 'BTC still shows an address; USDT waits for its network').toEqual([]);
    expect(coverage.missingTransitions()).toEqual([
      'deposit.ready.selection —network.select#0→ deposit.ready.selection.checking',
      'deposit.ready.clipboard.copying —xstate.error.actor.copyAddress#0→ deposit.ready.clipboard.idle',
    ]);
  });
});
