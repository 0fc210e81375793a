import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createActor } from 'xstate';
import { offerBrowserLogic } from '../../src/machines/offerBrowser/offerBrowser.actors.ts';
import { offerFormLogic } from '../../src/machines/offerForm/offerForm.actors.ts';
import type { Notice } from '../../src/machines/shared/notify.ts';
import { OfferFormScreen } from '../../src/ui/offers/OfferFormScreen.tsx';
import { OffersScreen } from '../../src/ui/offers/OffersScreen.tsx';
import { scriptedActors } from '../support/machines.ts';
import { chosenOffers, components, editable, noOffers, offerItem, offerPage, offerPaginator, pageCursor, paginator } from '../support/offers.ts';
import { renderWithRouter } from './render.tsx';
import { choose } from '../support/select.ts';

const href = (element: HTMLElement) => element.getAttribute('href');

async function browse(username = 'alice') {
  const fakes = scriptedActors(['loadComponents', 'loadOffers', 'loadStanding']);
  const taken: number[] = [];
  const actor = createActor(
    offerBrowserLogic.provide({ actors: fakes.actors as never, actions: { takeOffer: (_, { offer }) => void taken.push(offer.id) } }),
  ).start();
  await renderWithRouter(() => <OffersScreen actor={actor} username={username} />, '/offers');
  const loads = () => fakes.calls.filter((call) => call.id === 'loadOffers').map((call) => call.input);
  return {
    actor,
    fakes,
    loads,
    taken,
    answerStanding: (standing: { completed_trades: number; account_age_days: number; two_factor: boolean }) =>
      act(() => fakes.resolve('loadStanding', standing)),
    answerComponents: () => act(() => fakes.resolve('loadComponents', components)),
    answerList: (list: Parameters<typeof fakes.resolve>[1]) => act(() => fakes.resolve('loadOffers', list)),
    typist: userEvent.setup(),
  };
}

const cardOf = (name: string) => screen.getByRole('article', { name });

