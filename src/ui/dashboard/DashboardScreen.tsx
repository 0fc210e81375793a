import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { memo, useDeferredValue } from 'react';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import { css } from 'styled-system/css';
import type { RecentTrade, WalletItem } from '../../../contracts/index.ts';
import type { dashboardMachine } from '../../machines/dashboard/dashboard.machine.ts';
import {
  liveTotalBalance,
  selectIsLoading,
  selectLivePrices,
  selectOverview,
  selectPricesUnavailable,
  selectWallets,
} from '../../machines/dashboard/dashboard.selectors.ts';
import { selectIsLive, selectPrices, type LivePrices } from '../../machines/livePrices/livePrices.selectors.ts';
import { formatCrypto, formatUsd } from '../format/money.ts';
import { formatRelative } from '../format/relative.ts';
import { ButtonLink } from '../primitives/Button.tsx';
import { Card } from '../primitives/Card.tsx';
import { ChatIcon, CheckIcon, TagIcon, WalletIcon } from '../primitives/icons.tsx';
import { Badge, StatusBadge } from '../primitives/StatusBadge.tsx';
import { PriceMove, movingFigure } from '../prices/PriceMove.tsx';

const greeting = css({ fontSize: { base: '2xl', md: '3xl' }, fontWeight: 'bold', letterSpacing: '-0.02em' });
const sub = css({ color: 'fg.muted', mt: '1' });
const stats = css({
  display: 'grid',
  gridTemplateColumns: { base: '1fr', sm: 'repeat(2, 1fr)', lg: 'repeat(4, 1fr)' },
  gap: '4',
  mt: '6',
});
const statHead = css({ display: 'flex', justifyContent: 'space-between', alignItems: 'center', color: 'fg.muted', fontSize: 'sm' });
const statValue = css({ fontSize: '2xl', fontWeight: 'bold', mt: '2', fontVariantNumeric: 'tabular-nums' });
const panels = css({ display: 'grid', gridTemplateColumns: { base: '1fr', lg: '1fr 2fr' }, gap: '4', mt: '6', alignItems: 'start' });
const column = css({ display: 'flex', flexDirection: 'column', gap: '4' });
const pricesHead = css({ display: 'flex', justifyContent: 'space-between', alignItems: 'center', mb: '4' });
const coinName = css({ fontWeight: 'medium' });
const coinTicker = css({ color: 'fg.muted', fontSize: 'xs' });
const price = css({ ml: 'auto', fontSize: 'sm', fontWeight: 'medium' });
const panelTitle = css({ fontSize: 'lg', fontWeight: 'semibold', mb: '4' });
const quick = css({ display: 'grid', gridTemplateColumns: 'repeat(2, 1fr)', gap: '3' });
const tradesHead = css({ display: 'flex', justifyContent: 'space-between', alignItems: 'center', mb: '4' });
const list = css({ display: 'flex', flexDirection: 'column' });
const rowStyle = css({
  display: 'flex',
  alignItems: 'center',
  gap: '3',
  py: '3',
  borderTopWidth: '1px',
  borderColor: 'border',
  _first: { borderTopWidth: '0' },
});
const side = css({ fontWeight: 'semibold', '&[data-type=buy]': { color: 'buy' }, '&[data-type=sell]': { color: 'sell' } });
const when = css({ color: 'fg.muted', fontSize: 'xs' });
const amount = css({ ml: 'auto', fontVariantNumeric: 'tabular-nums', fontSize: 'sm', textAlign: 'right' });
const empty = css({ color: 'fg.muted', py: '8', textAlign: 'center' });

function TradeRow({ trade }: { trade: RecentTrade }) {
  return (
    <li className={rowStyle}>
      <img src={trade.offer__coin__image} alt="" width={28} height={28} />
      <div>
        <div className={side} data-type={trade.trade_type}>
          {trade.trade_type === 'buy' ? 'Bought' : 'Sold'}
        </div>
        <div className={when}>{formatRelative(trade.created)}</div>
      </div>
      <div className={amount}>{formatCrypto(trade.amount_crypto, trade.offer__coin__decimal_places, trade.offer__coin__ticker)}</div>
      <StatusBadge status={trade.status} />
    </li>
  );
}

/** One coin of the live prices panel: image, label, upper-case ticker and USD price, coloured by its last move. */
function PriceRow({ wallet, prices }: { wallet: WalletItem; prices: LivePrices | undefined }) {
  const live = prices?.[wallet.coin__ticker] ?? { price: wallet.coin__price, direction: null };
  const ticker = wallet.coin__ticker.toUpperCase();
  return (
    <li className={rowStyle} aria-label={`${wallet.coin__label} ${ticker}`}>
      <img src={wallet.coin__image} alt="" width={28} height={28} />
      <div>
        <div className={coinName}>{wallet.coin__label}</div>
        <div className={coinTicker}>{ticker}</div>
      </div>
      <div className={`${price} ${movingFigure}`} data-direction={live.direction ?? undefined}>
        <span>{formatUsd(live.price)}</span>
        <PriceMove direction={live.direction} />
      </div>
    </li>
  );
}

