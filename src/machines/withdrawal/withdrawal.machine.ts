import { assign, setup } from 'xstate';
import type { WalletAddressEntry, WithdrawalAsk, WithdrawalMode, WithdrawalPreview } from '../../../contracts/index.ts';
import type { Notice } from '../shared/notify.ts';
import { readInto } from '../shared/reading.ts';
import { unboundPromise, unboundRule, unboundUpdate } from '../shared/unbound.ts';

export type WithdrawalContext = {
  /** Every coin with its available balance, current price, places and networks (`addresses`). */
  coins: WalletAddressEntry[];
  ticker: string;
  /** The chosen network's key; '' until chosen (chosen at once when the coin has only one). */
  network: string;
  recipient: string;
  /** As typed, in USD or in the coin according to `mode`. */
  amount: string;
  mode: WithdrawalMode;
  /** What the server will execute on confirm; null whenever anything changed since it was asked for. */
  preview: WithdrawalPreview | null;
  /** The amount as typed and the unit it was typed in when the preview was asked for; null with no preview. */
  asked: { amount: string; mode: WithdrawalMode } | null;
};
export type WithdrawalEvent =
  | { type: 'coin.change'; value: string }
  | { type: 'network.change'; value: string }
  | { type: 'recipient.change'; value: string }
  | { type: 'amount.change'; value: string }
  | { type: 'mode.toggle' }
  | { type: 'preview.refresh' }
  | { type: 'form.submit' };

/** What the rules read of the form (withdrawal.rules.ts): the context without the preview. */
export type WithdrawalFields = Omit<WithdrawalContext, 'preview' | 'asked'>;
const fieldsOf = ({ preview: _, asked: __, ...fields }: WithdrawalContext): WithdrawalFields => fields;

/**
 * The amount of a preview in a unit, as the preview itself states it: what was typed, in the unit it was asked
 * in; in the other, its own figure (the crypto amount it will send, or that amount's USD value at the price the
 * server converted with). No price of the page's enters: one price converts both ways within a preview.
 */
const previewAmountIn = (mode: WithdrawalMode, preview: WithdrawalPreview, asked: { amount: string; mode: WithdrawalMode }) =>
  mode === asked.mode ? asked.amount : mode === 'crypto' ? preview.amount_crypto : preview.amount_usd;

