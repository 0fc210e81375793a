import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createActor } from 'xstate';
import type { OfferListItem } from '../../contracts/index.ts';
import { tradeDialogLogic } from '../../src/machines/tradeDialog/tradeDialog.actors.ts';
import { traderProfileLogic } from '../../src/machines/traderProfile/traderProfile.actors.ts';
import { TraderProfileScreen } from '../../src/ui/traders/TraderProfileScreen.tsx';
import { TradeDialog } from '../../src/ui/trades/TradeDialog.tsx';
import { scriptedActors } from '../support/machines.ts';
import { offerItem } from '../support/offers.ts';
import { traderProfile } from '../support/traders.ts';
import { renderWithRouter } from './render.tsx';

/**
 * /traders/$username as the route draws it: the profile's chart (with its rule of offers' conditions) and the Trade
 * Preview dialog beside it, which the profile's `takeOffer` opens, as the route binds it.
 */
async function profilePage(username = 'bob') {
  const fakes = scriptedActors(['loadProfile', 'loadStanding']);
  const dialog = createActor(tradeDialogLogic.provide({ actors: scriptedActors(['previewTrade', 'openTrade']).actors as never })).start();
  const taken: OfferListItem[] = [];
  const takeOffer = (_: unknown, { offer }: { offer: OfferListItem }) => {
    taken.push(offer);
    dialog.send({ type: 'dialog.open', offer });
  };
  const actor = createActor(traderProfileLogic.provide({ actors: fakes.actors as never, actions: { takeOffer } }), { input: { username } }).start();
  await renderWithRouter(
    () => (
      <>
        <TraderProfileScreen actor={actor} currentUsername="ada" />
        <TradeDialog actor={dialog} />
      </>
    ),
    `/traders/${username}`,
  );
  return { fakes, actor, dialog, taken, typist: userEvent.setup() };
}

