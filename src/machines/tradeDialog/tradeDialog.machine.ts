import { assign, setup } from 'xstate';
import type { OfferListItem, TradeAsk, TradeOpenAsk, TradePreview } from '../../../contracts/index.ts';
import type { TradeOpened } from '../../services/trades.ts';
import type { Notice } from '../shared/notify.ts';
import { unboundPromise, unboundRule } from '../shared/unbound.ts';

export type TradeDialogContext = {
  offer: OfferListItem | null;
  amount: string;
  paymentMethod: string;
  preview: TradePreview | null;
};
export type TradeDialogEvent =
  | { type: 'dialog.open'; offer: OfferListItem }
  | { type: 'dialog.close' }
  | { type: 'amount.change'; value: string }
  | { type: 'method.change'; value: string }
  | { type: 'order.confirm' };


const blank = { amount: '', paymentMethod: '', preview: null };
/** The trade as typed, what the preview and the opening both ask about. */
const tradeAsk = ({ context }: { context: TradeDialogContext }): TradeAsk => ({
  offer: context.offer?.id ?? 0,
  amount: context.amount.trim(),
  payment_method: context.paymentMethod,
});

/** The Trade Preview dialog (docs/api.md "market/trade preview and open"). */
export const tradeDialogMachine = setup({
  types: { context: {} as TradeDialogContext, events: {} as TradeDialogEvent },
  actors: {
    previewTrade: unboundPromise<TradePreview, TradeAsk>('previewTrade'),
    // Opening also names the rate the trader saw, so a rate changed since is refused rather than traded at.
    openTrade: unboundPromise<TradeOpened, TradeOpenAsk>('openTrade'),
  },
  delays: { previewDebounce: 400 },
  actions: {
    openFor: assign((_, params: { offer: OfferListItem }) => ({ offer: params.offer, ...blank })),
    reset: assign({ offer: null, ...blank }),
    /** The amount or the method as typed: the preview of the trade before it no longer holds. */
    setField: assign((_, params: Partial<Pick<TradeDialogContext, 'amount' | 'paymentMethod'>>) => ({ ...params, preview: null })),
    keepPreview: assign((_, params: { preview: TradePreview }) => ({ preview: params.preview })),
    notify: (_, _params: Notice) => {},
    /** Leaves for /chat, opened on the new trade's conversation when the server named its channel. */
    goToChat: (_, _params: { channel: string | null }) => {},
  },
  guards: {
    /**
     * The preview is asked for only with an amount in the offer's range (the rule the server applies too,
     * shared/rules.ts) and a method of the offer's; bound with the chart.
     */
    canPreview: unboundRule<Pick<TradeDialogContext, 'offer' | 'amount' | 'paymentMethod'>>('canPreview'),
    hasPreview: ({ context }) => context.preview !== null,
  },
}).createMachine({
  id: 'tradeDialog',
  description: 'Amount and payment method for an offer, the server’s fee preview, then opening the trade.',
  context: { offer: null, ...blank },
  initial: 'closed',
  states: {
    closed: {
      on: { 'dialog.open': { target: 'open', actions: { type: 'openFor', params: ({ event }) => ({ offer: event.offer }) } } },
    },
    open: {
      tags: ['open'],
      initial: 'editing',
      on: {
        'amount.change': { target: '.checking', actions: { type: 'setField', params: ({ event }) => ({ amount: event.value }) } },
        'method.change': { target: '.checking', actions: { type: 'setField', params: ({ event }) => ({ paymentMethod: event.value }) } },
        'dialog.close': { target: 'closed', description: 'Cancel or dismiss: everything typed is reset.', actions: 'reset' },
      },
      states: {
        editing: {
          description: 'Amount or method missing or out of range: no preview is asked for.',
        },
        checking: {
          always: [
            {
              guard: { type: 'canPreview', params: ({ context }) => ({ offer: context.offer, amount: context.amount, paymentMethod: context.paymentMethod }) },
              target: 'waiting',
            },
            { target: 'editing' },
          ],
        },
        waiting: {
          description: 'A short pause while the trader is still typing.',
          after: { previewDebounce: { target: 'previewing' } },
        },
        previewing: {
          tags: ['previewing'],
          invoke: {
            id: 'previewTrade',
            src: 'previewTrade',
            input: tradeAsk,
            onDone: { target: 'ready', actions: { type: 'keepPreview', params: ({ event }) => ({ preview: event.output }) } },
            onError: { target: 'editing', description: 'A preview that fails shows no message; the trader may change the amount or method.' },
          },
        },
        ready: {
          description: 'The preview shows; "Confirm Buy/Sell Order" is enabled.',
          on: { 'order.confirm': { guard: 'hasPreview', target: 'opening' } },
        },
        opening: {
          tags: ['busy'],
          description: 'The button reads "Please wait..." and Cancel is hidden; closing is refused.',
          on: {
            'dialog.close': {},
            'amount.change': {},
            'method.change': {},
          },
          invoke: {
            id: 'openTrade',
            src: 'openTrade',
            input: (form) => ({ ...tradeAsk(form), rate: form.context.offer?.rate ?? '' }),
            onDone: {
              target: '#tradeDialog.closed',
              actions: [
                { type: 'notify', params: ({ event }) => ({ title: 'Trade Opened!', description: event.output.info, type: 'success' }) },
                'reset',
                { type: 'goToChat', params: ({ event }) => ({ channel: event.output.channel }) },
              ],
            },
            onError: {
              target: 'ready',
              description: 'The busy state clears; the shared error handling shows the refusal (a changed rate, a full buyer).',
            },
          },
        },
      },
    },
  },
});
