import { screen, within } from '@testing-library/react';
import { OfferCard } from '../../src/ui/offers/OfferCard.tsx';
import { formatCompletion, formatRating } from '../../src/ui/traders/reputation.ts';
import { offerItem } from '../support/offers.ts';
import { renderWithRouter } from './render.tsx';

const card = () => screen.getByRole('article');

describe('offer card: the trader’s reputation', () => {
  it('shows "★ 4.33 by 5 traders", the trades and the completion rounded to a whole percent; the name links to the profile', async () => {
    await renderWithRouter(
      () => (
        <OfferCard
          offer={offerItem(1, { user__rating: '4.33', user__ratings_count: 12, user__rated_by: 5, user__trades_count: 29, user__completion_rate: '96.55' })}
          currentUsername="ada"
          onTrade={() => {}}
        />
      ),
      '/offers',
    );
    expect(within(card()).getByText('★ 4.33 by 5 traders')).toBeInTheDocument();
    expect(within(card()).getByText('29 trades')).toBeInTheDocument();
    expect(within(card()).getByText('97% completion')).toBeInTheDocument();
    expect(within(card()).getByRole('link', { name: 'bob' })).toHaveAttribute('href', '/traders/bob');
  });

  it('a trader nobody rated and with no record yet: "No ratings yet" and "New trader"', async () => {
    await renderWithRouter(
      () => (
        <OfferCard
          offer={offerItem(1, { user__rating: '0.00', user__ratings_count: 0, user__rated_by: 0, user__trades_count: 0, user__completion_rate: null })}
          currentUsername="ada"
        />
      ),
      '/offers',
    );
    expect(within(card()).getByText('No ratings yet')).toBeInTheDocument();
    expect(within(card()).getByText('0 trades')).toBeInTheDocument();
    expect(within(card()).getByText('New trader')).toBeInTheDocument();
  });

  it('shows the owner\'s conditions; one the trader misses disables the trade button and says why', async () => {
    const offer = offerItem(1, { min_completed_trades: 5, min_account_days: 30, require_two_factor: true });
    await renderWithRouter(
      () => <OfferCard offer={offer} currentUsername="ada" onTrade={() => {}} refusal="This offer is for traders with at least 5 completed trades." />,
      '/offers',
    );
    expect(within(card()).getByText('For traders with 5+ completed trades · account 30+ days old · two-factor on')).toBeInTheDocument();
    const trade = within(card()).getByRole('button', { name: 'Buy from this seller' });
    expect(trade).toBeDisabled();
    expect(trade).toHaveAccessibleDescription('This offer is for traders with at least 5 completed trades.');
    expect(within(card()).getByRole('note')).toHaveTextContent('This offer is for traders with at least 5 completed trades.');
  });

  it('an offer without conditions says nothing of them, and its button stays enabled', async () => {
    await renderWithRouter(() => <OfferCard offer={offerItem(1)} currentUsername="ada" onTrade={() => {}} />, '/offers');
    expect(within(card()).queryByText(/For traders with/)).not.toBeInTheDocument();
    expect(within(card()).getByRole('button', { name: 'Buy from this seller' })).toBeEnabled();
    expect(within(card()).queryByRole('note')).not.toBeInTheDocument();
  });
});

describe('reputation figures', () => {
  it.each([
    ['96.55', '97% completion'],
    ['96.49', '96% completion'],
    ['100.00', '100% completion'],
    ['99.50', '99% completion'],
    ['0.00', '0% completion'],
    [null, 'New trader'],
  ])('completion %s reads "%s" (never 100%% unless every trade completed)', (rate, text) => {
    expect(formatCompletion(rate)).toBe(text);
  });

  it('a rating reads with how many traders gave it, or "No ratings yet"', () => {
    expect(formatRating('4.33', 1234)).toBe('★ 4.33 by 1,234 traders');
    expect(formatRating('5.00', 1)).toBe('★ 5.00 by 1 trader');
    expect(formatRating('0.00', 0)).toBe('No ratings yet');
  });
});