describe('Browse Offers screen', () => {
  it('has the title, the subtitle and a "Create Offer" link to /offers/create', async () => {
    await browse();
    expect(screen.getByRole('heading', { level: 1, name: 'Browse Offers' })).toBeInTheDocument();
    expect(screen.getByText('Find the best crypto trading opportunities')).toBeInTheDocument();
    expect(href(screen.getByRole('link', { name: 'Create Offer' }))).toBe('/offers/create');
  });

  it('shows the filters only once the components have loaded', async () => {
    const { answerComponents, answerList } = await browse();
    await answerList(offerPage(1, 1));
    expect(screen.queryByRole('search')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Search trader')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Clear All' })).not.toBeInTheDocument();

    await answerComponents();
    const filters = screen.getByRole('search');
    expect(within(filters).getByRole('textbox', { name: 'Search trader' })).toBeInTheDocument();
    expect(within(filters).getByRole('combobox', { name: 'Payment methods' })).toBeInTheDocument();
    expect(within(filters).getByRole('combobox', { name: 'Offer type' })).toBeInTheDocument();
    expect(within(filters).getByRole('combobox', { name: 'Cryptocurrency' })).toHaveTextContent('All Cryptocurrencies');
    expect(within(filters).getByRole('combobox', { name: 'Fiat currency' })).toHaveTextContent('All fiat currencies');
    expect(within(filters).getByRole('button', { name: 'Clear All' })).toBeInTheDocument();
  });

  it('never shows the filters when the components fail', async () => {
    const { fakes, answerList } = await browse();
    await act(() => fakes.reject('loadComponents', new Error('An unknown error occurred')));
    await answerList(offerPage(1, 1));
    expect(screen.queryByRole('search')).not.toBeInTheDocument();
    expect(screen.getByRole('article', { name: 'sell offer by bob' })).toBeInTheDocument();
  });

  it('filters by offer type, coin, currency and payment methods, and "Clear All" reloads without them', async () => {
    const { answerComponents, answerList, loads, typist } = await browse();
    await answerComponents();
    await answerList(offerPage(1, 1));

    await choose(typist, 'Offer type', 'Sell Offers');
    expect(loads().at(-1)).toEqual({ page: 1, filters: chosenOffers({ offerType: 'sell' }), cursor: null });
    await choose(typist, 'Cryptocurrency', 'Ethereum');
    expect(loads().at(-1)).toEqual({ page: 1, filters: chosenOffers({ offerType: 'sell', coinId: '2' }), cursor: null });
    await choose(typist, 'Fiat currency', 'Euro (EUR)');
    await choose(typist, 'Payment methods', 'SEPA');
    expect(loads().at(-1)).toEqual({
      page: 1,
      filters: chosenOffers({ offerType: 'sell', coinId: '2', currencyCode: 'EUR', paymentMethods: ['SEPA'] }),
      cursor: null,
    });
    await answerList(noOffers);

    await typist.click(screen.getByRole('button', { name: 'Clear All' }));
    expect(loads().at(-1)).toEqual({ page: 1, filters: chosenOffers(), cursor: null });
    expect(screen.getByRole('combobox', { name: 'Cryptocurrency' })).toHaveTextContent('All Cryptocurrencies');
    expect(screen.getByRole('combobox', { name: 'Fiat currency' })).toHaveTextContent('All fiat currencies');
  });

  it('the trader search reloads once the typing stops', async () => {
    const { answerComponents, answerList, loads, typist } = await browse();
    await answerComponents();
    await answerList(offerPage(1, 1));
    const before = loads().length;
    await typist.type(screen.getByRole('textbox', { name: 'Search trader' }), 'bob');
    expect(screen.getByRole('textbox', { name: 'Search trader' })).toHaveValue('bob');
    expect(loads().length, 'not while typing').toBe(before);
    await waitFor(() => expect(loads().length).toBe(before + 1));
    expect(loads().at(-1)).toEqual({ page: 1, filters: chosenOffers({ search: 'bob' }), cursor: null });
  });

  it("a card shows the coin, the trader with rating and trades, the rate line, min and max, and the trade action on others' offers", async () => {
    const { answerList } = await browse();
    await answerList({
      offers: [
        offerItem(1, { offer_type: 'sell', min_amount: '50', max_amount: '1000', rate: '0.95', currency__code: 'EUR' }),
        offerItem(2, {
          offer_type: 'buy',
          user__username: 'carol',
          coin__label: 'Ethereum',
          coin__ticker: 'eth',
          currency__code: 'NGN',
          rate: '1530.25',
          min_amount: '25000.5',
          max_amount: '1250000',
        }),
      ],
      paginator: paginator(1, 1),
    });

    const sell = within(cardOf('sell offer by bob'));
    expect(sell.getByText('Bitcoin')).toBeInTheDocument();
    expect(sell.getByText('BTC')).toBeInTheDocument();
    expect(sell.getByText('bob')).toBeInTheDocument();
    expect(sell.queryByText(/\(me\)/)).not.toBeInTheDocument();
    expect(cardOf('sell offer by bob')).toHaveTextContent('4.8');
    expect(cardOf('sell offer by bob')).toHaveTextContent('12 trades');
    expect(sell.getByText('Rate: 1.00 USD = 0.95 EUR')).toBeInTheDocument();
    expect(sell.getByText('50.00 EUR')).toBeInTheDocument();
    expect(sell.getByText('1,000.00 EUR')).toBeInTheDocument();
    expect(sell.getByRole('button', { name: 'Buy from this seller' })).toBeInTheDocument();
    expect(sell.queryByRole('link', { name: 'Edit offer' })).not.toBeInTheDocument();

    const buy = within(cardOf('buy offer by carol'));
    expect(buy.getByText('Ethereum')).toBeInTheDocument();
    expect(buy.getByText('ETH')).toBeInTheDocument();
    expect(buy.getByText('Rate: 1.00 USD = 1,530.25 NGN')).toBeInTheDocument();
    expect(buy.getByText('25,000.50 NGN')).toBeInTheDocument();
    expect(buy.getByText('1,250,000.00 NGN')).toBeInTheDocument();
    expect(buy.getByRole('button', { name: 'Sell to this buyer' })).toBeInTheDocument();
  });

  it('one\'s own offer reads "(me)" and has "Edit offer" linking to /offers/{id} instead of a trade action', async () => {
    const { answerList } = await browse('alice');
    await answerList({ offers: [offerItem(37, { user__username: 'alice', offer_type: 'buy' })], paginator: paginator(1, 1) });
    const card = within(cardOf('buy offer by alice'));
    expect(cardOf('buy offer by alice')).toHaveTextContent('alice (me)');
    expect(href(card.getByRole('link', { name: 'Edit offer' }))).toBe('/offers/37');
    expect(card.queryByRole('button', { name: /this (buyer|seller)/ })).not.toBeInTheDocument();
  });

  it('shows at most 5 payment tags, then "+N more"', async () => {
    const seven = ['Bank Transfer', 'SEPA', 'Cash', 'PayPal', 'Revolut', 'Wise', 'Zelle'];
    const five = seven.slice(0, 5);
    const { answerList } = await browse();
    await answerList({
      offers: [offerItem(1, { payment_methods: seven }), offerItem(2, { payment_methods: five, user__username: 'dave' })],
      paginator: paginator(1, 1),
    });
    const many = within(cardOf('sell offer by bob'));
    for (const method of five) expect(many.getByText(method)).toBeInTheDocument();
    expect(many.queryByText('Wise')).not.toBeInTheDocument();
    expect(many.queryByText('Zelle')).not.toBeInTheDocument();
    expect(many.getByText('+2 more')).toBeInTheDocument();

    const exactlyFive = within(cardOf('sell offer by dave'));
    for (const method of five) expect(exactlyFive.getByText(method)).toBeInTheDocument();
    expect(exactlyFive.queryByText(/more$/)).not.toBeInTheDocument();
  });

  it('an empty list says so and offers "Create the first offer"', async () => {
    const { answerList } = await browse();
    expect(screen.queryByText('No offers found matching your criteria.')).not.toBeInTheDocument();
    await answerList(noOffers);
    expect(screen.getByText('No offers found matching your criteria.')).toBeInTheDocument();
    expect(href(screen.getByRole('link', { name: 'Create the first offer' }))).toBe('/offers/create');
    expect(screen.queryAllByRole('article')).toEqual([]);
  });

  it('a full page of offers is drawn whole, the pager once every card is there', async () => {
    const { answerList } = await browse();
    await answerList({ offers: Array.from({ length: 10 }, (_, index) => offerItem(index + 1)), paginator: offerPaginator(1, 2) });
    // The cards after the first screenful follow in a render of their own (useRestLater), the pager with them.
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(10));
    expect(screen.getByRole('navigation', { name: 'Pages' })).toBeInTheDocument();
  });

  it('Previous and Next are disabled as the paginator says, and move by its pages', async () => {
    const { answerList, loads, typist } = await browse();
    // Nothing to page through before the first page arrives (drawn then, the list would push it down).
    expect(screen.queryByRole('navigation', { name: 'Pages' })).toBeNull();

    await answerList(offerPage(1, 3));
    const pages = within(screen.getByRole('navigation', { name: 'Pages' }));
    expect(pages.getByRole('button', { name: 'Previous' })).toBeDisabled();
    expect(pages.getByRole('button', { name: 'Next' })).toBeEnabled();
    await typist.click(pages.getByRole('button', { name: 'Next' }));
    // From where page 1 ended (its paginator's next_cursor).
    expect(loads().at(-1)).toEqual({ page: 2, filters: chosenOffers(), cursor: pageCursor(1) });

    await answerList(offerPage(2, 3));
    expect(pages.getByRole('button', { name: 'Previous' })).toBeEnabled();
    expect(pages.getByRole('button', { name: 'Next' })).toBeEnabled();
    await typist.click(pages.getByRole('button', { name: 'Next' }));
    await answerList(offerPage(3, 3));
    expect(pages.getByRole('button', { name: 'Previous' })).toBeEnabled();
    expect(pages.getByRole('button', { name: 'Next' })).toBeDisabled();

    await typist.click(pages.getByRole('button', { name: 'Previous' }));
    expect(loads().at(-1)).toEqual({ page: 2, filters: chosenOffers(), cursor: pageCursor(1) });
  });
});

