import { createActor } from 'xstate';
import type { OfferInput } from '../../contracts/index.ts';
import { bindOfferForm, offerFormLogic } from '../../src/machines/offerForm/offerForm.actors.ts';
import {
  blankOffer,
  toOfferInput,
  type OfferFormEvent,
  type OfferFormValues,
} from '../../src/machines/offerForm/offerForm.machine.ts';
import {
  selectCanSubmit,
  selectCoin,
  selectConditionErrors,
  selectCurrency,
  selectIsActive,
  selectIsEditing,
  selectIsLoading,
  selectIsSubmitting,
  selectValues,
} from '../../src/machines/offerForm/offerForm.selectors.ts';
import type { FlowDeps } from '../../src/machines/shared/deps.ts';
import type { Notice } from '../../src/machines/shared/notify.ts';
import { ApiError, type Api } from '../../src/services/api.ts';
import { createMarketService } from '../../src/services/market.ts';
import { flush, scriptedActors } from '../support/machines.ts';
import { components, editable } from '../support/offers.ts';

const complete: OfferFormValues = {
  offer_type: 'sell',
  coin: '1',
  currency: 'EUR',
  rate: '0.93',
  min_amount: '50',
  max_amount: '1500',
  payment_methods: ['SEPA'],
  terms: '',
  min_completed_trades: '',
  min_account_days: '',
  require_two_factor: false,
  max_open_trades: '3',
};
/** The payload's conditions for `complete`: none, and the default cap. */
const noConditions = { min_completed_trades: null, min_account_days: null, require_two_factor: false, max_open_trades: 3 };

/** The offer form with its calls faked; by default the components (and, editing, the offer) have arrived. */
async function startForm(offerId: number | null, { settle = true } = {}) {
  const fakes = scriptedActors(['loadComponents', 'loadOffer', 'saveOffer', 'toggleOffer']);
  const notices: Notice[] = [];
  const left: string[] = [];
  const actor = createActor(
    offerFormLogic.provide({
      actors: fakes.actors as never,
      actions: {
        notify: (_, notice) => void notices.push(notice),
        goToOffers: () => void left.push('/offers'),
      },
    }),
    { input: { offerId } },
  ).start();
  const send = (event: OfferFormEvent) => actor.send(event);
  const fillIn = (values: OfferFormValues) => {
    for (const [name, value] of Object.entries(values)) {
      if (name === 'payment_methods') send({ type: 'methods.change', value: value as string[] });
      else if (name === 'require_two_factor') send({ type: 'twoFactor.change', value: value as boolean });
      else send({ type: 'field.change', name: name as Exclude<keyof OfferFormValues, 'payment_methods' | 'require_two_factor'>, value: value as string });
    }
  };
  if (settle) {
    await fakes.resolve('loadComponents', components);
    if (offerId !== null) await fakes.resolve('loadOffer', { ...editable, id: offerId });
  }
  return { actor, fakes, notices, left, send, fillIn, snapshot: () => actor.getSnapshot() };
}

describe('toOfferInput (the market/offers/ "create" payload)', () => {
  it('creates: update false and no id; empty terms are null', () => {
    expect(toOfferInput({ offerId: null, values: complete })).toEqual({
      update: false,
      id: null,
      offer_type: 'sell',
      coin: '1',
      rate: '0.93',
      payment_methods: ['SEPA'],
      currency: 'EUR',
      terms: null,
      min_amount: '50',
      max_amount: '1500',
      ...noConditions,
    });
  });

  it('carries the conditions as numbers, a blank minimum as none, two-factor as a boolean', () => {
    expect(
      toOfferInput({ offerId: null, values: { ...complete, min_completed_trades: ' 5 ', min_account_days: '', require_two_factor: true, max_open_trades: '12' } }),
    ).toMatchObject({ min_completed_trades: 5, min_account_days: null, require_two_factor: true, max_open_trades: 12 });
  });

  it('edits: update true with the id; terms of only spaces are null too, and numbers lose stray spaces', () => {
    expect(
      toOfferInput({ offerId: 42, values: { ...complete, terms: '   ', rate: ' 0.93 ', min_amount: '50 ', max_amount: ' 1500' } }),
    ).toMatchObject({ update: true, id: 42, terms: null, rate: '0.93', min_amount: '50', max_amount: '1500' });
  });

  it('keeps written terms as written', () => {
    expect(toOfferInput({ offerId: null, values: { ...complete, terms: 'Pay within 15 minutes.\nNo third parties.' } }).terms).toBe(
      'Pay within 15 minutes.\nNo third parties.',
    );
  });
});