/** Withdraw (/wallets/withdraw; the server's rules: docs/rules.md "Wallets"). */
export const withdrawalMachine = setup({
  types: { context: {} as WithdrawalContext, events: {} as WithdrawalEvent },
  actors: {
    loadWallets: unboundPromise<WalletAddressEntry[]>('loadWallets'),
    // The server keeps the answer as the trader's pending withdrawal: the latest preview is what confirm executes.
    previewWithdrawal: unboundPromise<WithdrawalPreview, WithdrawalAsk>('previewWithdrawal'),
    confirmWithdrawal: unboundPromise<string>('confirmWithdrawal'),
  },
  delays: {
    previewDebounce: 500,
    /**
     * How long a kept preview stays confirmable here. withdrawal.actors.ts binds it from the contract's
     * WITHDRAWAL_PREVIEW_SECONDS, less the round trips, so a confirm never meets a preview the server dropped.
     */
    previewExpiry: 115_000,
  },
  actions: {
    keepCoins: assign((_, params: { coins: WalletAddressEntry[] }) => ({ coins: params.coins })),
    /** A new coin drops the network, unless the coin has only one: that one is chosen for the trader. */
    chooseCoin: assign(({ context }, params: { ticker: string }) => {
      const networks = context.coins.find((entry) => entry.coin.ticker === params.ticker)?.networks ?? [];
      return { ticker: params.ticker, network: networks.length === 1 ? networks[0]!.key : '', preview: null, asked: null };
    }),
    setField: assign((_, params: Partial<Pick<WithdrawalContext, 'network' | 'recipient' | 'amount'>>) => ({ ...params, preview: null, asked: null })),
    /**
     * Flips USD/crypto and converts the typed amount at the coin's current price on exact decimals; bound with
     * the chart (withdrawal.rules.ts `convertAmount`).
     */
    toggleMode: assign(unboundUpdate<WithdrawalContext>('toggleMode')),
    /**
     * With a preview shown, the toggle changes only the unit the amount is shown in (`previewAmountIn`); the
     * preview stays, so confirm sends exactly the crypto amount it shows.
     */
    showPreviewInOtherUnit: assign(({ context }) => {
      const mode: WithdrawalMode = context.mode === 'usd' ? 'crypto' : 'usd';
      return { mode, amount: context.preview && context.asked ? previewAmountIn(mode, context.preview, context.asked) : context.amount };
    }),
    /** The server's figures, and what was typed for them (the unit toggle shows it again). */
    keepPreview: assign(({ context }, params: { preview: WithdrawalPreview }) => ({
      preview: params.preview,
      asked: { amount: context.amount, mode: context.mode },
    })),
    dropPreview: assign({ preview: null, asked: null }),
    notify: (_, _params: Notice) => {},
    goToTransactions: () => {},
  },
  guards: {
    /** Coin, network or amount is empty (the "Missing Information" toast). */
    hasMissingFields: ({ context }) => context.ticker === '' || context.network === '' || context.amount.trim() === '',
    /** The amount, in crypto, is above the coin's available balance; bound with the chart (withdrawal.rules.ts). */
    isOverBalance: unboundRule<WithdrawalFields>('isOverBalance'),
    /** Coin, network, recipient and a well-formed amount are filled; bound with the chart (withdrawal.rules.ts). */
    canPreview: unboundRule<WithdrawalFields>('canPreview'),
  },
}).createMachine({
  id: 'withdrawal',
  description: 'Coin, network, recipient and amount; the server’s fee preview after a pause in typing; then confirming it.',
  context: { coins: [], ticker: '', network: '', recipient: '', amount: '', mode: 'crypto', preview: null, asked: null },
  initial: 'loading',
  states: {
    loading: {
      description: 'The coins with their balances, prices and networks.',
      invoke: readInto('loadWallets', ['keepCoins', 'coins'], {
        done: 'form',
        failed: 'form',
        failure: 'The loading flag clears with no message of its own; no coin to choose.',
      }),
    },
    form: {
      tags: ['form'],
      initial: 'editing',
      description: 'Every edit drops the preview and cancels a pending or running one, then the rules decide again.',
      on: {
        'coin.change': { target: '.checking', actions: { type: 'chooseCoin', params: ({ event }) => ({ ticker: event.value }) } },
        'network.change': { target: '.checking', actions: { type: 'setField', params: ({ event }) => ({ network: event.value }) } },
        'recipient.change': { target: '.checking', actions: { type: 'setField', params: ({ event }) => ({ recipient: event.value }) } },
        'amount.change': { target: '.checking', actions: { type: 'setField', params: ({ event }) => ({ amount: event.value }) } },
        'mode.toggle': {
          target: '.checking',
          description:
            'No preview shown: the typed amount converts at the coin’s price as the page read it, crypto to USD with 2 decimals, USD to crypto with the coin’s places.',
          actions: 'toggleMode',
        },
        'form.submit': {
          guard: 'hasMissingFields',
          description: 'Submitting without a coin, a network or an amount asks for them; nothing is sent.',
          actions: {
            type: 'notify',
            params: { title: 'Missing Information', description: 'Please fill in all required fields.', type: 'error' },
          },
        },
      },
      states: {
        editing: {
          description: 'No preview: a field is missing or malformed, or the last preview or confirm failed. The next edit decides again.',
        },
        checking: {
          always: [
            { guard: { type: 'isOverBalance', params: ({ context }) => fieldsOf(context) }, target: 'overBalance' },
            { guard: { type: 'canPreview', params: ({ context }) => fieldsOf(context) }, target: 'waiting' },
            { target: 'editing' },
          ],
        },
        overBalance: {
          tags: ['error'],
          description: '"This amount is higher than your balance" shows; no preview is asked for.',
        },
        waiting: {
          description: 'A 500 ms pause while the trader is still typing.',
          after: { previewDebounce: { target: 'previewing' } },
        },
        previewing: {
          invoke: {
            id: 'previewWithdrawal',
            src: 'previewWithdrawal',
            input: ({ context }) => ({
              amount: context.amount.trim(),
              mode: context.mode,
              recipient: context.recipient.trim(),
              ticker: context.ticker,
              network: context.network,
            }),
            onDone: { target: 'ready', actions: { type: 'keepPreview', params: ({ event }) => ({ preview: event.output }) } },
            onError: {
              target: 'editing',
              description: 'The preview stays cleared; the shared toast shows the server’s sentence (an invalid address, a fee above the amount).',
            },
          },
        },
        ready: {
          description: 'The fee preview shows and "Confirm Withdrawal" is enabled: every field is filled and within the balance.',
          after: {
            previewExpiry: {
              target: 'expired',
              description: 'The server no longer keeps this preview: it is dropped here too, so a confirm never meets a 409.',
              actions: 'dropPreview',
            },
          },
          on: {
            'form.submit': { target: 'confirming' },
            'mode.toggle': {
              description:
                'Only the unit changes: the amount shows as the preview states it in the other unit (its crypto amount exactly, ' +
                'or its USD value), and as typed when back in the unit it was asked in. The preview and its expiry stay.',
              actions: 'showPreviewInOtherUnit',
            },
          },
        },
        expired: {
          description: 'The preview expired; the trader asks for a fresh one (or edits a field).',
          on: { 'preview.refresh': { target: 'previewing' } },
        },
        confirming: {
          tags: ['busy'],
          description: 'The button reads "Processing..."; the form is locked until the server answers.',
          on: {
            'coin.change': {},
            'network.change': {},
            'recipient.change': {},
            'amount.change': {},
            'mode.toggle': {},
          },
          invoke: {
            id: 'confirmWithdrawal',
            src: 'confirmWithdrawal',
            onDone: {
              target: '#withdrawal.done',
              actions: [
                { type: 'notify', params: ({ event }) => ({ title: 'Withdrawal Submitted', description: event.output, type: 'success' }) },
                'dropPreview',
                'goToTransactions',
              ],
            },
            onError: {
              target: 'editing',
              description: 'The preview is cleared; the shared toast shows the server’s sentence.',
              actions: 'dropPreview',
            },
          },
        },
      },
    },
    done: {
      type: 'final',
      description: 'Confirmed: the trader is on /wallets/transactions, where the withdrawal shows pending.',
    },
  },
});
