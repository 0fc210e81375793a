import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createActor } from 'xstate';
import { traderProfileMachine } from '../../src/machines/traderProfile/traderProfile.machine.ts';
import { TraderProfileScreen } from '../../src/ui/traders/TraderProfileScreen.tsx';
import { scriptedActors } from '../support/machines.ts';
import { offerItem } from '../support/offers.ts';
import { traderProfile } from '../support/traders.ts';
import { renderWithRouter } from './render.tsx';

async function profilePage(username = 'bob') {
  const fakes = scriptedActors(['loadProfile']);
  const actor = createActor(traderProfileMachine.provide({ actors: fakes.actors as never }), { input: { username } }).start();
  await renderWithRouter(() => <TraderProfileScreen actor={actor} currentUsername="ada" />, `/traders/${username}`);
  return { fakes, actor, typist: userEvent.setup() };
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
    expect(offers.getByRole('link', { name: 'Buy from this seller' })).toHaveAttribute('href', '/offers');
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
