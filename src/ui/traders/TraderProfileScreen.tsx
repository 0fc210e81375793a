import { useSelector } from '@xstate/react';
import { DateTime } from 'luxon';
import type { ActorRefFrom } from 'xstate';
import { css, cx } from 'styled-system/css';
import type { OfferListItem } from '../../../contracts/index.ts';
import type { TraderProfile, TraderRating } from '../../../contracts/traders.ts';
import type { traderProfileMachine } from '../../machines/traderProfile/traderProfile.machine.ts';
import {
  selectCanRetry,
  selectProfile,
  selectProfileUsername,
  selectProfileView,
  selectTakeRefusals,
} from '../../machines/traderProfile/traderProfile.selectors.ts';
import { Spinner } from '../chat/Spinner.tsx';
import { formatRelative } from '../format/relative.ts';
import { OfferCard } from '../offers/OfferCard.tsx';
import { Button, ButtonLink } from '../primitives/Button.tsx';
import { cardStyle } from '../primitives/Card.tsx';
import { initialAvatar } from '../primitives/looks.ts';
import { formatAccountAge, formatCompletionPercent, formatRatedBy, formatTrades } from './reputation.ts';

const page = css({ display: 'flex', flexDirection: 'column', gap: '6' });
const head = css({ display: 'flex', alignItems: 'center', gap: '4' });
const avatar = cx(initialAvatar, css({ w: '14', h: '14', fontSize: '2xl' }));
const name = css({ fontSize: { base: '2xl', md: '3xl' }, fontWeight: 'bold', letterSpacing: '-0.02em', wordBreak: 'break-all' });
const muted = css({ color: 'fg.muted', fontSize: 'sm' });
const stats = css({ display: 'grid', gridTemplateColumns: { base: '1fr 1fr', md: 'repeat(4, 1fr)' }, gap: '3' });
const stat = css({ display: 'flex', flexDirection: 'column', gap: '1' });
const statValue = css({ fontSize: 'xl', fontWeight: 'bold' });
const sectionTitle = css({ fontSize: 'lg', fontWeight: 'semibold', mb: '3' });
const ratingList = css({ display: 'flex', flexDirection: 'column', gap: '3' });
const ratingItem = css({ display: 'flex', flexDirection: 'column', gap: '1', pb: '3', borderBottomWidth: '1px', borderColor: 'border', _last: { borderBottomWidth: '0', pb: '0' } });
const starsLine = css({ color: 'warning', letterSpacing: '0.1em' });
const grid = css({ display: 'grid', gridTemplateColumns: { base: '1fr', md: 'repeat(2, 1fr)', xl: 'repeat(3, 1fr)' }, gap: '4' });
const centre = css({ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: '3', py: '10', textAlign: 'center' });

/** "Joined March 2025". */
export const formatJoined = (iso: string) => `Joined ${DateTime.fromISO(iso).setLocale('en-US').toFormat('LLLL yyyy')}`;

const starsOf = (score: number) => '★'.repeat(score) + '☆'.repeat(Math.max(0, 5 - score));

/** The same refusals: the profile's snapshot changes only with a load, and its cards redraw only when these change. */
const sameRefusals = (a: ReadonlyMap<number, string>, b: ReadonlyMap<number, string>) =>
  a.size === b.size && [...a].every(([id, why]) => b.get(id) === why);

/**
 * /traders/$username: what a counterparty weighs before trading with this trader. Each offer's trade button opens
 * that offer's Trade Preview (the chart's `offer.take`, which the route binds to the dialog beside the page).
 */
export function TraderProfileScreen({ actor, currentUsername }: { actor: ActorRefFrom<typeof traderProfileMachine>; currentUsername: string }) {
  const view = useSelector(actor, selectProfileView);
  const profile = useSelector(actor, selectProfile);
  const username = useSelector(actor, selectProfileUsername);
  const canRetry = useSelector(actor, selectCanRetry);
  const refusals = useSelector(actor, selectTakeRefusals, sameRefusals);

  if (view === 'loaded' && profile)
    return <Profile profile={profile} currentUsername={currentUsername} refusals={refusals} onTake={(offer) => actor.send({ type: 'offer.take', offer })} />;
  return (
    <section className={`${cardStyle} ${centre}`} aria-label="Trader profile" data-view={view}>
      {view === 'loading' ? <Spinner label="Loading the trader" /> : null}
      {view === 'notFound' ? (
        <>
          <h1 className={css({ fontSize: 'xl', fontWeight: 'bold' })}>No trader called {username}</h1>
          <p className={muted}>The name may be misspelt, or the account may not exist.</p>
          <ButtonLink to="/offers" variant="outline">
            Browse offers
          </ButtonLink>
        </>
      ) : null}
      {view === 'error' ? (
        <>
          <h1 className={css({ fontSize: 'xl', fontWeight: 'bold' })}>The profile could not be loaded</h1>
          <Button variant="outline" disabled={!canRetry} onClick={() => actor.send({ type: 'profile.retry' })}>
            Try again
          </Button>
        </>
      ) : null}
    </section>
  );
}