describe('Browse Offers and the offers\' conditions', () => {
  const guarded = offerItem(5, { user__username: 'bob', min_completed_trades: 5, min_account_days: 30 });
  const secured = offerItem(6, { user__username: 'carol', offer_type: 'buy', require_two_factor: true });
  const open = offerItem(7, { user__username: 'dave' });

  it('shows each offer\'s conditions; one the trader misses disables its button with the sentence, before they try', async () => {
    const { answerList, answerStanding, taken, typist } = await browse('alice');
    await answerList({ offers: [guarded, secured, open], paginator: paginator(1, 1) });
    expect(cardOf('sell offer by bob')).toHaveTextContent('For traders with 5+ completed trades · account 30+ days old');
    expect(cardOf('buy offer by carol')).toHaveTextContent('For traders with two-factor on');
    expect(within(cardOf('sell offer by dave')).queryByText(/For traders with/)).not.toBeInTheDocument();

    await answerStanding({ completed_trades: 2, account_age_days: 40, two_factor: false });
    const bob = within(cardOf('sell offer by bob'));
    expect(bob.getByRole('button', { name: 'Buy from this seller' })).toBeDisabled();
    expect(bob.getByRole('button', { name: 'Buy from this seller' })).toHaveAccessibleDescription(
      'This offer is for traders with at least 5 completed trades.',
    );
    const carol = within(cardOf('buy offer by carol'));
    expect(carol.getByRole('button', { name: 'Sell to this buyer' })).toBeDisabled();
    expect(carol.getByRole('note')).toHaveTextContent('This offer is for traders with two-factor authentication on.');
    const dave = within(cardOf('sell offer by dave'));
    expect(dave.queryByRole('note')).not.toBeInTheDocument();
    await typist.click(dave.getByRole('button', { name: 'Buy from this seller' }));
    expect(taken).toEqual([7]);
  });

  it('a trader who meets the conditions takes the offer; until their standing arrives the server decides', async () => {
    const { answerList, answerStanding, taken, typist } = await browse('alice');
    await answerList({ offers: [guarded], paginator: paginator(1, 1) });
    const bob = within(cardOf('sell offer by bob'));
    expect(bob.getByRole('button', { name: 'Buy from this seller' })).toBeEnabled();
    await answerStanding({ completed_trades: 5, account_age_days: 30, two_factor: false });
    expect(bob.getByRole('button', { name: 'Buy from this seller' })).toBeEnabled();
    expect(bob.queryByRole('note')).not.toBeInTheDocument();
    await typist.click(bob.getByRole('button', { name: 'Buy from this seller' }));
    expect(taken).toEqual([5]);
  });
});

