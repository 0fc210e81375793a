import { useSelector } from '@xstate/react';
import { DateTime } from 'luxon';
import type { ActorRefFrom } from 'xstate';
import { css } from 'styled-system/css';
import type { WalletTransaction } from '../../../contracts/index.ts';
import type { walletHistoryMachine } from '../../machines/walletHistory/walletHistory.machine.ts';
import { selectFilters, selectHasLoaded, selectIsWatching, selectTransactions } from '../../machines/walletHistory/walletHistory.selectors.ts';
import { formatCrypto, formatUsd } from '../format/money.ts';
import { ArrowDownIcon, ArrowUpIcon } from '../primitives/icons.tsx';
import { StatusBadge } from '../primitives/StatusBadge.tsx';
import { HistoryPage } from '../history/HistoryPage.tsx';
import { STATUS_OPTIONS, type HistoryStatusOption, type WalletStatusFilter } from '../history/HistoryFilterBar.tsx';
import { TransactionTxid } from './TransactionTxid.tsx';

/** Dates read like the trades' "MMM DD YYYY hh:mm A" (e.g. "Mar 05 2025 02:07 PM"). */
const DAY = 'LLL dd yyyy';
const TIME = 'hh:mm a';

/** The date over its time, so the ten columns fit a laptop's width; it still reads as one "MMM DD YYYY hh:mm A". */
function TransactionDate({ iso }: { iso: string }) {
  const at = DateTime.fromISO(iso);
  return (
    <time className={stacked} dateTime={iso}>
      {at.toFormat(DAY)} <span className={muted}>{at.toFormat(TIME)}</span>
    </time>
  );
}

const TYPE_LABELS: Record<WalletTransaction['trans_type'], string> = { deposit: 'Deposit', withdrawal: 'Withdrawal' };
/** External went over the chain; internal was another Peerex trader's address, settled without the chain. */
const SCOPE_LABELS: Record<WalletTransaction['scope'], string> = { external: 'External', internal: 'Internal' };
/** A large withdrawal waits for an operator before it goes to the chain (docs/rules.md "Wallets"). */
const STATUSES: readonly HistoryStatusOption<WalletStatusFilter>[] = [
  STATUS_OPTIONS[0]!,
  { value: 'review', label: 'Waiting for review' },
  ...STATUS_OPTIONS.slice(1),
];

// Ten columns, one more than Recent Trades' widest: a little less padding keeps them inside a laptop's width.
const cells = css({
  '& th, & td': { px: '3' },
  '& th:first-child, & td:first-child': { pl: '4' },
  '& th:last-child, & td:last-child': { pr: '4' },
});
const kind = css({
  display: 'inline-flex',
  alignItems: 'center',
  gap: '1.5',
  fontWeight: 'semibold',
  '& svg': { flexShrink: 0 },
  '&[data-type=deposit] svg': { color: 'buy' },
  '&[data-type=withdrawal] svg': { color: 'sell' },
});
const coinCell = css({ display: 'flex', alignItems: 'center', gap: '2', '& img': { flexShrink: 0 } });
const stacked = css({ display: 'flex', flexDirection: 'column', lineHeight: 'tight' });
const muted = css({ color: 'fg.muted', fontSize: 'xs' });
const network = css({ color: 'fg.muted', fontSize: 'xs', textTransform: 'capitalize' });
const COLUMNS = ['Date & Time', 'Type', 'Coin', 'Amount (Crypto)', 'Amount (USD)', 'Fee (USD)', 'Fee (Crypto)', 'TXID', 'Scope', 'Status'] as const;
const empty = css({ textAlign: 'center', color: 'fg.muted', px: '4', py: '12' });
const live = css({ mt: '3', color: 'fg.muted', fontSize: 'xs', textAlign: 'center' });

export function TransactionsScreen({ actor }: { actor: ActorRefFrom<typeof walletHistoryMachine> }) {
  const transactions = useSelector(actor, selectTransactions);
  const { transType } = useSelector(actor, selectFilters);
  const loaded = useSelector(actor, selectHasLoaded);
  const watching = useSelector(actor, selectIsWatching);
  const copy = (txid: string) => actor.send({ type: 'txid.copy', txid });

  return (
    <HistoryPage
      actor={actor}
      title="Recent Transactions"
      subtitle="Deposits and withdrawals of your wallets."
      type={{
        name: 'trans_type',
        options: [
          { value: 'deposit', label: 'Deposit' },
          { value: 'withdrawal', label: 'Withdrawal' },
        ],
        value: transType,
        onChange: (value) => actor.send({ type: 'filter.transType', value }),
      }}
      statuses={STATUSES}
      tableClassName={cells}
      columns={COLUMNS}
      belowTable={
        // Under the table rather than in a row ten columns wide, so a phone shows it without scrolling sideways.
        loaded && transactions.length === 0 ? <p className={empty}>No transactions found matching your criteria.</p> : null
      }
      belowCard={
        watching ? (
          <p className={live} role="status">
            Pending transactions update automatically.
          </p>
        ) : null
      }
      rows={transactions.map((row) => ({
        key: row.id,
        cells: [
          <TransactionDate key="date" iso={row.created} />,
          <span key="type" className={kind} data-type={row.trans_type}>
            {row.trans_type === 'deposit' ? <ArrowDownIcon width={14} height={14} /> : <ArrowUpIcon width={14} height={14} />}
            {TYPE_LABELS[row.trans_type]}
          </span>,
          <span key="coin" className={coinCell}>
            <img src={row.coin__image} alt="" width={20} height={20} />
            <span className={stacked}>
              {row.coin__ticker.toUpperCase()} <span className={network}>{row.network}</span>
            </span>
          </span>,
          formatCrypto(row.amount_crypto, row.coin__decimal_places, row.coin__ticker),
          formatUsd(row.amount_usd),
          formatUsd(row.fee_usd),
          formatCrypto(row.fee_crypto, row.coin__decimal_places, row.coin__ticker),
          <TransactionTxid key="txid" txid={row.txid} onCopy={copy} />,
          SCOPE_LABELS[row.scope],
          <StatusBadge key="status" status={row.status} />,
        ],
      }))}
    />
  );
}
