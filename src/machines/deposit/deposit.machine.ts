import { assign, setup } from 'xstate';
import type { NetworkKey, WalletAddressEntry } from '../../../contracts/index.ts';
import { liveActors, readAgainOn, userChannel, walletTold, type WalletChannelEvent } from '../shared/liveRegions.ts';
import type { Notice } from '../shared/notify.ts';
import { readInto } from '../shared/reading.ts';
import { unboundPromise } from '../shared/unbound.ts';

export type DepositContext = {
  /** Whose own channel tells of a change to the balances. */
  username: string;
  /** `user/wallet/` addresses: per coin, the trader's balance and own address on each of its networks. */
  entries: WalletAddressEntry[];
  /** The chosen coin's ticker; before the addresses arrive, the coin the URL asked for (`?coin=`). */
  ticker: string | null;
  /** The chosen network of that coin; set by itself when the coin has only one. */
  network: NetworkKey | null;
};
/** `coin`: a ticker the page was opened for (`/wallets/deposit?coin=BTC`), chosen once the addresses arrive. */
export type DepositInput = { coin?: string | null; username: string };
export type DepositEvent =
  | { type: 'coin.select'; ticker: string }
  | { type: 'network.select'; network: NetworkKey }
  | { type: 'address.copy' }
  | WalletChannelEvent;

const entryOf = (context: Pick<DepositContext, 'entries'>, ticker: string | null) =>
  ticker === null ? undefined : context.entries.find((entry) => entry.coin.ticker.toUpperCase() === ticker.toUpperCase());

/** A coin's ticker as listed, and its network when it has only one (nothing to pick then). */
const choose = (context: Pick<DepositContext, 'entries'>, ticker: string | null) => {
  const entry = entryOf(context, ticker);
  const only = entry?.networks.length === 1 ? entry.networks[0]! : undefined;
  return { ticker: entry?.coin.ticker ?? null, network: only?.key ?? null };
};

/** The address on screen: the chosen coin's, on the chosen network. */
export const shownAddress = (context: DepositContext): string | null =>
  entryOf(context, context.ticker)?.networks.find((network) => network.key === context.network)?.address ?? null;

/**
 * Deposit (/wallets/deposit): the trader picks a coin, then a network when the coin has more than one, and
 * reads their own deposit address on it (QR code, Copy Address) and the coin's balance, which the trader's own
 * channel keeps current: a deposit credited shows here the moment the bell announces it.
 */
