import { Link } from '@tanstack/react-router';
import { css } from 'styled-system/css';
import type { OfferListItem } from '../../../contracts/index.ts';
import type { PriceDirection } from '../../machines/livePrices/livePrices.machine.ts';
import { formatFiat, formatRateLine } from '../format/money.ts';
import { Button, ButtonLink } from '../primitives/Button.tsx';
import { cardStyle } from '../primitives/Card.tsx';
import { Badge } from '../primitives/StatusBadge.tsx';
import { PriceMove, movingFigure } from '../prices/PriceMove.tsx';
import { formatCompletion, formatRating, formatTrades } from '../traders/reputation.ts';
import { conditionPhrases } from './conditions.ts';

export const MAX_PAYMENT_TAGS = 5;

const card = css({ display: 'flex', flexDirection: 'column', gap: '4' });
const head = css({ display: 'flex', alignItems: 'center', gap: '3' });
const coinName = css({ fontWeight: 'semibold' });
const ticker = css({ color: 'fg.muted', fontSize: 'sm', ml: '1' });
const typeBadge = css({ ml: 'auto' });
const trader = css({ display: 'flex', flexWrap: 'wrap', columnGap: '1.5', rowGap: '0.5', fontSize: 'sm', color: 'fg.muted' });
const traderName = css({ color: 'fg', fontWeight: 'medium', _hover: { textDecoration: 'underline' } });
const figure = css({ whiteSpace: 'nowrap', _before: { content: '"·"', mr: '1.5' } });
const rateLine = css({ fontSize: 'sm', fontWeight: 'medium' });
const coinPriceLine = css({ fontSize: 'sm', color: 'fg.muted' });
const limits = css({ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: '2', fontSize: 'sm' });
const limitLabel = css({ color: 'fg.muted', fontSize: 'xs' });
const tags = css({ display: 'flex', flexWrap: 'wrap', gap: '1.5' });
const tag = css({ bg: 'bg.muted', color: 'fg', px: '2', py: '0.5', borderRadius: 'md', fontSize: 'xs' });
const conditionsLine = css({ fontSize: 'xs', color: 'fg.muted' });
const refusalNote = css({ fontSize: 'sm', color: 'warning', bg: 'warning.subtle', borderRadius: 'md', px: '3', py: '2', mb: '2' });
const action = css({ mt: 'auto' });

/**
 * One offer card of Browse Offers and of a trader's profile. `onTrade` opens the offer's Trade Preview dialog.
 * `coinPrice` is one coin at its live price in the offer's currency (offerBrowser.selectors.ts); no line while
 * unknown. `refusal`: the trader may not take this offer (the chart refused `offer.take`), and this sentence, the
 * server's own, says why.
 */
export function OfferCard({
  offer,
  currentUsername,
  onTrade,
  coinPrice,
  refusal,
}: {
  offer: OfferListItem;
  currentUsername: string;
  onTrade?: () => void;
  coinPrice?: { amount: string; direction: PriceDirection | null } | null;
  refusal?: string;
}) {
  const mine = offer.user__username === currentUsername;
  const conditions = conditionPhrases(offer);
  const refusalId = `offer-${offer.id}-refusal`;
  const shown = offer.payment_methods.slice(0, MAX_PAYMENT_TAGS);
  const hidden = offer.payment_methods.length - shown.length;
  return (
    <article className={`${cardStyle} ${card}`} aria-label={`${offer.offer_type} offer by ${offer.user__username}`}>
      <div className={head}>
        <img src={offer.coin__image} alt="" width={32} height={32} />
        <div>
          <span className={coinName}>{offer.coin__label}</span>
          <span className={ticker}>{offer.coin__ticker.toUpperCase()}</span>
        </div>
        <Badge tone={offer.offer_type} className={typeBadge} data-type={offer.offer_type}>
          {offer.offer_type}
        </Badge>
      </div>
      <div className={trader}>
        <span>
          <Link to="/traders/$username" params={{ username: offer.user__username }} className={traderName}>
            {offer.user__username}
          </Link>
          {mine ? ' (me)' : ''}
        </span>
        <span className={figure} data-rating>
          {formatRating(offer.user__rating, offer.user__rated_by)}
        </span>
        <span className={figure}>{formatTrades(offer.user__trades_count)}</span>
        <span className={figure} data-completion>
          {formatCompletion(offer.user__completion_rate)}
        </span>
      </div>
      <div className={rateLine}>
        Rate: {formatRateLine(offer.rate, offer.currency__code)}
      </div>
      {coinPrice ? (
        <div className={`${coinPriceLine} ${movingFigure}`} data-direction={coinPrice.direction ?? undefined}>
          <span>
            1 {offer.coin__ticker.toUpperCase()} ≈ {formatFiat(coinPrice.amount)} {offer.currency__code}
          </span>
          <PriceMove direction={coinPrice.direction} />
        </div>
      ) : null}
      <div className={limits}>
        <div>
          <div className={limitLabel}>Min</div>
          {formatFiat(offer.min_amount)} {offer.currency__code}
        </div>
        <div>
          <div className={limitLabel}>Max</div>
          {formatFiat(offer.max_amount)} {offer.currency__code}
        </div>
      </div>
      <div className={tags}>
        {shown.map((method) => (
          <span key={method} className={tag}>
            {method}
          </span>
        ))}
        {hidden > 0 ? <span className={tag}>+{hidden} more</span> : null}
      </div>
      {conditions.length > 0 ? (
        <div className={conditionsLine} data-conditions>
          For traders with {conditions.join(' · ')}
        </div>
      ) : null}
      <div className={action}>
        {refusal !== undefined && !mine ? (
          <p id={refusalId} className={refusalNote} role="note">
            {refusal}
          </p>
        ) : null}
        {mine ? (
          <ButtonLink to="/offers/$id" params={{ id: String(offer.id) }} variant="outline" className={css({ w: '100%' })}>
            Edit offer
          </ButtonLink>
        ) : (
          <Button
            variant={offer.offer_type === 'buy' ? 'sell' : 'buy'}
            className={css({ w: '100%' })}
            onClick={onTrade}
            disabled={!onTrade || refusal !== undefined}
            aria-describedby={refusal !== undefined ? refusalId : undefined}
          >
            {offer.offer_type === 'buy' ? 'Sell to this buyer' : 'Buy from this seller'}
          </Button>
        )}
      </div>
    </article>
  );
}
