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
const empty = css({ textAlign: 'center', color: 'fg.muted', py: '12!' });

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
    >
      {loaded && trades.length === 0 ? (
        <tr>
          <td colSpan={COLUMNS.length} className={empty}>
            No trades found matching your criteria.
          </td>
        </tr>
      ) : (
        trades.map((trade) => (
          <tr key={trade.id}>
            <td>{formatTradeDate(trade.created)}</td>
            <td>
              <span className={side} data-type={trade.trade_type}>
                {trade.trade_type}
              </span>
            </td>
            <td>{trade.partner}</td>
            <td>
              <span className={coinCell}>
                <img src={trade.offer__coin__image} alt="" width={20} height={20} />
                {trade.offer__coin__ticker.toUpperCase()}
              </span>
            </td>
            <td>{formatCrypto(trade.amount_crypto, trade.offer__coin__decimal_places, trade.offer__coin__ticker)}</td>
            <td>{formatUsd(trade.amount_usd)}</td>
            <td>{formatCrypto(trade.fee_crypto, trade.offer__coin__decimal_places, trade.offer__coin__ticker)}</td>
            <td>{formatUsd(trade.fee_usd)}</td>
            <td>{trade.payment_method}</td>
            <td>
              <StatusBadge status={trade.status} />
            </td>
          </tr>
        ))
      )}
    </HistoryPage>
  );
}
