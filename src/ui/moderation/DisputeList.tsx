import { useSelector } from '@xstate/react';
import { css } from 'styled-system/css';
import {
  selectDisputeRows,
  selectIsListRefreshing,
  selectListView,
  selectSelectedChannel,
} from '../../machines/moderationDesk/moderationDesk.selectors.ts';
import { ChannelList } from '../chat/ChannelList.tsx';
import { ColumnFailed, ColumnLoading } from '../chat/SplitView.tsx';
import { Badge } from '../primitives/StatusBadge.tsx';
import { fiatAmount } from '../format/money.ts';
import { cryptoAmount } from './format.ts';
import { Parties } from './Parties.tsx';
import type { DeskRef } from './types.ts';

const heading = css({ px: '4', py: '3', fontSize: 'sm', fontWeight: 'semibold', borderBottomWidth: '1px', borderColor: 'border' });
const entry = css({ display: 'flex', flexDirection: 'column', gap: '1', px: '4' });
const parties = css({ fontWeight: 'semibold', fontSize: 'sm', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' });
const amounts = css({ fontSize: 'sm', fontVariantNumeric: 'tabular-nums' });
const muted = css({ fontSize: 'xs', color: 'fg.muted' });
const reason = css({ fontSize: 'xs', color: 'fg.muted', wordBreak: 'break-word' });
const waiting = css({ alignSelf: 'flex-start' });
const placeholder = css({ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: '3', p: '6', textAlign: 'center', color: 'fg.muted', fontSize: 'sm' });

/** The left column: the disputed trades, oldest first, each with its wait. */
export function DisputeList({ actor, onSelect }: { actor: DeskRef; onSelect: (channel: string) => void }) {
  const view = useSelector(actor, selectListView);
  const rows = useSelector(actor, selectDisputeRows);
  const selected = useSelector(actor, selectSelectedChannel);
  const refreshing = useSelector(actor, selectIsListRefreshing);

  return (
    <>
      <h2 className={heading}>Open disputes, oldest first</h2>
      {view === 'loading' ? (
        <ColumnLoading className={placeholder} label="Loading disputes" />
      ) : view === 'failed' ? (
        <ColumnFailed className={placeholder} text="The disputes could not be loaded." onRetry={() => actor.send({ type: 'list.retry' })} />
      ) : view === 'empty' ? (
        <p className={placeholder}>No open disputes</p>
      ) : (
        <ChannelList label="Disputes" busy={refreshing} rows={rows} selected={selected} onSelect={onSelect} layout={entry}>
          {(row) => (
            <>
              <span className={parties}>
                <Parties buyer={row.buyer} seller={row.seller} />
              </span>
              <span className={amounts}>
                {cryptoAmount(row.trading_amount_crypto, row.coin__ticker)} · {fiatAmount(row.trading_amount, row.currency__code)}
              </span>
              <span className={muted}>Raised by {row.disputed_by}</span>
              <span className={reason}>{row.reasonPreview}</span>
              <Badge tone="warning" className={waiting} data-waiting>
                {row.waiting}
              </Badge>
            </>
          )}
        </ChannelList>
      )}
    </>
  );
}
