import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import type { ReactNode } from 'react';
import { css, cx } from 'styled-system/css';
import type { OperatorOverview } from '../../../contracts/operator.ts';
import {
  selectHasShortfall,
  selectHoldingRows,
  selectIsRefreshing,
  selectLiveness,
  selectOldestWait,
  selectOverview,
  selectOverviewView,
} from '../../machines/operatorOverview/operatorOverview.selectors.ts';
import { ColumnFailed, ColumnLoading } from '../chat/SplitView.tsx';
import { PageHeader } from '../pages/PageHeader.tsx';
import { callout, factList } from '../primitives/boxes.ts';
import { Card } from '../primitives/Card.tsx';
import { Badge } from '../primitives/StatusBadge.tsx';
import { coinAmount, count, formatMaybe, usd } from './format.ts';
import { DataTable, type Column } from '../primitives/DataTable.tsx';
import { link, muted, placeholder, section, sectionTitle } from './styles.ts';
import type { OverviewRef } from './types.ts';

const cards = css({ display: 'grid', gridTemplateColumns: { base: '1fr', sm: 'repeat(2, 1fr)', xl: 'repeat(4, 1fr)' }, gap: '4', mt: '6' });
const cardTitle = css({ fontSize: 'sm', fontWeight: 'medium', color: 'fg.muted' });
const big = css({ fontSize: '3xl', fontWeight: 'bold', fontVariantNumeric: 'tabular-nums', lineHeight: '1.2', mt: '1' });
const facts = cx(factList, css({ gridTemplateColumns: '1fr auto', rowGap: '1', '& dd': { fontVariantNumeric: 'tabular-nums', textAlign: 'right' } }));
const below = css({ mt: '3', display: 'flex', flexDirection: 'column', gap: '2' });
const cardFoot = css({ fontSize: 'sm' });
const networkHead = css({ display: 'flex', flexWrap: 'wrap', alignItems: 'baseline', gap: '2', px: '4', pt: '4' });
const networkName = css({ fontWeight: 'semibold' });
const watcher = css({ display: 'flex', flexWrap: 'wrap', columnGap: '4', rowGap: '1', px: '4', pb: '3', pt: '1', fontSize: 'sm', color: 'fg.muted' });
const networks = css({ display: 'grid', gap: '4' });
const shortfall = css({ color: 'danger', fontWeight: 'semibold' });
const alert = cx(callout({ tone: 'danger' }), css({ mt: '6', p: '3', color: 'danger', fontWeight: 'medium' }));
const periodColumns: Column[] = [
  { label: 'Period', nowrap: true },
  ...['Opened', 'Completed', 'Cancelled', 'Disputed'].map((label) => ({ label, numeric: true })),
];
const feeColumns: Column[] = [{ label: 'Coin' }, ...['Today', '7 days', 'All time'].map((label) => ({ label, numeric: true }))];
const holdingColumns: Column[] = [
  { label: 'Coin' },
  ...['Owed to traders', 'Held', 'Difference'].map((label) => ({ label, numeric: true })),
  { label: 'Source', nowrap: true },
];

/** /operator: the platform at a glance, as the overview's chart has it. */
export function OverviewScreen({ actor }: { actor: OverviewRef }) {
  const view = useSelector(actor, selectOverviewView);
  const overview = useSelector(actor, selectOverview);
  const liveness = useSelector(actor, selectLiveness);
  const refreshing = useSelector(actor, selectIsRefreshing);
  return (
    <section aria-busy={refreshing || view === 'loading'}>
      <PageHeader
        title="Overview"
        subtitle="The platform at a glance: traders, trades, disputes, fees, and what each network owes against what it holds."
        actions={
          liveness === 'connecting' ? null : (
            <Badge tone={liveness === 'live' ? 'success' : 'neutral'} data-liveness={liveness}>
              {liveness === 'live' ? 'Live' : 'Updated every minute'}
            </Badge>
          )
        }
      />
      {view === 'loading' ? (
        <ColumnLoading className={placeholder} label="Loading the overview" />
      ) : view === 'failed' || !overview ? (
        <ColumnFailed className={placeholder} text="The overview could not be loaded." onRetry={() => actor.send({ type: 'overview.retry' })} />
      ) : (
        <Shown actor={actor} overview={overview} />
      )}
    </section>
  );
}

function Stat({ title, value, children, label }: { title: string; value: string; children?: ReactNode; label: string }) {
  return (
    <Card aria-label={label} role="group">
      <h2 className={cardTitle}>{title}</h2>
      <p className={big}>{value}</p>
      {children ? <div className={below}>{children}</div> : null}
    </Card>
  );
}