describe('/traders/$username', () => {
  it('shows a spinner, then the trader: joined, completed trades, completion, rating with how many traders rated, account age', async () => {
    const { fakes } = await profilePage();
    expect(screen.getByRole('status', { name: 'Loading the trader' })).toBeInTheDocument();
    await act(() => fakes.resolve('loadProfile', traderProfile()));
    expect(screen.getByRole('heading', { level: 1, name: 'bob' })).toBeInTheDocument();
    expect(screen.getByText('Joined March 2025')).toBeInTheDocument();
    const figure = (term: string) => screen.getByText(term, { selector: 'dt' }).nextElementSibling;
    expect(figure('Completed trades')).toHaveTextContent('29');
    expect(figure('Completion rate')).toHaveTextContent('97%');
    expect(figure('Rating')).toHaveTextContent('★ 4.33');
    // 3 ratings from 2 traders: each counts once in the average.
    expect(figure('Rating')).toHaveTextContent('rated by 2 traders (3 ratings)');
    expect(figure('Account age')).toHaveTextContent('412 days');
  });

  it('words one rater, one rating each, and an account made today', async () => {
    const { fakes } = await profilePage();
    await act(() => fakes.resolve('loadProfile', traderProfile({ rating: '5.00', ratings_count: 1, rated_by: 1, account_age_days: 0 })));
    const figure = (term: string) => screen.getByText(term, { selector: 'dt' }).nextElementSibling;
    expect(figure('Rating')).toHaveTextContent(/^★ 5\.00rated by 1 trader$/);
    expect(figure('Account age')).toHaveTextContent('Less than a day');
  });

  it('lists the latest ratings with score, comment and rater, and the active offers as cards', async () => {
    const { fakes } = await profilePage();
    await act(() => fakes.resolve('loadProfile', traderProfile()));
    const ratings = within(screen.getByRole('region', { name: 'Latest ratings' })).getAllByRole('listitem');
    expect(ratings).toHaveLength(2);
    expect(within(ratings[0]!).getByRole('img', { name: '5 out of 5' })).toBeInTheDocument();
    expect(ratings[0]).toHaveTextContent('carol');
    expect(ratings[0]).toHaveTextContent('Released within minutes');
    expect(within(ratings[1]!).getByRole('img', { name: '4 out of 5' })).toBeInTheDocument();
    const offers = within(screen.getByRole('region', { name: 'Active offers' }));
    expect(offers.getByRole('article', { name: 'sell offer by bob' })).toBeInTheDocument();
    expect(offers.getByRole('article', { name: 'buy offer by bob' })).toBeInTheDocument();
    expect(offers.getByRole('button', { name: 'Buy from this seller' })).toBeEnabled();
    expect(offers.getByRole('button', { name: 'Sell to this buyer' })).toBeEnabled();
  });

  it("each offer's trade button opens that offer's own Trade Preview, on the profile", async () => {
    const { fakes, dialog, taken, typist } = await profilePage();
    const naira = offerItem(7, { currency__code: 'NGN', min_amount: '5000', max_amount: '90000', payment_methods: ['Opay'] });
    await act(() => fakes.resolve('loadProfile', traderProfile({ offers: [offerItem(1), naira] })));
    expect(screen.queryByRole('dialog')).toBeNull();
    const cards = within(screen.getByRole('region', { name: 'Active offers' })).getAllByRole('article');
    await typist.click(within(cards[1]!).getByRole('button', { name: 'Buy from this seller' }));
    const modal = within(await screen.findByRole('dialog'));
    expect(modal.getByRole('heading', { name: 'Trade Preview' })).toBeInTheDocument();
    expect(modal.getByRole('textbox', { name: 'Amount (NGN)' })).toBeInTheDocument();
    expect(modal.getByText('Amount must be between 5000 - 90000 NGN')).toBeInTheDocument();
    expect(taken.map((offer) => offer.id)).toEqual([7]);
    expect(dialog.getSnapshot().context.offer).toEqual(naira);
    expect(screen.queryByRole('link', { name: 'Buy from this seller' }), 'no detour through Browse Offers').toBeNull();
  });

  it("an offer whose conditions the trader misses says why, and its button opens nothing", async () => {
    const { fakes, taken } = await profilePage();
    const picky = offerItem(4, { min_completed_trades: 5 });
    await act(() => fakes.resolve('loadProfile', traderProfile({ offers: [picky, offerItem(1)] })));
    await act(() => fakes.resolve('loadStanding', { completed_trades: 1, account_age_days: 30, two_factor: true }));
    const [refused, open] = within(screen.getByRole('region', { name: 'Active offers' })).getAllByRole('article');
    const button = within(refused!).getByRole('button', { name: 'Buy from this seller' });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription('This offer is for traders with at least 5 completed trades.');
    expect(within(open!).getByRole('button', { name: 'Buy from this seller' })).toBeEnabled();
    expect(taken).toEqual([]);
  });

  it('a new trader: no ratings yet, no completion record, no offers', async () => {
    const { fakes } = await profilePage();
    await act(() =>
      fakes.resolve(
        'loadProfile',
        traderProfile({ trades_count: 0, completion_rate: null, rating: '0.00', ratings_count: 0, rated_by: 0, ratings: [], offers: [] }),
      ),
    );
    const figure = (term: string) => screen.getByText(term, { selector: 'dt' }).nextElementSibling;
    expect(figure('Completion rate')).toHaveTextContent('New trader');
    expect(figure('Rating')).toHaveTextContent('No ratings yet');
    expect(screen.getByText('Nobody has rated bob yet.')).toBeInTheDocument();
    expect(screen.getByText(/bob has no active offers/)).toBeInTheDocument();
  });

  it('one’s own offers on one’s own profile read "(me)" with "Edit offer"', async () => {
    const { fakes } = await profilePage('ada');
    await act(() => fakes.resolve('loadProfile', traderProfile({ username: 'ada', offers: [offerItem(9, { user__username: 'ada' })] })));
    expect(screen.getByRole('link', { name: 'Edit offer' })).toHaveAttribute('href', '/offers/9');
  });

  it('an unknown username says there is no such trader, with a way to the offers', async () => {
    const { fakes } = await profilePage('nobody');
    await act(() => fakes.resolve('loadProfile', null));
    expect(screen.getByRole('heading', { name: 'No trader called nobody' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Browse offers' })).toHaveAttribute('href', '/offers');
  });

  it('a failed load offers "Try again", which loads again', async () => {
    const { fakes, typist } = await profilePage();
    await act(() => fakes.reject('loadProfile', new Error('Internet server error')));
    await typist.click(screen.getByRole('button', { name: 'Try again' }));
    expect(fakes.calls).toHaveLength(2);
    await act(() => fakes.resolve('loadProfile', traderProfile()));
    expect(screen.getByRole('heading', { level: 1, name: 'bob' })).toBeInTheDocument();
  });
});