function Profile({
  profile,
  currentUsername,
  refusals,
  onTake,
}: {
  profile: TraderProfile;
  currentUsername: string;
  refusals: ReadonlyMap<number, string>;
  onTake: (offer: OfferListItem) => void;
}) {
  const completion = formatCompletionPercent(profile.completion_rate);
  return (
    <section className={page} aria-label={`Trader ${profile.username}`}>
      <header className={head}>
        <span className={avatar} aria-hidden="true">
          {profile.username.charAt(0).toUpperCase()}
        </span>
        <div>
          <h1 className={name}>{profile.username}</h1>
          <p className={muted}>{formatJoined(profile.joined)}</p>
        </div>
      </header>

      <dl className={stats}>
        <div className={`${cardStyle} ${stat}`}>
          <dt className={muted}>Completed trades</dt>
          <dd className={statValue}>{profile.trades_count.toLocaleString('en-US')}</dd>
        </div>
        <div className={`${cardStyle} ${stat}`}>
          <dt className={muted}>Completion rate</dt>
          <dd className={statValue}>{completion ?? 'New trader'}</dd>
        </div>
        <div className={`${cardStyle} ${stat}`}>
          <dt className={muted}>Rating</dt>
          <dd className={statValue}>
            {profile.rated_by === 0 ? 'No ratings yet' : `★ ${profile.rating}`}
            {profile.rated_by > 0 ? (
              <span className={`${muted} ${css({ display: 'block', fontWeight: 'normal' })}`}>
                rated by {formatRatedBy(profile.rated_by)}
                {profile.ratings_count > profile.rated_by ? ` (${profile.ratings_count.toLocaleString('en-US')} ratings)` : ''}
              </span>
            ) : null}
          </dd>
        </div>
        <div className={`${cardStyle} ${stat}`}>
          <dt className={muted}>Account age</dt>
          <dd className={statValue}>{formatAccountAge(profile.account_age_days)}</dd>
        </div>
      </dl>

      <section className={cardStyle} aria-label="Latest ratings">
        <h2 className={sectionTitle}>Latest ratings</h2>
        {profile.ratings.length === 0 ? (
          <p className={muted}>Nobody has rated {profile.username} yet.</p>
        ) : (
          <ul className={ratingList}>
            {profile.ratings.map((rating, index) => (
              <RatingItem key={`${rating.rater}-${rating.created}-${index}`} rating={rating} />
            ))}
          </ul>
        )}
      </section>

      <section aria-label="Active offers">
        <h2 className={sectionTitle}>Active offers</h2>
        {profile.offers.length === 0 ? (
          <p className={muted}>{profile.username} has no active offers. {formatTrades(profile.trades_count)} completed so far.</p>
        ) : (
          <div className={grid}>
            {profile.offers.map((offer) => (
              <OfferCard
                key={offer.id}
                offer={offer}
                currentUsername={currentUsername}
                onTrade={() => onTake(offer)}
                refusal={refusals.get(offer.id)}
              />
            ))}
          </div>
        )}
      </section>
    </section>
  );
}

function RatingItem({ rating }: { rating: TraderRating }) {
  return (
    <li className={ratingItem}>
      <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '2', alignItems: 'baseline' })}>
        <span className={starsLine} role="img" aria-label={`${rating.score} out of 5`}>
          {starsOf(rating.score)}
        </span>
        <span className={css({ fontWeight: 'medium', fontSize: 'sm' })}>{rating.rater}</span>
        <time className={muted} dateTime={rating.created}>
          {formatRelative(rating.created)}
        </time>
      </div>
      {rating.comment ? <p className={css({ fontSize: 'sm', whiteSpace: 'pre-wrap', wordBreak: 'break-word' })}>{rating.comment}</p> : null}
    </li>
  );
}
