import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import type { ActorRefFrom } from 'xstate';
import { css } from 'styled-system/css';
import type { OfferListItem } from '../../../contracts/index.ts';
import type { offerBrowserMachine } from '../../machines/offerBrowser/offerBrowser.machine.ts';
import {
  selectCanNext,
  selectCanPrevious,
  selectComponents,
  selectFilters,
  selectHasLoaded,
  selectIsLoading,
  offerCoinPrice,
  selectLivePrices,
  selectOffers,
  selectShowFilters,
} from '../../machines/offerBrowser/offerBrowser.selectors.ts';
import { selectPrices } from '../../machines/livePrices/livePrices.selectors.ts';
import { Button, ButtonLink } from '../primitives/Button.tsx';
import { cardStyle } from '../primitives/Card.tsx';
import { Pager } from '../primitives/Pager.tsx';
import { SelectField } from '../primitives/SelectField.tsx';
import { TextField } from '../primitives/TextField.tsx';
import { PageHeader } from '../pages/PageHeader.tsx';
import { OfferCard } from './OfferCard.tsx';

const filtersBox = css({
  display: 'grid',
  gridTemplateColumns: { base: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(5, 1fr) auto' },
  gap: '3',
  alignItems: 'end',
  mt: '6',
});
const grid = css({
  display: 'grid',
  gridTemplateColumns: { base: '1fr', md: 'repeat(2, 1fr)', xl: 'repeat(3, 1fr)' },
  gap: '4',
  mt: '6',
});
const empty = css({ textAlign: 'center', py: '16', color: 'fg.muted', display: 'flex', flexDirection: 'column', gap: '4', alignItems: 'center', mt: '6' });

export function OffersScreen({
  actor,
  username,
  onTrade,
}: {
  actor: ActorRefFrom<typeof offerBrowserMachine>;
  username: string;
  /** Opens the Trade Preview dialog for someone else's offer. */
  onTrade?: (offer: OfferListItem) => void;
}) {
  const showFilters = useSelector(actor, selectShowFilters);
  const components = useSelector(actor, selectComponents);
  const filters = useSelector(actor, selectFilters);
  const offers = useSelector(actor, selectOffers);
  const livePrices = useSelector(actor, selectLivePrices);
  const prices = useSelector(livePrices, (snapshot) => snapshot && selectPrices(snapshot));
  const loading = useSelector(actor, selectIsLoading);
  const loaded = useSelector(actor, selectHasLoaded);
  const canNext = useSelector(actor, selectCanNext);
  const canPrevious = useSelector(actor, selectCanPrevious);

  const options = useMemo(
    () => ({
      methods: (components?.payment_methods ?? []).map((method) => ({ value: method.name, label: method.name })),
      types: [
        { value: 'buy', label: 'Buy Offers' },
        { value: 'sell', label: 'Sell Offers' },
      ],
      coins: [
        { value: '', label: 'All Cryptocurrencies' },
        ...(components?.coins ?? []).map((coin) => ({ value: String(coin.id), label: coin.label, image: coin.image })),
      ],
      currencies: [
        { value: '', label: 'All fiat currencies' },
        ...(components?.currencies ?? []).map((entry) => ({ value: entry.code, label: `${entry.name} (${entry.code.toUpperCase()})` })),
      ],
    }),
    [components],
  );

  return (
    <section aria-busy={loading}>
      <PageHeader
        title="Browse Offers"
        subtitle="Find the best crypto trading opportunities"
        actions={<ButtonLink to="/offers/create">Create Offer</ButtonLink>}
      />

      {showFilters ? (
        <div className={`${cardStyle} ${filtersBox}`} role="search">
          <TextField
            label="Search trader"
            name="search"
            placeholder="Username"
            value={filters.search}
            onValueChange={(value) => actor.send({ type: 'filter.search', value })}
          />
          <SelectField
            label="Payment methods"
            name="payment_method"
            multiple
            placeholder="All payment methods"
            options={options.methods}
            value={filters.paymentMethods}
            onValueChange={(value) => actor.send({ type: 'filter.paymentMethods', value })}
          />
          <SelectField
            label="Offer type"
            name="offer_type"
            placeholder="Buy or sell"
            options={options.types}
            value={filters.offerType ? [filters.offerType] : []}
            onValueChange={([value]) => actor.send({ type: 'filter.offerType', value: value === 'buy' || value === 'sell' ? value : '' })}
          />
          <SelectField
            label="Cryptocurrency"
            name="coin"
            placeholder="All Cryptocurrencies"
            options={options.coins}
            value={[filters.coinId]}
            onValueChange={([value]) => actor.send({ type: 'filter.coin', value: value ?? '' })}
          />
          <SelectField
            label="Fiat currency"
            name="currency"
            placeholder="All fiat currencies"
            options={options.currencies}
            value={[filters.currencyCode]}
            onValueChange={([value]) => actor.send({ type: 'filter.currency', value: value ?? '' })}
          />
          <Button variant="outline" onClick={() => actor.send({ type: 'filters.clear' })}>
            Clear All
          </Button>
        </div>
      ) : null}

      {loaded && offers.length === 0 ? (
        <div className={`${cardStyle} ${empty}`}>
          <p>No offers found matching your criteria.</p>
          <ButtonLink to="/offers/create" variant="outline">
            Create the first offer
          </ButtonLink>
        </div>
      ) : (
        <div className={grid}>
          {offers.map((offer) => (
            <OfferCard
              key={offer.id}
              offer={offer}
              currentUsername={username}
              onTrade={onTrade ? () => onTrade(offer) : undefined}
              coinPrice={offerCoinPrice(offer, prices)}
            />
          ))}
        </div>
      )}

      {/* Once a page has arrived: drawn before, the list would push it down as it arrives (a layout shift). */}
      {loaded ? (
        <Pager
          canPrevious={canPrevious}
          canNext={canNext}
          onPrevious={() => actor.send({ type: 'page.previous' })}
          onNext={() => actor.send({ type: 'page.next' })}
        />
      ) : null}
    </section>
  );
}
