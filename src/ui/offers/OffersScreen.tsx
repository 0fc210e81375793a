import { useSelector } from '@xstate/react';
import { memo, startTransition, useDeferredValue, useEffect, useMemo, useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import { css, cx } from 'styled-system/css';
import type { OfferListItem } from '../../../contracts/index.ts';
import type { LivePrices } from '../../machines/livePrices/livePrices.selectors.ts';
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
  selectStanding,
  selectTakeRefusals,
} from '../../machines/offerBrowser/offerBrowser.selectors.ts';
import { selectPrices } from '../../machines/livePrices/livePrices.selectors.ts';
import { Button, ButtonLink } from '../primitives/Button.tsx';
import { filterBar } from '../primitives/boxes.ts';
import { cardStyle } from '../primitives/Card.tsx';
import { Pager } from '../primitives/Pager.tsx';
import { FilterSelectField, SingleSelectField } from '../primitives/SelectField.tsx';
import { TextField } from '../primitives/TextField.tsx';
import { PageHeader } from '../pages/PageHeader.tsx';
import { offerChoices } from './choices.ts';
import { OfferCard } from './OfferCard.tsx';
import { PaymentMethodsField } from './PaymentMethodsField.tsx';

const filtersBox = cx(filterBar, css({ gridTemplateColumns: { base: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(5, 1fr) auto' } }));
const grid = css({
  display: 'grid',
  gridTemplateColumns: { base: '1fr', md: 'repeat(2, 1fr)', xl: 'repeat(3, 1fr)' },
  gap: '4',
  mt: '6',
});
/**
 * The cards of the first page of offers drawn in the first render: two rows on the widest layout, more than a phone
 * shows; the rest are drawn just after, in a render and commit of their own (useRestLater).
 */
const FIRST_CARDS = 6;
const OFFER_TYPES = [
  { value: 'buy', label: 'Buy Offers' },
  { value: 'sell', label: 'Sell Offers' },
];
/** The filters of one choice or all: each its field, its choices (`from`, offerChoices), the filter it sets and the event that sets it. */
const CHOICE_FILTERS = [
  { label: 'Cryptocurrency', name: 'coin', allLabel: 'All Cryptocurrencies', from: 'coins', filter: 'coinId', event: 'filter.coin' },
  { label: 'Fiat currency', name: 'currency', allLabel: 'All fiat currencies', from: 'currencies', filter: 'currencyCode', event: 'filter.currency' },
] as const;
const empty = css({ textAlign: 'center', py: '16', color: 'fg.muted', display: 'flex', flexDirection: 'column', gap: '4', alignItems: 'center', mt: '6' });

export function OffersScreen({ actor, username }: { actor: ActorRefFrom<typeof offerBrowserMachine>; username: string }) {
  const filters = useSelector(actor, selectFilters);
  const loading = useSelector(actor, selectIsLoading);
  // What the server sends (the page of offers, the filters' choices) is drawn as a transition, in slices that leave
  // the page answering taps: a snapshot's change alone is drawn at once, in one task (useSyncExternalStore), and on a
  // phone a page of offers with its filters takes longer than a tap may wait. The fields' values stay as they are
  // now, so what is typed or picked shows at once.
  const arrived = useDeferredValue(useSelector(actor, (snapshot) => snapshot));
  const livePrices = useSelector(actor, selectLivePrices);
  const prices = useDeferredValue(useSelector(livePrices, (snapshot) => snapshot && selectPrices(snapshot)));
  const components = selectComponents(arrived);
  const offers = selectOffers(arrived);
  const standing = selectStanding(arrived);
  // Which offers the trader may not take, and why: the chart's guard (offer.take) over the page and the trader's
  // standing, so it is worked out again only when one of those two changes.
  const refusals = useMemo(() => selectTakeRefusals(arrived), [offers, standing]);

  const choices = useMemo(() => offerChoices(components), [components]);

  return (
    <section aria-busy={loading}>
      <PageHeader
        title="Browse Offers"
        subtitle="Find the best crypto trading opportunities"
        actions={<ButtonLink to="/offers/create">Create Offer</ButtonLink>}
      />
      {selectShowFilters(arrived) ? <Filters actor={actor} filters={filters} choices={choices} /> : null}
      <OfferList
        actor={actor}
        offers={offers}
        refusals={refusals}
        loaded={selectHasLoaded(arrived)}
        canPrevious={selectCanPrevious(arrived)}
        canNext={selectCanNext(arrived)}
        prices={prices}
        username={username}
      />
    </section>
  );
}

/** The filters: drawn again only when what they show changes (memo), not with every snapshot of the list. */
const Filters = memo(function Filters({
  actor,
  filters,
  choices,
}: {
  actor: ActorRefFrom<typeof offerBrowserMachine>;
  filters: ReturnType<typeof selectFilters>;
  choices: ReturnType<typeof offerChoices>;
}) {
  return (
    <div className={filtersBox} role="search">
      <TextField
        label="Search trader"
        name="search"
        placeholder="Username"
        value={filters.search}
        onValueChange={(value) => actor.send({ type: 'filter.search', value })}
      />
      <PaymentMethodsField
        placeholder="All payment methods"
        methods={choices.methods}
        value={filters.paymentMethods}
        onValueChange={(value) => actor.send({ type: 'filter.paymentMethods', value })}
      />
      <SingleSelectField
        label="Offer type"
        name="offer_type"
        placeholder="Buy or sell"
        options={OFFER_TYPES}
        value={filters.offerType}
        onValueChange={(value) => actor.send({ type: 'filter.offerType', value: value === 'buy' || value === 'sell' ? value : '' })}
      />
      {CHOICE_FILTERS.map(({ from, filter, event, ...field }) => (
        <FilterSelectField
          key={field.name}
          {...field}
          options={choices[from]}
          value={filters[filter]}
          onValueChange={(value) => actor.send({ type: event, value })}
        />
      ))}
      <Button variant="outline" onClick={() => actor.send({ type: 'filters.clear' })}>
        Clear All
      </Button>
    </div>
  );
});

/** The page of offers and its pager: drawn again only when the page, the prices or the trader change (memo). */
const OfferList = memo(function OfferList({
  actor,
  offers,
  loaded,
  canPrevious,
  canNext,
  prices,
  username,
  refusals,
}: {
  actor: ActorRefFrom<typeof offerBrowserMachine>;
  offers: OfferListItem[];
  /** The offers the trader may not take, with the reason (selectTakeRefusals). */
  refusals: ReadonlyMap<number, string>;
  loaded: boolean;
  canPrevious: boolean;
  canNext: boolean;
  prices: LivePrices | undefined;
  username: string;
}) {
  const rest = useRestLater(offers.length > FIRST_CARDS);
  const shown = rest ? offers : offers.slice(0, FIRST_CARDS);
  return (
    <>
      {loaded && offers.length === 0 ? (
        <div className={`${cardStyle} ${empty}`}>
          <p>No offers found matching your criteria.</p>
          <ButtonLink to="/offers/create" variant="outline">
            Create the first offer
          </ButtonLink>
        </div>
      ) : (
        <div className={grid}>
          {shown.map((offer) => (
            <OfferCard
              key={offer.id}
              offer={offer}
              currentUsername={username}
              onTrade={() => actor.send({ type: 'offer.take', offer })}
              refusal={refusals.get(offer.id)}
              coinPrice={offerCoinPrice(offer, prices)}
            />
          ))}
        </div>
      )}

      {/* Once a page has arrived, and all of it is drawn: drawn before, the list would push it down (a layout shift). */}
      {loaded && shown.length === offers.length ? (
        <Pager canPrevious={canPrevious} canNext={canNext} actor={actor} />
      ) : null}
    </>
  );
});

/**
 * Whether the cards after the first screenful are drawn: not in the render that draws the first page to arrive, but
 * in a transition started once that render is on screen. The page's first list, its filters and their commit were
 * one task at once; split, each part stays short enough for a tap to be answered between them. From then on every
 * page is drawn whole.
 */
function useRestLater(needed: boolean) {
  const [rest, setRest] = useState(false);
  useEffect(() => {
    if (needed && !rest) startTransition(() => setRest(true));
  }, [needed, rest]);
  return rest;
}
