import { useSelector } from '@xstate/react';
import { DateTime } from 'luxon';
import type { ActorRefFrom } from 'xstate';
import { css } from 'styled-system/css';
import type { tradeHistoryMachine } from '../../machines/tradeHistory/tradeHistory.machine.ts';
import { selectFilters, selectHasLoaded, selectTrades } from '../../machines/tradeHistory/tradeHistory.selectors.ts';
import { formatCrypto, formatUsd } from '../format/money.ts';
import { StatusBadge } from '../primitives/StatusBadge.tsx';
import { HistoryPage } from '../history/HistoryPage.tsx';

/** Trade dates read like "MMM DD YYYY hh:mm A" (e.g. "Mar 05 2025 02:07 PM"). */
export const formatTradeDate = (iso: string) => DateTime.fromISO(iso).toFormat('LLL dd yyyy hh:mm a');

const cells = css({ '& th, & td': { px: '4' } });
const side = css({ fontWeight: 'semibold', textTransform: 'capitalize', '&[data-type=buy]': { color: 'buy' }, '&[data-type=sell]': { color: 'sell' } });
const coinCell = css({ display: 'flex', alignItems: 'center', gap: '2' });
const COLUMNS = [
  'Date & Time',
  'Type',
  'Partner',
  'Coin',
  'Amount (Crypto)',
  'Amount (USD)',
  'Fee (Crypto)',
  'Fee (USD)',
  'Payment Method',
  'Status',
] as const;
const empty = css({ textAlign: 'center', color: 'fg.muted', px: '4', py: '12' });

export function TradesScreen({ actor }: { actor: ActorRefFrom<typeof tradeHistoryMachine> }) {
  const trades = useSelector(actor, selectTrades);
  const { tradeType } = useSelector(actor, selectFilters);
  const loaded = useSelector(actor, selectHasLoaded);

  return (
    <HistoryPage
      actor={actor}
      title="Recent Trades"
      subtitle="Every trade you opened or answered."
      type={{
        name: 'trade_type',
        options: [
          { value: 'buy', label: 'Buy' },
          { value: 'sell', label: 'Sell' },
        ],
        value: tradeType,
        onChange: (value) => actor.send({ type: 'filter.tradeType', value }),
      }}
      tableClassName={cells}
      columns={COLUMNS}
      belowTable={
        // Under the table rather than in a row ten columns wide, so a phone shows it as it shows the cards.
        loaded && trades.length === 0 ? <p className={empty}>No trades found matching your criteria.</p> : null
      }
      rows={trades.map((trade) => ({
        key: trade.id,
        cells: [
          formatTradeDate(trade.created),
          <span key="type" className={side} data-type={trade.trade_type}>
            {trade.trade_type}
          </span>,
          trade.partner,
          <span key="coin" className={coinCell}>
            <img src={trade.offer__coin__image} alt="" width={20} height={20} />
            {trade.offer__coin__ticker.toUpperCase()}
          </span>,
          formatCrypto(trade.amount_crypto, trade.offer__coin__decimal_places, trade.offer__coin__ticker),
          formatUsd(trade.amount_usd),
          formatCrypto(trade.fee_crypto, trade.offer__coin__decimal_places, trade.offer__coin__ticker),
          formatUsd(trade.fee_usd),
          trade.payment_method,
          <StatusBadge key="status" status={trade.status} />,
        ],
      }))}
    />
  );
}