async function offerForm(offerId: number | null) {
  const fakes = scriptedActors(['loadComponents', 'loadOffer', 'saveOffer', 'toggleOffer']);
  const notices: Notice[] = [];
  const goToOffers = vi.fn();
  const actor = createActor(
    offerFormLogic.provide({
      actors: fakes.actors as never,
      actions: { notify: (_, notice) => void notices.push(notice), goToOffers },
    }),
    { input: { offerId } },
  ).start();
  await renderWithRouter(() => <OfferFormScreen actor={actor} />, offerId === null ? '/offers/create' : `/offers/${offerId}`);
  await act(() => fakes.resolve('loadComponents', components));
  if (offerId !== null) await act(() => fakes.resolve('loadOffer', { ...editable, id: offerId }));
  return { actor, fakes, notices, goToOffers, typist: userEvent.setup() };
}

const submitButton = () => screen.getByRole('button', { name: /^(Publish Offer|Edit Offer|Please Wait\.\.\.)$/ });
const preview = () => within(screen.getByLabelText('Offer preview'));

describe('Offer form screen', () => {
  it('creating: "Create New Offer", a back link to /offers, Buy chosen, "Publish Offer" disabled, no method "None selected"', async () => {
    await offerForm(null);
    expect(screen.getByRole('heading', { level: 1, name: 'Create New Offer' })).toBeInTheDocument();
    expect(href(screen.getByRole('link', { name: /back to offers/i }))).toBe('/offers');
    expect(screen.getByRole('radio', { name: 'I want to Buy' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'I want to Sell' })).not.toBeChecked();
    expect(submitButton()).toHaveTextContent('Publish Offer');
    expect(submitButton()).toBeDisabled();
    expect(preview().getByText('None selected')).toBeInTheDocument();
    expect(screen.queryByText(/Market Rate/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /pause offer|resume offer/i })).not.toBeInTheDocument();
  });

  it('publishing: the button waits for coin, currency, rate, min, max and a method; the hint and preview follow the choices', async () => {
    const { fakes, typist, notices, goToOffers } = await offerForm(null);
    await typist.click(screen.getByRole('radio', { name: 'I want to Sell' }));
    expect(screen.getByRole('radio', { name: 'I want to Sell' })).toBeChecked();

    await choose(typist, 'Cryptocurrency', 'Ethereum');
    expect(submitButton()).toBeDisabled();
    await choose(typist, 'Fiat currency', 'Nigerian Naira (NGN)');
    expect(screen.getByText('Market Rate: 1.00 USD ≈ 1,530.50 NGN')).toBeInTheDocument();
    expect(submitButton()).toBeDisabled();
    await typist.type(screen.getByRole('textbox', { name: 'USD Rate' }), '1525');
    expect(submitButton()).toBeDisabled();
    await typist.type(screen.getByRole('textbox', { name: 'Minimum amount (NGN)' }), '10000');
    expect(submitButton()).toBeDisabled();
    await typist.type(screen.getByRole('textbox', { name: 'Maximum amount (NGN)' }), '500000');
    expect(submitButton(), 'still no payment method').toBeDisabled();
    expect(preview().getByText('None selected')).toBeInTheDocument();
    await choose(typist, 'Payment methods', 'Bank Transfer');
    await typist.keyboard('{Escape}');
    expect(preview().getByText('Bank Transfer')).toBeInTheDocument();
    expect(preview().queryByText('None selected')).not.toBeInTheDocument();
    expect(preview().getByText('Ethereum (ETH)')).toBeInTheDocument();
    expect(preview().getByText('1.00 USD = 1525 NGN')).toBeInTheDocument();
    expect(preview().getByText('10,000.00 - 500,000.00 NGN')).toBeInTheDocument();
    expect(submitButton()).toBeEnabled();

    await typist.click(submitButton());
    expect(submitButton()).toHaveTextContent('Please Wait...');
    expect(submitButton()).toBeDisabled();
    expect(fakes.calls.at(-1)).toEqual({
      id: 'saveOffer',
      input: {
        update: false,
        id: null,
        offer_type: 'sell',
        coin: '2',
        rate: '1525',
        payment_methods: ['Bank Transfer'],
        currency: 'NGN',
        terms: null,
        min_amount: '10000',
        max_amount: '500000',
        // No condition typed: none, and the offer's default cap of 3.
        min_completed_trades: null,
        min_account_days: null,
        require_two_factor: false,
        max_open_trades: 3,
      },
    });
    await act(() => fakes.resolve('saveOffer', 'Offer created successfully'));
    expect(notices).toEqual([{ title: 'Offer created successfully', type: 'success' }]);
    expect(goToOffers).toHaveBeenCalledOnce();
  });

  it('clearing a required value disables the button again', async () => {
    const { typist } = await offerForm(42);
    expect(submitButton()).toBeEnabled();
    await typist.clear(screen.getByRole('textbox', { name: 'USD Rate' }));
    expect(submitButton()).toBeDisabled();
    await typist.type(screen.getByRole('textbox', { name: 'USD Rate' }), '1540');
    expect(submitButton()).toBeEnabled();
  });

  it('editing: "Edit Offer" title and button, the loaded values, and a refusal keeps what was typed', async () => {
    const { fakes, typist, goToOffers } = await offerForm(42);
    expect(screen.getByRole('heading', { level: 1, name: 'Edit Offer' })).toBeInTheDocument();
    expect(submitButton()).toHaveTextContent('Edit Offer');
    expect(submitButton()).toBeEnabled();
    expect(screen.getByRole('radio', { name: 'I want to Sell' })).toBeChecked();
    expect(screen.getByRole('combobox', { name: 'Cryptocurrency' })).toHaveTextContent('Ethereum');
    expect(screen.getByRole('combobox', { name: 'Fiat currency' })).toHaveTextContent('Nigerian Naira (NGN)');
    expect(screen.getByRole('textbox', { name: 'USD Rate' })).toHaveValue('1530.25');
    expect(screen.getByRole('textbox', { name: 'Minimum amount (NGN)' })).toHaveValue('5000.00');
    expect(screen.getByRole('textbox', { name: 'Maximum amount (NGN)' })).toHaveValue('250000.00');
    expect(screen.getByRole('textbox', { name: 'Terms (optional)' })).toHaveValue('Pay within 15 minutes.');
    expect(screen.getByText('Market Rate: 1.00 USD ≈ 1,530.50 NGN')).toBeInTheDocument();
    expect(preview().getByText('Bank Transfer, Cash')).toBeInTheDocument();

    await typist.clear(screen.getByRole('textbox', { name: 'Terms (optional)' }));
    await typist.type(screen.getByRole('textbox', { name: 'Terms (optional)' }), 'Cash in Lagos only.');
    await typist.click(submitButton());
    expect(submitButton()).toHaveTextContent('Please Wait...');
    expect(fakes.calls.at(-1)).toMatchObject({ id: 'saveOffer', input: { update: true, id: 42, terms: 'Cash in Lagos only.' } });

    await act(() => fakes.reject('saveOffer', new Error('max_amount must be at least min_amount')));
    expect(submitButton()).toHaveTextContent('Edit Offer');
    expect(submitButton()).toBeEnabled();
    expect(screen.getByRole('textbox', { name: 'Terms (optional)' })).toHaveValue('Cash in Lagos only.');
    expect(screen.getByRole('textbox', { name: 'USD Rate' })).toHaveValue('1530.25');
    expect(goToOffers).not.toHaveBeenCalled();
  });

  it('the conditions: labelled fields named as the payload, a wrong number said in the server\'s words, sent as numbers', async () => {
    const { fakes, typist } = await offerForm(42);
    const trades = screen.getByRole('textbox', { name: 'Minimum completed trades (optional)' });
    const days = screen.getByRole('textbox', { name: 'Minimum account age in days (optional)' });
    const cap = screen.getByRole('textbox', { name: 'Open trades at once' });
    const twoFactor = screen.getByRole('checkbox', { name: 'Takers must have two-factor authentication on' });
    expect([trades, days, cap].map((field) => field.getAttribute('name'))).toEqual(['min_completed_trades', 'min_account_days', 'max_open_trades']);
    expect(twoFactor).toHaveAttribute('name', 'require_two_factor');
    expect(screen.getByRole('group', { name: 'Who can trade with you' })).toBeInTheDocument();
    expect([trades, days, cap].map((field) => (field as HTMLInputElement).value)).toEqual(['', '', '3']);
    expect(twoFactor).not.toBeChecked();
    expect(preview().getByText('Anyone')).toBeInTheDocument();

    await typist.clear(cap);
    await typist.type(cap, '25');
    expect(screen.getByText('max_open_trades must be a whole number from 1 to 20')).toBeInTheDocument();
    expect(cap).toBeInvalid();
    expect(submitButton()).toBeDisabled();
    await typist.clear(cap);
    await typist.type(cap, '8');
    await typist.type(trades, '5');
    await typist.type(days, '30');
    await typist.click(twoFactor);
    expect(twoFactor).toBeChecked();
    expect(preview().getByText('5+ completed trades · account 30+ days old · two-factor on')).toBeInTheDocument();
    expect(submitButton()).toBeEnabled();
    await typist.click(submitButton());
    expect(fakes.calls.at(-1)).toMatchObject({
      id: 'saveOffer',
      input: { min_completed_trades: 5, min_account_days: 30, require_two_factor: true, max_open_trades: 8 },
    });
  });

  it('the pause control of one\'s own offer pauses and resumes it', async () => {
    const { fakes, typist, notices } = await offerForm(42);
    expect(screen.getByText('This offer is live')).toBeInTheDocument();
    await typist.click(screen.getByRole('button', { name: 'Pause offer' }));
    expect(fakes.calls.at(-1)).toEqual({ id: 'toggleOffer', input: { id: 42 } });
    await act(() => fakes.resolve('toggleOffer', { is_active: false, message: 'Offer paused' }));
    expect(screen.getByText('This offer is paused')).toBeInTheDocument();
    expect(notices).toEqual([{ title: 'Offer paused', type: 'success' }]);
    expect(screen.getByRole('button', { name: 'Resume offer' })).toBeEnabled();
  });
});