function Shown({ actor, overview }: { actor: OverviewRef; overview: OperatorOverview }) {
  const oldestWait = useSelector(actor, selectOldestWait);
  const holdings = useSelector(actor, selectHoldingRows);
  const short = useSelector(actor, selectHasShortfall);
  const { traders, trades, disputes, reviews, push_queue: push } = overview;
  return (
    <>
      {short ? (
        <p className={alert} role="alert">
          A network holds less than the ledger owes its traders: see the shortfall in red below.
        </p>
      ) : null}
      <div className={cards}>
        <Stat title="Traders" label="Traders" value={count(traders.total)}>
          <dl className={facts}>
            <dt>Active in 24 h</dt>
            <dd>{count(traders.active_24h)}</dd>
            <dt>Active in 7 days</dt>
            <dd>{count(traders.active_7d)}</dd>
            <dt>Suspended</dt>
            <dd>{count(traders.suspended)}</dd>
          </dl>
        </Stat>
        <Stat title="Open trades" label="Trades" value={count(trades.open)}>
          <dl className={facts}>
            <dt>Disputed now</dt>
            <dd>{count(trades.disputed)}</dd>
          </dl>
        </Stat>
        <Stat title="Disputes waiting" label="Disputes" value={count(disputes.waiting)}>
          <p className={cardFoot} data-oldest-wait>
            {oldestWait ?? 'None waiting'}
          </p>
        </Stat>
        <Stat title="Withdrawals to review" label="Reviews" value={count(reviews.waiting)}>
          <p className={`${cardFoot} ${muted}`}>At or above {usd(reviews.threshold_usd)}</p>
          <p className={cardFoot}>
            <Link to="/operator/{-$section}/{-$username}" params={{ section: 'reviews' }} className={link}>
              Open the review queue
            </Link>
          </p>
        </Stat>
      </div>

      <section className={section} aria-label="Trades">
        <h2 className={sectionTitle}>Trades</h2>
        <DataTable
          columns={periodColumns}
          rows={(
            [
              ['Today (UTC)', trades.today],
              ['Last 7 days', trades.week],
            ] as const
          ).map(([period, figures]) => ({
            key: period,
            cells: [<strong key="period">{period}</strong>, ...[figures.opened, figures.completed, figures.cancelled, figures.disputed].map(count)],
          }))}
        />
      </section>

      <section className={section} aria-label="Fee income">
        <h2 className={sectionTitle}>Fee income</h2>
        <DataTable
          columns={feeColumns}
          rows={overview.fees.map((fee) => ({
            key: fee.ticker,
            cells: [
              <strong key="coin">{fee.ticker.toUpperCase()}</strong>,
              ...[fee.today, fee.week, fee.all_time].map((amount) => coinAmount(amount, fee.decimal_places, fee.ticker)),
            ],
          }))}
        />
      </section>

      <section className={section} aria-label="Networks">
        <h2 className={sectionTitle}>Networks: owed and held</h2>
        <div className={networks}>
          {overview.networks.map((network) => (
            <div key={network.network} role="group" aria-label={network.name} data-network={network.network}>
              <DataTable
                columns={holdingColumns}
                rows={holdings
                  .filter((row) => row.network === network.network)
                  .map((row) => ({
                    key: row.ticker,
                    data: { 'data-shortfall': row.shortfall },
                    cells: [
                      <strong key="coin">{row.ticker.toUpperCase()}</strong>,
                      coinAmount(row.owed, row.decimal_places, row.ticker),
                      row.held === null ? 'Not read yet' : coinAmount(row.held, row.decimal_places, row.ticker),
                      <span key="difference" className={row.shortfall ? shortfall : undefined}>
                        {row.difference === null ? '—' : coinAmount(row.difference, row.decimal_places, row.ticker)}
                        {row.shortfall ? ' (shortfall)' : ''}
                      </span>,
                      row.source === 'chain' ? `Chain, ${formatMaybe(network.read_at)}` : 'Recorded',
                    ],
                  }))}
              >
                <div className={networkHead}>
                  <span className={networkName}>{network.name}</span>
                  {network.open_incidents > 0 ? (
                    <Badge tone="danger">
                      {network.open_incidents} open incident{network.open_incidents === 1 ? '' : 's'}
                    </Badge>
                  ) : null}
                </div>
                <div className={watcher}>
                  <span>Last block {network.last_block === null ? '—' : count(network.last_block)}</span>
                  <span>Head {network.head === null ? '—' : count(network.head)}</span>
                  <span data-lag>
                    Lag {network.lag_blocks === null ? '—' : `${count(network.lag_blocks)} block${network.lag_blocks === 1 ? '' : 's'}`}
                  </span>
                  <span>Last round {formatMaybe(network.last_round_at, 'not yet')}</span>
                </div>
              </DataTable>
            </div>
          ))}
        </div>
      </section>

      <section className={section} aria-label="Web push queue">
        <h2 className={sectionTitle}>Web push queue</h2>
        <Card>
          <dl className={facts}>
            <dt>Waiting to be sent</dt>
            <dd data-push-depth>{count(push.depth)}</dd>
            <dt>Oldest</dt>
            <dd>{formatMaybe(push.oldest)}</dd>
          </dl>
        </Card>
      </section>
    </>
  );
}