describe('Offer form chart', () => {
  it('create mode (no id) loads the components only, then shows a blank form', async () => {
    const { fakes, snapshot } = await startForm(null, { settle: false });
    expect(selectIsEditing(snapshot())).toBe(false);
    expect(selectIsLoading(snapshot())).toBe(true);
    await fakes.resolve('loadComponents', components);
    expect(fakes.calls).toEqual([{ id: 'loadComponents', input: undefined }]);
    expect(snapshot().value).toBe('editing');
    expect(selectIsLoading(snapshot())).toBe(false);
    expect(selectValues(snapshot())).toEqual(blankOffer);
    expect(selectIsActive(snapshot())).toBeNull();
    expect(snapshot().context.components).toEqual(components);
  });

  it('edit mode loads the components, then the offer, and fills every value (the coin id as text)', async () => {
    const { fakes, snapshot } = await startForm(42, { settle: false });
    expect(selectIsEditing(snapshot())).toBe(true);
    expect(fakes.calls).toEqual([{ id: 'loadComponents', input: undefined }]);
    await fakes.resolve('loadComponents', components);
    expect(fakes.calls.at(-1)).toEqual({ id: 'loadOffer', input: { id: 42 } });
    expect(selectIsLoading(snapshot())).toBe(true);

    await fakes.resolve('loadOffer', editable);
    expect(snapshot().value).toBe('editing');
    expect(selectValues(snapshot())).toEqual({
      offer_type: 'sell',
      coin: '2',
      currency: 'NGN',
      rate: '1530.25',
      min_amount: '5000.00',
      max_amount: '250000.00',
      payment_methods: ['Bank Transfer', 'Cash'],
      terms: 'Pay within 15 minutes.',
      // No conditions: blank minimums, two-factor off, and its cap.
      min_completed_trades: '',
      min_account_days: '',
      require_two_factor: false,
      max_open_trades: '3',
    });
    expect(selectIsActive(snapshot())).toBe(true);
    expect(selectCoin(snapshot())?.label).toBe('Ethereum');
    expect(selectCurrency(snapshot())).toEqual({ code: 'NGN', name: 'Nigerian Naira', fx_rate: '1530.5' });
    expect(selectCanSubmit(snapshot())).toBe(true);
  });

  it('an offer with conditions fills them as typed numbers and the two-factor box', async () => {
    const { fakes, snapshot } = await startForm(42, { settle: false });
    await fakes.resolve('loadComponents', components);
    await fakes.resolve('loadOffer', { ...editable, min_completed_trades: 5, min_account_days: 30, require_two_factor: true, max_open_trades: 7 });
    expect(selectValues(snapshot())).toMatchObject({ min_completed_trades: '5', min_account_days: '30', require_two_factor: true, max_open_trades: '7' });
  });

  it('an offer without terms fills the terms as empty text', async () => {
    const { fakes, snapshot } = await startForm(42, { settle: false });
    await fakes.resolve('loadComponents', components);
    await fakes.resolve('loadOffer', { ...editable, terms: null });
    expect(selectValues(snapshot()).terms).toBe('');
  });

  it('a components failure still loads the offer to edit', async () => {
    const { fakes, snapshot } = await startForm(42, { settle: false });
    await fakes.reject('loadComponents', new Error('An unknown error occurred'));
    expect(fakes.calls.at(-1)).toEqual({ id: 'loadOffer', input: { id: 42 } });
    await fakes.resolve('loadOffer', editable);
    expect(snapshot().value).toBe('editing');
    expect(snapshot().context.components).toBeNull();
  });

  it('a failed offer load goes to /offers', async () => {
    const { fakes, snapshot, left, notices } = await startForm(7, { settle: false });
    await fakes.resolve('loadComponents', components);
    await fakes.reject('loadOffer', new ApiError('Offer not found', 404));
    expect(left).toEqual(['/offers']);
    expect(snapshot().status).toBe('done');
    expect(notices).toEqual([]);
  });

  const required: [string, OfferFormEvent][] = [
    ['coin', { type: 'field.change', name: 'coin', value: '' }],
    ['currency', { type: 'field.change', name: 'currency', value: '' }],
    ['rate', { type: 'field.change', name: 'rate', value: '' }],
    ['rate (only spaces)', { type: 'field.change', name: 'rate', value: '   ' }],
    ['min_amount', { type: 'field.change', name: 'min_amount', value: '' }],
    ['max_amount', { type: 'field.change', name: 'max_amount', value: '' }],
    ['max_amount (only spaces)', { type: 'field.change', name: 'max_amount', value: ' ' }],
    ['a payment method', { type: 'methods.change', value: [] }],
  ];

  it.each(required)('without %s the offer cannot be submitted', async (_, missing) => {
    const { fakes, send, fillIn, snapshot } = await startForm(null);
    fillIn(complete);
    expect(selectCanSubmit(snapshot())).toBe(true);
    send(missing);
    expect(selectCanSubmit(snapshot())).toBe(false);
    send({ type: 'form.submit' });
    expect(snapshot().value).toBe('editing');
    expect(fakes.isRunning('saveOffer')).toBe(false);
  });

  const wrongConditions: [string, OfferFormEvent, string][] = [
    ['a negative minimum of trades', { type: 'field.change', name: 'min_completed_trades', value: '-1' }, 'min_completed_trades'],
    ['a fraction of a day', { type: 'field.change', name: 'min_account_days', value: '1.5' }, 'min_account_days'],
    ['more days than ten years', { type: 'field.change', name: 'min_account_days', value: '3651' }, 'min_account_days'],
    ['no cap of open trades', { type: 'field.change', name: 'max_open_trades', value: ' ' }, 'max_open_trades'],
    ['a cap of 0', { type: 'field.change', name: 'max_open_trades', value: '0' }, 'max_open_trades'],
    ['a cap over 20', { type: 'field.change', name: 'max_open_trades', value: '21' }, 'max_open_trades'],
  ];

  it.each(wrongConditions)('with %s the offer cannot be submitted, and the field says why in the server\'s words', async (_, wrong, field) => {
    const { fakes, send, fillIn, snapshot } = await startForm(null);
    fillIn(complete);
    expect(selectConditionErrors(snapshot())).toEqual({});
    send(wrong);
    expect(selectCanSubmit(snapshot())).toBe(false);
    expect(Object.keys(selectConditionErrors(snapshot()))).toEqual([field]);
    expect(selectConditionErrors(snapshot())[field as 'max_open_trades']).toMatch(new RegExp(`^${field} must be a whole number from \\d+ to [\\d,]+$`));
    send({ type: 'form.submit' });
    expect(fakes.isRunning('saveOffer')).toBe(false);
  });

  it('conditions within their ranges, two-factor on, submit as numbers', async () => {
    const { fakes, send, fillIn, snapshot } = await startForm(null);
    fillIn({ ...complete, min_completed_trades: '100000', min_account_days: '0', require_two_factor: true, max_open_trades: '20' });
    expect(selectCanSubmit(snapshot())).toBe(true);
    send({ type: 'twoFactor.change', value: false });
    send({ type: 'twoFactor.change', value: true });
    send({ type: 'form.submit' });
    expect(fakes.calls.at(-1)?.input).toMatchObject({ min_completed_trades: 100000, min_account_days: 0, require_two_factor: true, max_open_trades: 20 });
  });

  it('the same rule holds while editing an existing offer', async () => {
    const { send, snapshot } = await startForm(42);
    expect(selectCanSubmit(snapshot())).toBe(true);
    send({ type: 'methods.change', value: [] });
    expect(selectCanSubmit(snapshot())).toBe(false);
  });

  it('a blank form cannot be submitted; the terms and the offer type are not required', async () => {
    const { send, fillIn, snapshot } = await startForm(null);
    expect(selectCanSubmit(snapshot())).toBe(false);
    fillIn({ ...complete, terms: '', offer_type: 'buy' });
    expect(selectCanSubmit(snapshot())).toBe(true);
    send({ type: 'field.change', name: 'offer_type', value: 'sell' });
    expect(selectCanSubmit(snapshot())).toBe(true);
  });

  it('publishing sends toOfferInput (update false, terms null when empty), notifies the server text and goes to /offers', async () => {
    const { fakes, send, fillIn, snapshot, notices, left } = await startForm(null);
    fillIn(complete);
    send({ type: 'form.submit' });
    expect(selectIsSubmitting(snapshot())).toBe(true);
    expect(fakes.calls.at(-1)).toEqual({
      id: 'saveOffer',
      input: {
        update: false,
        id: null,
        offer_type: 'sell',
        coin: '1',
        rate: '0.93',
        payment_methods: ['SEPA'],
        currency: 'EUR',
        terms: null,
        min_amount: '50',
        max_amount: '1500',
        ...noConditions,
      },
    });
    expect(left).toEqual([]);
    await fakes.resolve('saveOffer', 'Offer created successfully');
    expect(notices).toEqual([{ title: 'Offer created successfully', type: 'success' }]);
    expect(left).toEqual(['/offers']);
    expect(snapshot().status).toBe('done');
  });

  it('saving an edit sends update true with the id and the terms', async () => {
    const { fakes, send, snapshot, notices, left } = await startForm(42);
    send({ type: 'field.change', name: 'rate', value: '1540' });
    send({ type: 'form.submit' });
    expect(fakes.calls.at(-1)).toEqual({
      id: 'saveOffer',
      input: {
        update: true,
        id: 42,
        offer_type: 'sell',
        coin: '2',
        rate: '1540',
        payment_methods: ['Bank Transfer', 'Cash'],
        currency: 'NGN',
        terms: 'Pay within 15 minutes.',
        min_amount: '5000.00',
        max_amount: '250000.00',
        ...noConditions,
      },
    });
    await fakes.resolve('saveOffer', 'Offer updated successfully');
    expect(notices).toEqual([{ title: 'Offer updated successfully', type: 'success' }]);
    expect(left).toEqual(['/offers']);
    expect(snapshot().status).toBe('done');
  });

  it('a refusal returns to editing with every value kept, no notice and no navigation; it can be sent again', async () => {
    const { fakes, send, fillIn, snapshot, notices, left } = await startForm(null);
    const typed = { ...complete, terms: 'Only SEPA instant.' };
    fillIn(typed);
    send({ type: 'form.submit' });
    await fakes.reject('saveOffer', new ApiError('max_amount must be at least min_amount', 400));
    expect(snapshot().value).toBe('editing');
    expect(selectValues(snapshot())).toEqual(typed);
    expect(selectCanSubmit(snapshot())).toBe(true);
    expect(notices).toEqual([]);
    expect(left).toEqual([]);
    send({ type: 'form.submit' });
    expect(fakes.calls.filter((call) => call.id === 'saveOffer')).toHaveLength(2);
  });

  it('while submitting, nothing else can be submitted or toggled', async () => {
    const { fakes, send, snapshot } = await startForm(42);
    send({ type: 'form.submit' });
    expect(selectCanSubmit(snapshot())).toBe(false);
    send({ type: 'form.submit' });
    send({ type: 'offer.toggle' });
    expect(fakes.calls.map((call) => call.id)).toEqual(['loadComponents', 'loadOffer', 'saveOffer']);
  });

  it('the pause control flips isActive and notifies the server text, keeping the form as typed', async () => {
    const { fakes, send, snapshot, notices } = await startForm(42);
    send({ type: 'field.change', name: 'terms', value: 'changed' });
    send({ type: 'offer.toggle' });
    expect(fakes.calls.at(-1)).toEqual({ id: 'toggleOffer', input: { id: 42 } });
    await fakes.resolve('toggleOffer', { is_active: false, message: 'Offer paused' });
    expect(selectIsActive(snapshot())).toBe(false);
    expect(notices).toEqual([{ title: 'Offer paused', type: 'success' }]);
    expect(selectValues(snapshot()).terms).toBe('changed');

    send({ type: 'offer.toggle' });
    await fakes.resolve('toggleOffer', { is_active: true, message: 'Offer resumed' });
    expect(selectIsActive(snapshot())).toBe(true);
    expect(notices.at(-1)).toEqual({ title: 'Offer resumed', type: 'success' });
    expect(snapshot().value).toBe('editing');
  });

  it('a failed toggle keeps the offer as it was', async () => {
    const { fakes, send, snapshot, notices } = await startForm(42);
    send({ type: 'offer.toggle' });
    await fakes.reject('toggleOffer', new ApiError('You can only pause your own offers', 403));
    expect(selectIsActive(snapshot())).toBe(true);
    expect(snapshot().value).toBe('editing');
    expect(notices).toEqual([]);
  });

  it('a new offer has nothing to pause', async () => {
    const { fakes, send, snapshot } = await startForm(null);
    send({ type: 'offer.toggle' });
    expect(snapshot().value).toBe('editing');
    expect(fakes.calls.map((call) => call.id)).toEqual(['loadComponents']);
  });
});