export const depositMachine = setup({
  types: { context: {} as DepositContext, events: {} as DepositEvent, input: {} as DepositInput },
  actors: {
    loadAddresses: unboundPromise<WalletAddressEntry[]>('loadAddresses'),
    /** Puts the address on the clipboard; fails when the browser refuses. */
    copyAddress: unboundPromise<void, { address: string }>('copyAddress'),
    /** `userChannel` brings `realtime.wallet.changed` and `realtime.subscribed`. */
    userChannel: liveActors.userChannel,
  },
  actions: {
    /** The addresses, and the coin the URL asked for when it is one of them. */
    keepEntries: assign(({ context }, params: { entries: WalletAddressEntry[] }) => ({
      entries: params.entries,
      ...choose({ entries: params.entries }, context.ticker),
    })),
    /** The balances read again: the coin and network chosen stay (a trader's addresses never change). */
    keepBalances: assign((_, params: { entries: WalletAddressEntry[] }) => ({ entries: params.entries })),
    chooseCoin: assign(({ context }, params: { ticker: string }) => choose(context, params.ticker)),
    chooseNetwork: assign((_, params: { network: NetworkKey }) => ({ network: params.network })),
    notify: (_, _params: Notice) => {},
  },
  guards: {
    isListedCoin: ({ context }, params: { ticker: string }) => entryOf(context, params.ticker) !== undefined,
    isNetworkOfCoin: ({ context }, params: { network: NetworkKey }) =>
      entryOf(context, context.ticker)?.networks.some((network) => network.key === params.network) ?? false,
    hasCoin: ({ context }) => context.ticker !== null,
    hasAddress: ({ context }) => shownAddress(context) !== null,
  },
}).createMachine({
  id: 'deposit',
  description: 'Pick a coin (and its network) to read your own deposit address, as text and as a QR code.',
  context: ({ input }) => ({ username: input.username, entries: [], ticker: input.coin?.trim() || null, network: null }),
  invoke: userChannel('No live balance: it shows what the page read when it opened.'),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: readInto('loadAddresses', ['keepEntries', 'entries'], {
        done: 'ready',
        failed: 'unavailable',
        failure: 'The loading flag clears; the shared toast already said why.',
      }),
      on: readAgainOn(walletTold, { target: 'loading', reenter: true }),
    },
    unavailable: {
      description: 'No addresses to show: the prompt "Select a cryptocurrency" stays, with nothing to select, until the channel tells of a change.',
      on: readAgainOn(walletTold, { target: 'loading' }),
    },
    ready: {
      type: 'parallel',
      states: {
        balances: {
          description: 'The chosen coin’s balance, read again the moment the channel says a balance changed.',
          initial: 'current',
          states: {
            current: { on: readAgainOn(walletTold) },
            refreshing: {
              invoke: {
                id: 'refreshAddresses',
                src: 'loadAddresses',
                onDone: { target: 'current', actions: { type: 'keepBalances', params: ({ event }) => ({ entries: event.output }) } },
                onError: { target: 'current', description: 'The balance shown stays; the next change told reads it again.' },
              },
              on: readAgainOn(walletTold, { reenter: true }),
            },
          },
        },
        selection: {
          initial: 'checking',
          on: {
            'coin.select': {
              guard: { type: 'isListedCoin', params: ({ event }) => ({ ticker: event.ticker }) },
              target: '.checking',
              description: 'A coin with one network shows its address at once; one with more asks for the network.',
              actions: { type: 'chooseCoin', params: ({ event }) => ({ ticker: event.ticker }) },
            },
            'network.select': {
              guard: { type: 'isNetworkOfCoin', params: ({ event }) => ({ network: event.network }) },
              target: '.checking',
              actions: { type: 'chooseNetwork', params: ({ event }) => ({ network: event.network }) },
            },
          },
          states: {
            checking: {
              always: [
                { guard: 'hasAddress', target: 'showing' },
                { guard: 'hasCoin', target: 'pickingNetwork' },
                { target: 'pickingCoin' },
              ],
            },
            pickingCoin: {
              description: 'No coin chosen: the prompt "Select a cryptocurrency" shows.',
            },
            pickingNetwork: {
              description: 'The coin travels on more than one network (USDT: ERC20 and TRC20): the trader picks one.',
            },
            showing: {
              description:
                'The address on the chosen network: QR code, Copy Address, the network, "Confirmations: 1" (the network\'s own count: 12 on Ethereum read from a real node), ' +
                '"Min Deposit: 5 USD" and the notice.',
            },
          },
        },
        clipboard: {
          initial: 'idle',
          states: {
            idle: {
              on: { 'address.copy': { guard: 'hasAddress', target: 'copying' } },
            },
            copying: {
              description: 'The address on screen when the trader pressed Copy Address goes to the clipboard.',
              invoke: {
                id: 'copyAddress',
                src: 'copyAddress',
                input: ({ context }) => ({ address: shownAddress(context) ?? '' }),
                onDone: {
                  target: 'idle',
                  actions: { type: 'notify', params: { title: 'Address copied to clipboard!', type: 'success' } },
                },
                onError: {
                  target: 'idle',
                  description: 'The browser refused the clipboard: the trader is told to copy the address by hand.',
                  actions: {
                    type: 'notify',
                    params: {
                      title: 'Could not copy the address',
                      description: 'Your browser did not allow it. Select the address and copy it by hand.',
                      type: 'error',
                    },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
});

export type DepositLogic = typeof depositMachine;
