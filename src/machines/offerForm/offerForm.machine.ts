import { assign, setup } from 'xstate';
import type { EditableOffer, OfferComponents, OfferInput } from '../../../contracts/index.ts';
import type { Notice } from '../shared/notify.ts';
import { unboundPromise, unboundRule } from '../shared/unbound.ts';

export type OfferFormValues = {
  offer_type: 'buy' | 'sell';
  coin: string;
  currency: string;
  rate: string;
  min_amount: string;
  max_amount: string;
  payment_methods: string[];
  terms: string;
  /** The counterparty conditions as typed: blank is none (docs/rules.md "Offers"). */
  min_completed_trades: string;
  min_account_days: string;
  require_two_factor: boolean;
  /** Pending trades on the offer at once, 1–20. */
  max_open_trades: string;
};
export type OfferFormField = Exclude<keyof OfferFormValues, 'payment_methods' | 'require_two_factor'>;


export type OfferFormContext = {
  /** The route's id: present means edit mode. */
  offerId: number | null;
  components: OfferComponents | null;
  values: OfferFormValues;
  /** Whether the edited offer is live; null while creating. */
  isActive: boolean | null;
};
export type OfferFormInput = { offerId: number | null };
export type OfferFormEvent =
  | { type: 'field.change'; name: OfferFormField; value: string }
  | { type: 'methods.change'; value: string[] }
  | { type: 'twoFactor.change'; value: boolean }
  | { type: 'form.submit' }
  | { type: 'offer.toggle' };

export const blankOffer: OfferFormValues = {
  offer_type: 'buy',
  coin: '',
  currency: '',
  rate: '',
  min_amount: '',
  max_amount: '',
  payment_methods: [],
  terms: '',
  min_completed_trades: '',
  min_account_days: '',
  require_two_factor: false,
  max_open_trades: '3',
};

/** A condition as the payload carries it: blank is none (null); otherwise the whole number typed, already checked. */
const conditionNumber = (text: string): number | null => (text.trim() === '' ? null : Number(text.trim()));
/** A condition as the form shows it: none is blank. */
const conditionText = (value: number): string => (value === 0 ? '' : String(value));

/** The payload of `market/offers/` {type:"create"} for these values. */
export function toOfferInput(context: Pick<OfferFormContext, 'offerId' | 'values'>): Omit<OfferInput, 'type'> {
  const { values, offerId } = context;
  return {
    update: offerId !== null,
    id: offerId,
    offer_type: values.offer_type,
    coin: values.coin,
    rate: values.rate.trim(),
    payment_methods: values.payment_methods,
    currency: values.currency,
    terms: values.terms.trim() ? values.terms : null,
    min_amount: values.min_amount.trim(),
    max_amount: values.max_amount.trim(),
    min_completed_trades: conditionNumber(values.min_completed_trades),
    min_account_days: conditionNumber(values.min_account_days),
    require_two_factor: values.require_two_factor,
    max_open_trades: conditionNumber(values.max_open_trades),
  };
}