describe('Offer form bound to the market service', () => {
  function fakeApi(refuse?: string) {
    const sent: { how: 'read' | 'write'; path: string; body: unknown }[] = [];
    const answers: Record<string, unknown> = {
      components,
      get: editable,
      create: 'Offer updated successfully',
      toggle: { is_active: false, message: 'Offer paused' },
    };
    const answer = (how: 'read' | 'write') => async (path: string, body: { type: string }) => {
      sent.push({ how, path, body });
      if (refuse === body.type) throw new ApiError('Offer not found', 404);
      return answers[body.type];
    };
    return { api: { read: answer('read'), write: answer('write') } as unknown as Api, sent };
  }

  function bound(api: Api, offerId: number | null) {
    const notify = vi.fn<(notice: Notice) => void>();
    const navigate = vi.fn<FlowDeps['navigate']>();
    const deps = { market: createMarketService(api), notify, navigate } as unknown as FlowDeps;
    const actor = createActor(bindOfferForm(deps), { input: { offerId } }).start();
    return { actor, notify, navigate };
  }

  it('asks for the components with drop 10, gets the offer, saves with type "create" and goes to /offers', async () => {
    const { api, sent } = fakeApi();
    const { actor, notify, navigate } = bound(api, 42);
    await flush();
    await flush();
    actor.send({ type: 'offer.toggle' });
    await flush();
    actor.send({ type: 'form.submit' });
    await flush();
    const body: OfferInput = {
      type: 'create',
      update: true,
      id: 42,
      offer_type: 'sell',
      coin: '2',
      rate: '1530.25',
      payment_methods: ['Bank Transfer', 'Cash'],
      currency: 'NGN',
      terms: 'Pay within 15 minutes.',
      min_amount: '5000.00',
      max_amount: '250000.00',
      ...noConditions,
    };
    expect(sent).toEqual([
      { how: 'read', path: 'market/offers/', body: { type: 'components', drop: 10 } },
      { how: 'read', path: 'market/offers/', body: { type: 'get', id: 42 } },
      { how: 'write', path: 'market/offers/', body: { type: 'toggle', id: 42 } },
      { how: 'write', path: 'market/offers/', body },
    ]);
    expect(notify.mock.calls).toEqual([[{ title: 'Offer paused', type: 'success' }], [{ title: 'Offer updated successfully', type: 'success' }]]);
    expect(navigate.mock.calls).toEqual([['/offers']]);
  });

  it('an offer that cannot be loaded sends the trader to /offers', async () => {
    const { api } = fakeApi('get');
    const { actor, navigate } = bound(api, 999);
    await flush();
    await flush();
    expect(navigate.mock.calls).toEqual([['/offers']]);
    expect(actor.getSnapshot().status).toBe('done');
  });
});