function LivePricesPanel({
  wallets,
  prices,
  live,
  unavailable,
}: {
  wallets: WalletItem[] | null;
  prices: LivePrices | undefined;
  live: boolean;
  unavailable: boolean;
}) {
  return (
    <Card role="region" aria-labelledby="live-prices-title">
      <div className={pricesHead}>
        <h2 id="live-prices-title" className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>
          Live prices
        </h2>
        {live ? <Badge tone="success">Live</Badge> : null}
      </div>
      {unavailable ? (
        <p className={empty}>Prices are unavailable right now.</p>
      ) : wallets === null ? (
        <p className={empty}>Loading prices…</p>
      ) : (
        <ul className={list}>
          {wallets.map((wallet) => (
            <PriceRow key={wallet.id} wallet={wallet} prices={prices} />
          ))}
        </ul>
      )}
    </Card>
  );
}

/** A figure whose first overview is still on its way: a dash, never a zero the trader could take for theirs. */
const NOT_YET = '—';

export function DashboardScreen({ actor, username }: { actor: ActorRefFrom<typeof dashboardMachine>; username: string }) {
  // What the server sends (the overview, the wallets, each price) is drawn as a transition, in slices that leave the
  // page answering taps: a snapshot's change alone is drawn at once, in one task (useSyncExternalStore), and on a
  // phone the whole page arriving at once took longer than a tap may wait. Nothing here is typed into, so all of it
  // may trail a moment.
  const arrived = useDeferredValue(useSelector(actor, (snapshot) => snapshot));
  const livePrices = selectLivePrices(arrived);
  const prices = useDeferredValue(useSelector(livePrices, (snapshot) => snapshot && selectPrices(snapshot)));
  const live = useDeferredValue(useSelector(livePrices, (snapshot) => snapshot !== undefined && selectIsLive(snapshot)));
  return <Dashboard arrived={arrived} prices={prices} live={live} username={username} />;
}

/** The page as the chart's snapshot draws it: drawn again only once a deferred value has caught up (memo). */
const Dashboard = memo(function Dashboard({
  arrived,
  prices,
  live,
  username,
}: {
  arrived: SnapshotFrom<typeof dashboardMachine>;
  prices: LivePrices | undefined;
  live: boolean;
  username: string;
}) {
  const overview = selectOverview(arrived);
  const loading = selectIsLoading(arrived);
  const wallets = selectWallets(arrived);
  const pricesUnavailable = selectPricesUnavailable(arrived);
  const totalBalance = liveTotalBalance(overview, wallets, prices);
  // The first overview is on its way (a failed one shows 0s, as the chart says).
  const pending = overview === null && loading;
  const cards = [
    { label: 'Total Balance', value: pending && totalBalance === null ? NOT_YET : formatUsd(totalBalance), icon: <WalletIcon /> },
    { label: 'Active Offers', value: pending ? NOT_YET : String(overview?.active_offers ?? 0), icon: <TagIcon /> },
    { label: 'Completed Trades', value: pending ? NOT_YET : String(overview?.completed_trades ?? 0), icon: <CheckIcon /> },
    { label: 'Open Chats', value: pending ? NOT_YET : String(overview?.open_chats ?? 0), icon: <ChatIcon /> },
  ];
  const trades = overview?.recent_trades ?? [];

  return (
    <section aria-busy={loading}>
      {/* One text node: the page drawn at build time leaves the name as a slot inside it (src/prerender.tsx). */}
      <h1 className={greeting}>{`Welcome back, ${username}`}</h1>
      <p className={sub}>Here is what is happening with your trading today.</p>

      <div className={stats}>
        {cards.map((card) => (
          <Card key={card.label}>
            <div className={statHead}>
              <span>{card.label}</span>
              {card.icon}
            </div>
            <div className={statValue}>{card.value}</div>
          </Card>
        ))}
      </div>

      <div className={panels}>
        <div className={column}>
          <Card>
            <h2 className={panelTitle}>Quick Actions</h2>
            <div className={quick}>
              <ButtonLink to="/offers/create">Create Offer</ButtonLink>
              <ButtonLink to="/offers" variant="outline">
                Browse Offers
              </ButtonLink>
              <ButtonLink to="/wallets" variant="outline">
                View Wallets
              </ButtonLink>
              <ButtonLink to="/chat" variant="outline">
                Open Chat
              </ButtonLink>
            </div>
          </Card>
          <LivePricesPanel wallets={wallets} prices={prices} live={live} unavailable={pricesUnavailable} />
        </div>
        <Card>
          <div className={tradesHead}>
            <h2 className={css({ fontSize: 'lg', fontWeight: 'semibold' })}>Recent Trades</h2>
            <Link to="/trades" className={css({ color: 'accent', fontSize: 'sm', fontWeight: 'medium' })}>
              View All Trades
            </Link>
          </div>
          {pending ? (
            <p className={empty}>Loading trades…</p>
          ) : trades.length === 0 ? (
            <p className={empty}>You have no trades yet.</p>
          ) : (
            <ul className={list}>
              {trades.map((trade) => (
                <TradeRow key={trade.id} trade={trade} />
              ))}
            </ul>
          )}
        </Card>
      </div>
    </section>
  );
});