/** Create or edit an offer; the server checks every field again (docs/rules.md "Offers"). */
export const offerFormMachine = setup({
  types: {
    context: {} as OfferFormContext,
    events: {} as OfferFormEvent,
    input: {} as OfferFormInput,
  },
  actors: {
    loadComponents: unboundPromise<OfferComponents>('loadComponents'),
    loadOffer: unboundPromise<EditableOffer, { id: number }>('loadOffer'),
    saveOffer: unboundPromise<string, Omit<OfferInput, 'type'>>('saveOffer'),
    toggleOffer: unboundPromise<{ is_active: boolean; message: string }, { id: number }>('toggleOffer'),
  },
  actions: {
    keepComponents: assign((_, params: { components: OfferComponents }) => ({ components: params.components })),
    fillFromOffer: assign((_, params: { offer: EditableOffer }) => ({
      values: {
        offer_type: params.offer.offer_type,
        coin: String(params.offer.coin__id),
        currency: params.offer.currency__code,
        rate: params.offer.rate,
        min_amount: params.offer.min_amount,
        max_amount: params.offer.max_amount,
        payment_methods: params.offer.payment_methods,
        terms: params.offer.terms ?? '',
        min_completed_trades: conditionText(params.offer.min_completed_trades),
        min_account_days: conditionText(params.offer.min_account_days),
        require_two_factor: params.offer.require_two_factor,
        max_open_trades: String(params.offer.max_open_trades),
      },
      isActive: params.offer.is_active,
    })),
    setField: assign(({ context }, params: { name: OfferFormField; value: string }) => ({
      values: { ...context.values, [params.name]: params.value },
    })),
    setMethods: assign(({ context }, params: { value: string[] }) => ({
      values: { ...context.values, payment_methods: params.value },
    })),
    setTwoFactor: assign(({ context }, params: { value: boolean }) => ({
      values: { ...context.values, require_two_factor: params.value },
    })),
    setActive: assign((_, params: { isActive: boolean }) => ({ isActive: params.isActive })),
    notify: (_, _params: Notice) => {},
    /** Leaves for /offers. */
    goToOffers: () => {},
  },
  guards: {
    isEditing: ({ context }) => context.offerId !== null,
    /**
     * Coin, currency, rate, min and max set, at least one payment method (terms are optional), and the conditions'
     * numbers whole and in range (blank minimums are none) by the rule the server checks with; bound with the
     * chart (offerForm.actors.ts, shared/rules.ts).
     */
    isOfferValid: unboundRule<OfferFormValues>('isOfferValid'),
  },
}).createMachine({
  id: 'offerForm',
  description: 'The create/edit offer form; the route id means edit.',
  context: ({ input }) => ({ offerId: input.offerId, components: null, values: blankOffer, isActive: null }),
  initial: 'loadingComponents',
  states: {
    loadingComponents: {
      tags: ['busy'],
      invoke: {
        id: 'loadComponents',
        src: 'loadComponents',
        onDone: [
          {
            guard: 'isEditing',
            target: 'loadingOffer',
            actions: { type: 'keepComponents', params: ({ event }) => ({ components: event.output }) },
          },
          { target: 'editing', actions: { type: 'keepComponents', params: ({ event }) => ({ components: event.output }) } },
        ],
        onError: [
          { guard: 'isEditing', target: 'loadingOffer', description: 'The form choices failed to load: nothing shows, and the offer still loads.' },
          { target: 'editing' },
        ],
      },
    },
    loadingOffer: {
      tags: ['busy'],
      invoke: {
        id: 'loadOffer',
        src: 'loadOffer',
        input: ({ context }) => ({ id: context.offerId ?? 0 }),
        onDone: { target: 'editing', actions: { type: 'fillFromOffer', params: ({ event }) => ({ offer: event.output }) } },
        onError: { target: 'left', description: 'The offer could not be loaded: back to /offers.' },
      },
    },
    editing: {
      tags: ['form'],
      on: {
        'field.change': {
          actions: { type: 'setField', params: ({ event }) => ({ name: event.name, value: event.value }) },
        },
        'methods.change': { actions: { type: 'setMethods', params: ({ event }) => ({ value: event.value }) } },
        'twoFactor.change': {
          description: 'Takers must have two-factor authentication on.',
          actions: { type: 'setTwoFactor', params: ({ event }) => ({ value: event.value }) },
        },
        'form.submit': { guard: { type: 'isOfferValid', params: ({ context }) => context.values }, target: 'submitting' },
        'offer.toggle': { guard: 'isEditing', target: 'toggling' },
      },
    },
    submitting: {
      tags: ['busy', 'form'],
      description: 'The button reads "Please Wait...".',
      invoke: {
        id: 'saveOffer',
        src: 'saveOffer',
        input: ({ context }) => toOfferInput(context),
        onDone: {
          target: 'left',
          actions: { type: 'notify', params: ({ event }) => ({ title: event.output, type: 'success' }) },
        },
        onError: { target: 'editing', description: 'Refused: the reason was shown; nothing typed is lost.' },
      },
    },
    toggling: {
      tags: ['busy', 'form'],
      description: 'Pauses or resumes the offer; a paused offer is neither listed nor tradable.',
      invoke: {
        id: 'toggleOffer',
        src: 'toggleOffer',
        input: ({ context }) => ({ id: context.offerId ?? 0 }),
        onDone: {
          target: 'editing',
          actions: [
            { type: 'setActive', params: ({ event }) => ({ isActive: event.output.is_active }) },
            { type: 'notify', params: ({ event }) => ({ title: event.output.message, type: 'success' }) },
          ],
        },
        onError: { target: 'editing' },
      },
    },
    left: {
      type: 'final',
      entry: 'goToOffers',
    },
  },
});
