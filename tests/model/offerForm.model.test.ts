import { createActor, type AnyMachineSnapshot } from 'xstate';
import type { EditableOffer } from '../../contracts/index.ts';
import { offerFormLogic } from '../../src/machines/offerForm/offerForm.actors.ts';
import { offerFormMachine, type OfferFormValues } from '../../src/machines/offerForm/offerForm.machine.ts';
import {
  selectCanSubmit,
  selectIsActive,
  selectIsEditing,
  selectIsLoading,
  selectIsSubmitting,
  selectIsToggling,
  selectValues,
} from '../../src/machines/offerForm/offerForm.selectors.ts';
import type { Notice } from '../../src/machines/shared/notify.ts';
import { ApiError } from '../../src/services/api.ts';
import {
  Coverage,
  describePath,
  replay,
  scriptedActors,
  walk,
  type ActorCall,
  type ModelEvent,
  type ModelPath,
} from '../support/machines.ts';
import { components, editable } from '../support/offers.ts';

type Required = 'coin' | 'currency' | 'rate' | 'min_amount' | 'max_amount' | 'payment_methods';

const empty: OfferFormValues = {
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

/** Submitting an offer needs each of these set, and at least one payment method chosen. */
const isSet: Record<Required, (values: OfferFormValues) => boolean> = {
  coin: (values) => values.coin !== '',
  currency: (values) => values.currency !== '',
  rate: (values) => values.rate.trim() !== '',
  min_amount: (values) => values.min_amount.trim() !== '',
  max_amount: (values) => values.max_amount.trim() !== '',
  payment_methods: (values) => values.payment_methods.length > 0,
};
const required = Object.keys(isSet) as Required[];
/** docs/api.md "Other market/offers calls": blank minimums are none, a minimum is 0 or more, the cap 1 to 20. */
const wholeIn = (text: string, min: number, max: number) => /^\d+$/.test(text.trim()) && Number(text) >= min && Number(text) <= max;
const conditionsValid = (values: OfferFormValues) =>
  (values.min_completed_trades.trim() === '' || wholeIn(values.min_completed_trades, 0, 100_000)) &&
  (values.min_account_days.trim() === '' || wholeIn(values.min_account_days, 0, 3650)) &&
  wholeIn(values.max_open_trades, 1, 20);
const specCanSubmit = (values: OfferFormValues) => required.every((name) => isSet[name](values)) && conditionsValid(values);
/** What the payload carries for a condition typed: a number, or null for a blank one. */
const conditionOf = (text: string) => (text.trim() === '' ? null : Number(text));

/**
 * What the trader sets each field to (the values of the offer an edit loads, so that a field cleared
 * and set again is the same form as before), and what "missing" looks like (blank, or spaces).
 */
const fill: Record<Required, ModelEvent> = {
  coin: { type: 'field.change', name: 'coin', value: String(editable.coin__id) },
  currency: { type: 'field.change', name: 'currency', value: editable.currency__code },
  rate: { type: 'field.change', name: 'rate', value: editable.rate },
  min_amount: { type: 'field.change', name: 'min_amount', value: editable.min_amount },
  max_amount: { type: 'field.change', name: 'max_amount', value: editable.max_amount },
  payment_methods: { type: 'methods.change', value: editable.payment_methods },
};
const clear: Record<Required, ModelEvent> = {
  coin: { type: 'field.change', name: 'coin', value: '' },
  currency: { type: 'field.change', name: 'currency', value: '' },
  rate: { type: 'field.change', name: 'rate', value: '   ' },
  min_amount: { type: 'field.change', name: 'min_amount', value: '' },
  max_amount: { type: 'field.change', name: 'max_amount', value: ' ' },
  payment_methods: { type: 'methods.change', value: [] },
};
/** The conditions' changes the walk makes, in order, each from the values the one before left. */
const CONDITION_STEPS: ModelEvent[] = [
  { type: 'field.change', name: 'max_open_trades', value: '21' },
  { type: 'field.change', name: 'max_open_trades', value: '5' },
  { type: 'field.change', name: 'min_completed_trades', value: '5' },
  { type: 'twoFactor.change', value: true },
];
/** How many of CONDITION_STEPS the values show taken (0: the conditions as blank or loaded). */
function conditionStep(values: OfferFormValues): number {
  if (values.require_two_factor) return 4;
  if (values.min_completed_trades === '5') return 3;
  if (values.max_open_trades === '5') return 2;
  if (values.max_open_trades === '21') return 1;
  return 0;
}

/** Coin, currency and methods are picked from the components: without them only numbers can be typed. */
const pickable: Required[] = ['coin', 'currency', 'payment_methods'];

const paused: EditableOffer = { ...editable, is_active: false };
const refused = new ApiError('This offer does not exist.', 404);

/**
 * The form fills one field at a time (the first still missing, in spec order); once complete, any one
 * field can be cleared again, the type flipped and terms written or erased. Submit and the pause
 * control are offered everywhere on the form, so the guards are tried in every combination reached.
 */
function events(snapshot: AnyMachineSnapshot): ModelEvent[] {
  const { values, components: loaded, isActive } = snapshot.context as {
    values: OfferFormValues;
    components: unknown;
    isActive: boolean | null;
  };
  switch (snapshot.value) {
    case 'loadingComponents':
      return [
        { type: 'xstate.done.actor.loadComponents', output: components },
        { type: 'xstate.error.actor.loadComponents', error: new Error('An unknown error occurred') },
      ];
    case 'loadingOffer':
      return [
        { type: 'xstate.done.actor.loadOffer', output: editable },
        { type: 'xstate.done.actor.loadOffer', output: paused },
        { type: 'xstate.error.actor.loadOffer', error: new ApiError('Offer not found', 404) },
      ];
    case 'editing': {
      const choosable = required.filter((name) => loaded !== null || !pickable.includes(name));
      const missing = choosable.find((name) => !isSet[name](values));
      const list: ModelEvent[] = [];
      if (missing) list.push(fill[missing]);
      // The conditions, once the rest is complete with no terms: one change at a time along CONDITION_STEPS (a cap out
      // of range, back in, a minimum, the two-factor box). The other changes are tried with the conditions untouched,
      // so the walk stays a few hundred paths.
      const step = conditionStep(values);
      if (required.every((name) => isSet[name](values)) && values.terms === '' && step < CONDITION_STEPS.length) {
        list.push(CONDITION_STEPS[step]!);
      }
      if (specCanSubmit(values) && step === 0) {
        list.push(...choosable.map((name) => clear[name]));
        list.push({ type: 'field.change', name: 'offer_type', value: values.offer_type === 'buy' ? 'sell' : 'buy' });
        list.push({ type: 'field.change', name: 'terms', value: values.terms ? '' : 'Pay within 15 minutes.' });
      }
      list.push({ type: 'form.submit' }, { type: 'offer.toggle' });
      return list;
    }
    case 'submitting':
      return [
        { type: 'xstate.done.actor.saveOffer', output: 'Offer saved successfully' },
        { type: 'xstate.error.actor.saveOffer', error: refused },
      ];
    case 'toggling':
      return [
        {
          type: 'xstate.done.actor.toggleOffer',
          output: { is_active: !isActive, message: isActive ? 'Offer paused' : 'Offer resumed' },
        },
        { type: 'xstate.error.actor.toggleOffer', error: new Error('An unknown error occurred') },
      ];
    default:
      return [];
  }
}

const modes = [
  { name: 'create (/offers/create)', offerId: null },
  { name: 'edit (/offers/42)', offerId: 42 },
] as const;
type Mode = (typeof modes)[number];
const models = modes.map((mode) => ({ mode, model: walk(offerFormLogic, { events, input: { offerId: mode.offerId } }) }));

async function run(mode: Mode, path: ModelPath, coverage?: Coverage) {
  const fakes = scriptedActors(['loadComponents', 'loadOffer', 'saveOffer', 'toggleOffer']);
  const notices: Notice[] = [];
  let wentToOffers = 0;
  const actor = createActor(
    offerFormLogic.provide({
      actors: fakes.actors as never,
      actions: {
        notify: (_, notice) => void notices.push(notice),
        goToOffers: () => void (wentToOffers += 1),
      },
    }),
    { input: { offerId: mode.offerId }, inspect: coverage?.inspect },
  ).start();

  // The oracle, from the form's rules and docs/api.md "Other market/offers calls": the values typed or loaded,
  // and what each call carries.
  const editing = mode.offerId !== null;
  let values = empty;
  let isActive: boolean | null = null;
  let leftForOffers = false;
  const expectedNotices: Notice[] = [];
  const expectedCalls: ActorCall[] = [{ id: 'loadComponents', input: undefined }];

  await replay(actor, path, fakes, (snapshot, step, index) => {
    const event = step.event;
    const before = index > 0 ? path.steps[index - 1]!.state.value : undefined;
    switch (event.type) {
      case 'xstate.done.actor.loadComponents':
      case 'xstate.error.actor.loadComponents':
        // Components or not, an edit goes on to the offer: a components failure shows nothing.
        if (editing) expectedCalls.push({ id: 'loadOffer', input: { id: mode.offerId } });
        break;
      case 'xstate.done.actor.loadOffer': {
        const offer = event.output as EditableOffer;
        values = {
          offer_type: offer.offer_type,
          coin: String(offer.coin__id),
          currency: offer.currency__code,
          rate: offer.rate,
          min_amount: offer.min_amount,
          max_amount: offer.max_amount,
          payment_methods: offer.payment_methods,
          terms: offer.terms ?? '',
          min_completed_trades: offer.min_completed_trades === 0 ? '' : String(offer.min_completed_trades),
          min_account_days: offer.min_account_days === 0 ? '' : String(offer.min_account_days),
          require_two_factor: offer.require_two_factor,
          max_open_trades: String(offer.max_open_trades),
        };
        isActive = offer.is_active;
        break;
      }
      case 'xstate.error.actor.loadOffer':
        leftForOffers = true;
        break;
      case 'field.change':
        values = { ...values, [event.name as string]: event.value };
        break;
      case 'methods.change':
        values = { ...values, payment_methods: event.value as string[] };
        break;
      case 'twoFactor.change':
        values = { ...values, require_two_factor: event.value as boolean };
        break;
      case 'form.submit':
        if (specCanSubmit(values)) {
          expectedCalls.push({
            id: 'saveOffer',
            input: {
              update: editing,
              id: mode.offerId,
              offer_type: values.offer_type,
              coin: values.coin,
              rate: values.rate,
              payment_methods: values.payment_methods,
              currency: values.currency,
              terms: values.terms.trim() === '' ? null : values.terms,
              min_amount: values.min_amount,
              max_amount: values.max_amount,
              min_completed_trades: conditionOf(values.min_completed_trades),
              min_account_days: conditionOf(values.min_account_days),
              require_two_factor: values.require_two_factor,
              max_open_trades: conditionOf(values.max_open_trades),
            },
          });
        }
        break;
      case 'xstate.done.actor.saveOffer':
        expectedNotices.push({ title: String(event.output), type: 'success' });
        leftForOffers = true;
        break;
      case 'offer.toggle':
        // The pause control belongs to an existing offer only.
        if (editing) expectedCalls.push({ id: 'toggleOffer', input: { id: mode.offerId } });
        break;
      case 'xstate.done.actor.toggleOffer': {
        const output = event.output as { is_active: boolean; message: string };
        isActive = output.is_active;
        expectedNotices.push({ title: output.message, type: 'success' });
        break;
      }
    }

    const state = snapshot.value as string;
    expect(selectIsEditing(snapshot as never)).toBe(editing);
    expect(selectValues(snapshot as never), 'every value kept').toEqual(values);
    expect(selectIsActive(snapshot as never)).toBe(isActive);
    expect(selectIsLoading(snapshot as never)).toBe(state === 'loadingComponents' || state === 'loadingOffer');
    expect(selectIsSubmitting(snapshot as never)).toBe(state === 'submitting');
    expect(selectIsToggling(snapshot as never)).toBe(state === 'toggling');
    expect(selectCanSubmit(snapshot as never), 'submit enabled').toBe(state === 'editing' && specCanSubmit(values));
    expect(wentToOffers, 'went to /offers').toBe(leftForOffers ? 1 : 0);
    expect(snapshot.status).toBe(leftForOffers ? 'done' : 'active');
    if (event.type === 'xstate.error.actor.saveOffer') expect(before).toBe('submitting');
  });

  expect(fakes.calls).toEqual(expectedCalls);
  expect(notices).toEqual(expectedNotices);
  actor.stop();
}

describe.each(models)('offerForm in $mode.name: every path through the chart', ({ mode, model }) => {
  it('has a graph to walk', () => {
    expect(model.states).toBeGreaterThan(20);
    expect(model.paths.length).toBeGreaterThan(model.states);
  });

  it.each(model.paths.map((path) => [describePath(path), path] as const))('%s', async (_, path) => {
    await run(mode, path);
  });
});

describe('offerForm chart coverage', () => {
  it('both modes together reach every state and take every transition of the chart', async () => {
    const coverage = new Coverage(offerFormMachine);
    for (const { mode, model } of models) for (const path of model.paths) await run(mode, path, coverage);
    const paths = models.map(({ mode, model }) => `${mode.offerId === null ? 'create' : 'edit'} ${model.paths.length}`);
    console.log(`${coverage.summary()} (paths: ${paths.join(', ')})`);
    expect(coverage.missingStates()).toEqual([]);
    expect(coverage.missingTransitions()).toEqual([]);
  });

  it('the coverage measure notices a mode the walk leaves out', async () => {
    const coverage = new Coverage(offerFormMachine);
    const create = models[0]!;
    for (const path of create.model.paths) await run(create.mode, path, coverage);
    expect(coverage.missingStates()).toEqual(['offerForm.loadingOffer', 'offerForm.toggling']);
    expect(coverage.missingTransitions()).toEqual([
      'offerForm.loadingComponents —xstate.done.actor.loadComponents#0→ offerForm.loadingOffer',
      'offerForm.loadingComponents —xstate.error.actor.loadComponents#0→ offerForm.loadingOffer',
      'offerForm.loadingOffer —xstate.done.actor.loadOffer#0→ offerForm.editing',
      'offerForm.loadingOffer —xstate.error.actor.loadOffer#0→ offerForm.left',
      'offerForm.editing —offer.toggle#0→ offerForm.toggling',
      'offerForm.toggling —xstate.done.actor.toggleOffer#0→ offerForm.editing',
      'offerForm.toggling —xstate.error.actor.toggleOffer#0→ offerForm.editing',
    ]);
  });
});
